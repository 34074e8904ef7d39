import { describe, expect, it } from "vitest";
import { FakeLLM, textTurn } from "../../testing/fake-llm";
import { makeTestService } from "../../testing/session-service";
import { workspaceTools } from "../tools/index";

describe("SessionService.requestShape", () => {
  it("before this tab sent anything (a reload), builds the system prompt and tools the loop then sends", async () => {
    const llm = new FakeLLM([textTurn("hi")]);
    const { service } = makeTestService({ llm, tools: workspaceTools });
    const s = await service.createSession();
    await service.prompt(s.id, { text: "hello" });
    const built = await service.requestShape(s.id);
    await service.ensureRunning(s.id);
    const sent = llm.requests[0];
    expect(built?.system).toEqual(sent?.system);
    expect(built?.tools).toEqual(sent?.tools);
    expect(built?.tools.length).toBeGreaterThan(3);
    // Afterwards it is the last request's own shape.
    expect(await service.requestShape(s.id)).toEqual({ system: sent?.system, tools: sent?.tools });
  });
});
