import { describe, expect, it, vi } from "vitest";
import { FakeLLM, textTurn, toolTurn } from "../../testing/fake-llm";
import { makeTestService } from "../../testing/session-service";
import { bigOutputTool } from "../../testing/tiny-model";
import { COMPACTION_SYSTEM_PROMPT } from "../compaction/summarize";
import type { LLMMessage } from "../ports/llm";
import { contextXray } from "../compaction/xray";
import { conversationView } from "../conversation/view";
import { defaultSettings, parseSettingsReport, type Settings, summaryModelFor } from "../settings";

const big = bigOutputTool;

const prices = (input: number, output: number) => ({ input, output, cacheRead: input / 10, cacheWrite: 0 });
const MAIN = { contextWindow: 4000, maxOutputTokens: 500, prices: prices(10, 40) };
const CHEAP = { contextWindow: 8000, maxOutputTokens: 500, prices: prices(1, 2) };

function setup(llm: FakeLLM, over: Partial<Settings> = {}) {
  return makeTestService({ llm, tools: [big], settings: { modelID: "main", summaryModelID: "cheap", models: { main: MAIN, cheap: CHEAP }, ...over } });
}

const summaryTurn = () => textTurn("## Goal\nDo the thing.\n## Progress\nCalled big.", { inputTokens: 1_000_000, outputTokens: 1_000_000 });

