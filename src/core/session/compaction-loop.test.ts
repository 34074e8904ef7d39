import { describe, expect, it } from "vitest";
import { FakeLLM, textTurn, toolTurn } from "../../testing/fake-llm";
import { namedError } from "../errors";
import type { AssistantMessage, MessageWithParts } from "../schema";
import type { Settings } from "../settings";
import { bigOutputTool as big, TINY_MODEL as TINY } from "../../testing/tiny-model";
import type { TokenCounter } from "../tokens/counter";
import { createTiktokenCounter } from "../../adapters/tokens/tiktoken-counter";
import { makeTestService } from "../../testing/session-service";


function setup(llm: FakeLLM, over: Partial<Settings> = {}, counter?: TokenCounter) {
  return makeTestService({ llm, tools: [big], settings: { modelID: "tiny", models: { tiny: TINY }, ...over }, counter });
}

const summaries = (msgs: MessageWithParts[]) => msgs.filter((m): m is MessageWithParts & { info: AssistantMessage } => m.info.role === "assistant" && m.info.summary === true);
const summaryTurn = () => textTurn("## Goal\nDo the thing.\n## Accomplished\nCalled big twice.");

describe("compaction in the loop", () => {
  it("learns from the provider's usage: when it reports more than we count, compaction comes earlier", async () => {
    // usable = 8000 − 1000 − 1000 = 6000 tokens. Our own count of the second request stays well under it,
    // but the provider reported (at least) twice our count for the first one: calibrated, the second one is over.
    const question = `Please look at this: ${"lorem ipsum dolor sit amet ".repeat(40)}`;
    const llm = new FakeLLM([toolTurn([{ tool: "big", input: { n: 1300 } }], { inputTokens: 20_000, outputTokens: 10 }), summaryTurn(), textTurn("Continuing after the summary.")]);
    const { store, service } = setup(llm, { models: { tiny: { ...TINY, contextWindow: 8000, maxOutputTokens: 1000 } } });
    const s = await service.createSession();
    await service.prompt(s.id, { text: question });
    await service.ensureRunning(s.id);
    const msgs = await store.messages(s.id);
    expect(llm.requests.map((r) => r.purpose)).toEqual(["chat", "summary", "chat"]);
    expect(summaries(msgs)).toHaveLength(1);
    // The summary re-sent the chat request's prefix (system, tools, history) for a cache hit, instructions last.
    const [chat, summary] = llm.requests;
    expect(summary?.system).toEqual(chat?.system);
    expect(summary?.tools.map((t) => t.name)).toEqual(chat?.tools.map((t) => t.name));
    expect(summary?.messages[0]?.content).toEqual(chat?.messages[0]?.content);
    const ask = summary?.messages.at(-1);
    expect(ask?.role === "user" && ask.content[0]?.type === "text" && ask.content[0].text).toMatch(/^Stop working on the task now/);
    const last = msgs.at(-1);
    expect(last?.info.role === "assistant" && last.parts.some((p) => p.type === "text" && p.text === "Continuing after the summary.")).toBe(true);
  });

  it("without the provider's word, the same request is sent as is", async () => {
    const question = `Please look at this: ${"lorem ipsum dolor sit amet ".repeat(40)}`;
    const llm = new FakeLLM([toolTurn([{ tool: "big", input: { n: 1400 } }], { inputTokens: 10, outputTokens: 10 }), textTurn("No summary needed.")]);
    const { service } = setup(llm, { models: { tiny: { ...TINY, contextWindow: 8000, maxOutputTokens: 1000 } } });
    const s = await service.createSession();
    await service.prompt(s.id, { text: question });
    await service.ensureRunning(s.id);
    expect(llm.requests.map((r) => r.purpose)).toEqual(["chat", "chat"]);
  });

  it("compacts before a call whose own exact count would overflow", async () => {
    const llm = new FakeLLM([toolTurn([{ tool: "big", input: { n: 4000 } }], { inputTokens: 100, outputTokens: 10 }), summaryTurn(), textTurn("Done.")]);
    const { store, service } = setup(llm);
    const s = await service.createSession();
    await service.prompt(s.id, { text: "go" });
    await service.ensureRunning(s.id);
    expect(llm.requests.map((r) => r.purpose)).toEqual(["chat", "summary", "chat"]);
    expect(summaries(await store.messages(s.id))).toHaveLength(1);
  });

  it("a provider context overflow is summarised and the last prompt replayed — once, never in a loop", async () => {
    const overflow = namedError("ContextOverflowError", { message: "maximum context length exceeded" });
    const llm = new FakeLLM([textTurn("first answer"), [{ type: "error", error: overflow }], summaryTurn(), [{ type: "error", error: overflow }], summaryTurn(), [{ type: "error", error: overflow }], textTurn("never")]);
    const { store, service } = setup(llm);
    const s = await service.createSession();
    await service.prompt(s.id, { text: "one" });
    await service.ensureRunning(s.id);
    await service.prompt(s.id, { text: "two (too big)" });
    await service.ensureRunning(s.id);
    const purposes = llm.requests.map((r) => r.purpose);
    // chat ok; chat → overflow; summary; replayed chat → overflow again: stop (a second summary would only fold the first).
    expect(purposes).toEqual(["chat", "chat", "summary", "chat"]);
    expect(llm.remaining()).toBeGreaterThan(0);
    const msgs = await store.messages(s.id);
    // The replayed prompt exists as a fresh user message after the summary.
    const users = msgs.filter((m) => m.info.role === "user" && m.parts.some((p) => p.type === "text" && p.text === "two (too big)"));
    expect(users).toHaveLength(2);
    const last = msgs.at(-1)?.info;
    expect(last?.role === "assistant" ? last.error?.data.message : undefined).toMatch(/^The request is still too large for tiny after a summary/);
  });

  it("with auto-compaction off, neither the proactive nor the reactive path compacts", async () => {
    const overflow = namedError("ContextOverflowError", { message: "maximum context length exceeded" });
    const llm = new FakeLLM([toolTurn([{ tool: "big", input: { n: 4000 } }], { inputTokens: 3500, outputTokens: 10 }), [{ type: "error", error: overflow }], summaryTurn()]);
    const { store, service } = setup(llm, { compaction: { auto: false, prune: true, threshold: 1 } });
    const s = await service.createSession();
    await service.prompt(s.id, { text: "go" });
    await service.ensureRunning(s.id);
    expect(llm.requests.map((r) => r.purpose)).toEqual(["chat", "chat"]);
    const msgs = await store.messages(s.id);
    expect(summaries(msgs)).toHaveLength(0);
    const lastInfo = msgs.at(-1)?.info;
    expect(lastInfo?.role === "assistant" ? lastInfo.error?.name : undefined).toBe("ContextOverflowError");
  });

  it("Compact now summarises on request even with auto off, and does not auto-continue", async () => {
    const llm = new FakeLLM([textTurn("an answer"), summaryTurn()]);
    const { store, service } = setup(llm, { compaction: { auto: false, prune: true, threshold: 1 } });
    const s = await service.createSession();
    await service.prompt(s.id, { text: "hello" });
    await service.ensureRunning(s.id);
    await service.compact(s.id);
    const msgs = await store.messages(s.id);
    expect(summaries(msgs)).toHaveLength(1);
    expect(llm.requests.map((r) => r.purpose)).toEqual(["chat", "summary"]);
    const lastInfo = msgs.at(-1)?.info;
    expect(lastInfo?.role === "assistant" ? lastInfo.summary : undefined).toBe(true);
  });

  it("records exact token counts on parts so the next request only counts new content", async () => {
    const llm = new FakeLLM([toolTurn([{ tool: "big", input: { n: 20 } }]), textTurn("ok")]);
    const { store, service } = setup(llm, { models: { tiny: { ...TINY, contextWindow: 100_000 } } }, createTiktokenCounter());
    const s = await service.createSession();
    await service.prompt(s.id, { text: "count me" });
    await service.ensureRunning(s.id);
    const parts = (await store.messages(s.id)).flatMap((m) => m.parts);
    expect(parts.find((p) => p.type === "text" && p.text === "count me")?.tokenCount).toMatchObject({ count: expect.any(Number) });
    expect(parts.find((p) => p.type === "tool")?.tokenCount).toMatchObject({ count: expect.any(Number) });
  });
});
