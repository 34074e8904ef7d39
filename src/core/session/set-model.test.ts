import { describe, expect, it } from "vitest";
import { FakeLLM, textTurn } from "../../testing/fake-llm";
import { makeTestService } from "../../testing/session-service";

describe("SessionService.setModel (the header's model switch)", () => {
  it("the next step uses the new model and its answer records it; an empty id changes nothing", async () => {
    const llm = new FakeLLM([textTurn("first"), textTurn("second")]);
    const { store, service } = makeTestService({ llm, tools: [] });
    const s = await service.createSession();
    await service.prompt(s.id, { text: "one" });
    await service.ensureRunning(s.id);
    await service.setModel(s.id, { providerID: "openai-compatible", modelID: "  gpt-4.1-mini " });
    await service.setModel(s.id, { providerID: "openai-compatible", modelID: " " });
    await service.prompt(s.id, { text: "two" });
    await service.ensureRunning(s.id);
    expect(llm.requests.filter((r) => r.purpose === "chat").map((r) => r.model.modelID)).toEqual(["gpt-4o-mini", "gpt-4.1-mini"]);
    const answers = (await store.messages(s.id)).flatMap((m) => (m.info.role === "assistant" ? [m.info.modelID] : []));
    expect(answers).toEqual(["gpt-4o-mini", "gpt-4.1-mini"]);
  });
});
