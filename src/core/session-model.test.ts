import { describe, expect, it } from "vitest";
import { FakeLLM, textTurn } from "../testing/fake-llm";
import { makeTestService } from "../testing/session-service";
import { answeredModelConfig, defaultSettings, sessionModelConfig } from "./settings";

describe("per-session model", () => {
  const settings = { ...defaultSettings(), provider: "openai" as const, modelID: "gpt-5-mini", apiKey: "sk-mine" };
  it("a past answer is read back with its own model's numbers, whatever Settings chose, and never with the key", () => {
    const claude = answeredModelConfig(settings, { providerID: "anthropic", modelID: "claude-sonnet-4-5" });
    expect(claude).toMatchObject({ provider: "anthropic", modelID: "claude-sonnet-4-5", contextWindow: sessionModelConfig({ ...settings, provider: "anthropic", modelID: "claude-sonnet-4-5" }, undefined).contextWindow });
    expect(claude.contextWindow).not.toBe(sessionModelConfig(settings, undefined).contextWindow);
    expect(claude.apiKey).toBeUndefined();
    // A provider this build does not know (another tool's export) keeps Settings' provider, with the answer's model id.
    expect(answeredModelConfig(settings, { providerID: "github-copilot", modelID: "gpt-4.1" })).toMatchObject({ provider: "openai", modelID: "gpt-4.1", contextWindow: 1_047_576 });
  });
  it("uses the session's choice for the same provider, else Settings; demo sessions stay on the demo model", () => {
    expect(sessionModelConfig(settings, { model: { providerID: "openai", modelID: "gpt-4.1" } }).modelID).toBe("gpt-4.1");
    expect(sessionModelConfig(settings, { model: { providerID: "openai", modelID: "gpt-4.1" } }).contextWindow).toBe(1_047_576);
    expect(sessionModelConfig(settings, { model: { providerID: "anthropic", modelID: "claude-sonnet-4-5" } }).modelID).toBe("gpt-5-mini");
    expect(sessionModelConfig(settings, undefined).modelID).toBe("gpt-5-mini");
    expect(sessionModelConfig(settings, { demo: true }).provider).toBe("demo");
  });

  it("the next step uses the switched model and each answer records which model wrote it", async () => {
    const llm = new FakeLLM([textTurn("one"), textTurn("two")]);
    const { store, service } = makeTestService({ llm, tools: [], settings: { provider: "openai-compatible", modelID: "gpt-4o-mini" } });
    const s = await service.createSession();
    await service.prompt(s.id, { text: "first" });
    await service.ensureRunning(s.id);
    await store.updateSession(s.id, (x) => ({ ...x, model: { providerID: "openai-compatible", modelID: "qwen2.5-coder:7b" } }));
    await service.prompt(s.id, { text: "second" });
    await service.ensureRunning(s.id);
    expect(llm.requests.map((r) => r.model.modelID)).toEqual(["gpt-4o-mini", "qwen2.5-coder:7b"]);
    const answers = (await store.messages(s.id)).flatMap((m) => (m.info.role === "assistant" ? [m.info.modelID] : []));
    expect(answers).toEqual(["gpt-4o-mini", "qwen2.5-coder:7b"]);
  });
});