describe("summary model", () => {
  it("summaries are written by the summary model and cost its prices; chat steps stay on the session's model", async () => {
    const llm = new FakeLLM([toolTurn([{ tool: "big", input: { n: 4000 } }]), summaryTurn(), textTurn("Done.")]);
    const { store, service, settings } = setup(llm);
    const s = await service.createSession();
    await service.prompt(s.id, { text: "go" });
    await service.ensureRunning(s.id);
    expect(llm.requests.map((r) => [r.purpose, r.model.modelID])).toEqual([
      ["chat", "main"],
      ["summary", "cheap"],
      ["chat", "main"],
    ]);
    const msgs = await store.messages(s.id);
    const summary = msgs.find((m) => m.info.role === "assistant" && m.info.summary)?.info;
    expect(summary?.role === "assistant" && summary.modelID).toBe("cheap");
    // 1M input at $1 + 1M output at $2 (the cheap model), not $10 + $40.
    expect(summary?.role === "assistant" && summary.cost).toBeCloseTo(3, 9);
    // The X-ray names the writer and its cost.
    const session = await store.getSession(s.id);
    const x = contextXray({ view: conversationView(session, msgs), model: MAIN, settings, encoding: "o200k_base" });
    expect(x.sections.find((sec) => sec.summary)?.writtenBy).toEqual({ modelID: "cheap", cost: 3 });
  });

  it("the title is asked of the summary model", async () => {
    const llm = new FakeLLM([textTurn("Hello.")]);
    const { service } = setup(llm);
    const s = await service.createSession();
    await service.prompt(s.id, { text: "hi" });
    await service.ensureRunning(s.id);
    await vi.waitFor(() => expect(llm.titleRequests).toHaveLength(1));
    expect(llm.titleRequests[0]?.model.modelID).toBe("cheap");
    expect(llm.requests[0]?.model.modelID).toBe("main");
  });

  it("empty (the default): titles and summaries use the session's model", async () => {
    const llm = new FakeLLM([toolTurn([{ tool: "big", input: { n: 4000 } }]), summaryTurn(), textTurn("Done.")]);
    const { service } = setup(llm, { summaryModelID: "" });
    const s = await service.createSession();
    await service.prompt(s.id, { text: "go" });
    await service.ensureRunning(s.id);
    await vi.waitFor(() => expect(llm.titleRequests).toHaveLength(1));
    expect(llm.requests.map((r) => [r.purpose, r.model.modelID])).toEqual([
      ["chat", "main"],
      ["summary", "main"],
      ["chat", "main"],
    ]);
    expect(llm.titleRequests[0]?.model.modelID).toBe("main");
  });

  // The policy asks for a cached-prefix summary here (the provider reported twice our count, see compaction-loop.test.ts).
  const cachedPrefixCase = () => new FakeLLM([toolTurn([{ tool: "big", input: { n: 1300 } }], { inputTokens: 20_000, outputTokens: 10 }), summaryTurn(), textTurn("Continuing.")]);
  const roomy = { main: { ...MAIN, contextWindow: 8000, maxOutputTokens: 1000 }, cheap: CHEAP };
  const question = `Please look at this: ${"lorem ipsum dolor sit amet ".repeat(40)}`;

  it("a cached-prefix summary re-sends the chat request on the session's model; another summary model reads the transcript instead", async () => {
    for (const [summaryModelID, system] of [["", "chat"], ["cheap", "compaction"]] as const) {
      const llm = cachedPrefixCase();
      const { service } = setup(llm, { summaryModelID, models: roomy });
      const s = await service.createSession();
      await service.prompt(s.id, { text: question });
      await service.ensureRunning(s.id);
      const [chat, summary] = llm.requests;
      expect(summary?.purpose).toBe("summary");
      expect(summary?.model.modelID).toBe(summaryModelID || "main");
      expect(summary?.system).toEqual(system === "chat" ? chat?.system : [COMPACTION_SYSTEM_PROMPT]);
    }
  });

  it("a later cached-prefix summary re-sends the user's earlier words where the chat request had them: the same prefix, served from cache", async () => {
    // As in cachedPrefixCase: the provider reports twice our count, so the policy summarises into the cached prefix.
    const llm = new FakeLLM([
      toolTurn([{ tool: "big", input: { n: 1300 } }], { inputTokens: 20_000, outputTokens: 10 }),
      summaryTurn(),
      textTurn("Continuing."),
      toolTurn([{ tool: "big", input: { n: 1500 } }], { inputTokens: 20_000, outputTokens: 10 }),
      summaryTurn(),
      textTurn("Done."),
    ]);
    const { service } = setup(llm, { summaryModelID: "", models: roomy });
    const s = await service.createSession();
    await service.prompt(s.id, { text: `${question} Keep the tests green.` });
    await service.ensureRunning(s.id);
    await service.prompt(s.id, { text: "Now once more." });
    await service.ensureRunning(s.id);
    expect(llm.requests.map((r) => r.purpose)).toEqual(["chat", "summary", "chat", "chat", "summary", "chat"]);
    const chat = llm.requests[3];
    const summary = llm.requests[4];
    const words = chat?.messages[2]?.content[0];
    expect(words?.type === "text" && words.text).toMatch(/^The user's earlier messages, verbatim[\s\S]*Keep the tests green\./);
    expect(summary?.system).toEqual(chat?.system);
    // The chat request is a prefix of the summary request (which adds the step that filled the window, then the instructions); cache breakpoints move, the content does not.
    const content = (ms: LLMMessage[] = []) => ms.map(({ cache: _c, ...m }) => m);
    expect(content(summary?.messages.slice(0, chat?.messages.length))).toEqual(content(chat?.messages));
    // The previous summary is in that prefix already: the instructions do not repeat it.
    const instructions = summary?.messages.at(-1)?.content[0];
    expect(instructions?.type === "text" && instructions.text).toContain("Update the summary written at the previous compaction");
    expect(instructions?.type === "text" && instructions.text).not.toContain("Called big.");
  });

  it("a cached-prefix summary on a text-only model repeats the chat request's placeholder for a user image, not the image", async () => {
    const PNG = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
    const llm = new FakeLLM([toolTurn([{ tool: "big", input: { n: 1550 } }], { inputTokens: 20_000, outputTokens: 10 }), summaryTurn(), textTurn("Continuing.")]);
    const { service } = setup(llm, { summaryModelID: "", modelID: "deepseek-chat", models: { "deepseek-chat": { ...roomy.main, contextWindow: 12_000 } } });
    const s = await service.createSession();
    await service.prompt(s.id, { text: question, files: [{ mime: "image/png", filename: "shot.png", url: PNG }] });
    await service.ensureRunning(s.id);
    const [chat, summary] = llm.requests;
    expect(summary?.purpose).toBe("summary");
    expect(summary?.system).toEqual(chat?.system);
    const content = (ms: LLMMessage[] = []) => ms.map(({ cache: _c, ...m }) => m);
    expect(content(summary?.messages.slice(0, chat?.messages.length))).toEqual(content(chat?.messages));
    expect(JSON.stringify(summary?.messages)).not.toContain(PNG);
  });

  it("a transcript summary for a text-only model sends a user image's placeholder, never the image", async () => {
    const PNG = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
    const llm = new FakeLLM([toolTurn([{ tool: "big", input: { n: 4000 } }]), summaryTurn(), textTurn("Done.")]);
    const { service } = setup(llm, { summaryModelID: "", modelID: "deepseek-chat", models: { "deepseek-chat": MAIN } });
    const s = await service.createSession();
    await service.prompt(s.id, { text: "look", files: [{ mime: "image/png", filename: "shot.png", url: PNG }] });
    await service.ensureRunning(s.id);
    expect(llm.requests.map((r) => r.purpose)).toEqual(["chat", "summary", "chat"]);
    expect(llm.requests[1]?.system).toEqual([COMPACTION_SYSTEM_PROMPT]);
    expect(JSON.stringify(llm.requests[1]?.messages)).not.toContain(PNG);
  });

  it("demo sessions and another provider keep their own model", () => {
    const settings: Settings = { ...defaultSettings(), provider: "openai", modelID: "gpt-5", summaryModelID: "gpt-5-mini" };
    const own = { provider: "demo" as const, modelID: "demo-agent", contextWindow: 1, maxOutputTokens: 1, prices: prices(0, 0) };
    expect(summaryModelFor(settings, own)).toBe(own);
    const other = { ...own, provider: "anthropic" as const, modelID: "claude-sonnet-4-5" };
    expect(summaryModelFor(settings, other)).toBe(other);
    const same = { ...own, provider: "openai" as const, modelID: "gpt-5" };
    expect(summaryModelFor(settings, same)).toMatchObject({ provider: "openai", modelID: "gpt-5-mini", prices: { input: 0.25, output: 2 } });
  });

  it("is validated on its own: a bad value is reset and named, the rest is kept", () => {
    const r = parseSettingsReport({ ...defaultSettings(), modelID: "gpt-5", summaryModelID: 42 });
    expect(r.settings.summaryModelID).toBe("");
    expect(r.settings.modelID).toBe("gpt-5");
    expect(r.reset).toEqual(["Summary model"]);
    expect(parseSettingsReport({ ...defaultSettings(), summaryModelID: "gpt-5-mini" }).settings.summaryModelID).toBe("gpt-5-mini");
  });
});

