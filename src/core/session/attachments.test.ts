import { describe, expect, it } from "vitest";
import { FakeLLM, textTurn } from "../../testing/fake-llm";
import { makeTestService } from "../../testing/session-service";
import type { Clock } from "../ports/clock";

const fastClock: Clock = { now: () => Date.now(), sleep: async () => undefined };
const PNG = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

describe("attachments of a prompt", () => {
  it("an @-mentioned text file reaches the model as its path and text, once, and is stored as a file part with its path", async () => {
    const llm = new FakeLLM([textTurn("ok")]);
    const { store, service } = makeTestService({ llm, tools: [], clock: fastClock });
    const s = await service.createSession();
    await service.prompt(s.id, {
      text: "explain @src/app.ts",
      files: [{ mime: "text/plain", filename: "app.ts", url: "file:///workspace/src/app.ts", path: "src/app.ts", text: "export const x = 1;" }],
    });
    await service.ensureRunning(s.id);
    expect(llm.requests[0]?.messages[0]?.content).toEqual([
      { type: "text", text: "explain @src/app.ts" },
      { type: "text", text: 'The user attached the workspace file src/app.ts:\n<file path="src/app.ts">\nexport const x = 1;\n</file>' },
    ]);
    const user = (await store.messages(s.id))[0];
    expect(user?.parts.find((p) => p.type === "file")).toMatchObject({ mime: "text/plain", filename: "app.ts", source: { type: "file", path: "src/app.ts" } });
    expect(user?.parts.find((p) => p.type === "text" && p.synthetic)).toMatchObject({ metadata: { attachment: true } });
  });

  it("an image goes to a model that accepts images as a file part", async () => {
    const llm = new FakeLLM([textTurn("ok")]);
    const { service } = makeTestService({ llm, tools: [], clock: fastClock });
    const s = await service.createSession();
    await service.prompt(s.id, { text: "look", files: [{ mime: "image/png", filename: "shot.png", url: PNG }] });
    await service.ensureRunning(s.id);
    expect(llm.requests[0]?.messages[0]?.content).toEqual([
      { type: "text", text: "look" },
      { type: "file", mime: "image/png", url: PNG, filename: "shot.png" },
    ]);
  });

  it("a model without image input gets a placeholder that says the image was not sent", async () => {
    const llm = new FakeLLM([textTurn("ok")]);
    const { service } = makeTestService({ llm, tools: [], clock: fastClock, settings: { modelID: "deepseek-chat" } });
    const s = await service.createSession();
    await service.prompt(s.id, { text: "look", files: [{ mime: "image/png", filename: "shot.png", url: PNG }] });
    await service.ensureRunning(s.id);
    expect(llm.requests[0]?.messages[0]?.content).toEqual([
      { type: "text", text: "look" },
      { type: "text", text: "[Attached image/png: shot.png — not sent, this model does not accept images]" },
    ]);
  });
});
