import { describe, expect, it } from "vitest";
import { FakeLLM, textTurn, toolTurn } from "../../testing/fake-llm";
import { makeTestService } from "../../testing/session-service";
import { bigOutputTool as big, TINY_MODEL as TINY } from "../../testing/tiny-model";
import { namedError } from "../errors";
import type { Bus } from "../bus";
import type { LLMEvent } from "../ports/llm";
import type { MessageWithParts, NamedErrorData } from "../schema";
import type { Settings } from "../settings";

/**
 * Overflows a summary cannot fix are refused before one is paid for, in words a person can act on; a summary
 * that did not help is never followed by another for the same prompt. TINY: a 4,000-token window, 500 for the
 * answer, so at most 3,500 tokens per request and summaries from 3,000.
 */

const summaryTurn = (body = "Did the thing.") => textTurn(`## Goal\nDo the thing.\n## Progress\n${body}`);
const words = (n: number, w = "w") => Array.from({ length: n }, (_, i) => `${w}${i}`).join(" ");
const purposes = (llm: FakeLLM) => llm.requests.map((r) => r.purpose);
const summaries = (msgs: MessageWithParts[]) => msgs.filter((m) => m.info.role === "assistant" && m.info.summary === true);

function setup(llm: FakeLLM, opts: { system?: () => string[]; settings?: Partial<Settings> } = {}) {
  const system = opts.system;
  const t = makeTestService({
    llm,
    tools: [big],
    settings: { modelID: "tiny", models: { tiny: TINY }, ...opts.settings },
    ...(system ? { system: async () => system() } : {}),
  });
  return { ...t, errors: errorsOf(t.bus) };
}

function errorsOf(bus: Bus): NamedErrorData[] {
  const out: NamedErrorData[] = [];
  bus.subscribe((e) => {
    if (e.type === "session.error") out.push(e.error);
  });
  return out;
}

/** The error the newest answer carries. */
function lastError(msgs: MessageWithParts[]): NamedErrorData | undefined {
  const info = msgs.at(-1)?.info;
  return info?.role === "assistant" ? info.error : undefined;
}

async function threeTurns(service: ReturnType<typeof setup>["service"], id: string) {
  for (const text of ["one", "two", "three"]) {
    await service.prompt(id, { text });
    await service.ensureRunning(id);
  }
}

describe("an overflow no summary can fix", () => {
  it("a pasted text larger than the window: no summary is asked for, and the error says what to do", async () => {
    const llm = new FakeLLM([textTurn("a1"), textTurn("a2"), textTurn("a3"), summaryTurn(), summaryTurn(), textTurn("never")]);
    const { store, service, errors } = setup(llm);
    const s = await service.createSession();
    await threeTurns(service, s.id);
    await service.prompt(s.id, { text: `Please read this log:\n${words(5000)}` });
    await service.ensureRunning(s.id);
    // Three answers, then nothing: no summary and no chat request for the pasted text.
    expect(purposes(llm)).toEqual(["chat", "chat", "chat"]);
    const msgs = await store.messages(s.id);
    expect(summaries(msgs)).toHaveLength(0);
    const error = lastError(msgs);
    expect(error?.name).toBe("ContextOverflowError");
    expect(error?.data.kind).toBe("floor");
    expect(error?.data.message).toMatch(/^Your last message alone is about [\d,]+ tokens: too long for tiny even to summarise/);
    expect(error?.data.message).toContain("at most 3,500 tokens per request (its 4,000-token window less 500 kept for the answer)");
    expect(error?.data.message).toContain("No summary was made.");
    expect(error?.data.hint).toMatch(/shorten the pasted text.*larger context window.*fresh session/);
    // Said once, on the answer that carries it.
    expect(errors).toEqual([error]);
  });

  it("a system prompt and tools over the window: no summary, and the error names them", async () => {
    const llm = new FakeLLM([textTurn("a1"), textTurn("a2"), textTurn("a3"), summaryTurn(), summaryTurn(), textTurn("never")]);
    let system = ["You are tabcode."];
    const { store, service } = setup(llm, { system: () => system });
    const s = await service.createSession();
    await threeTurns(service, s.id);
    // Long pins or rules: the fixed prefix alone is now over the window.
    system = ["You are tabcode.", `Rules:\n${words(4000, "rule")}`];
    await service.prompt(s.id, { text: "four" });
    await service.ensureRunning(s.id);
    expect(purposes(llm)).toEqual(["chat", "chat", "chat"]);
    const msgs = await store.messages(s.id);
    expect(summaries(msgs)).toHaveLength(0);
    const error = lastError(msgs);
    expect(error?.data.message).toMatch(/^This request cannot fit tiny, even after a summary: the system prompt, pins and tool definitions, which a summary keeps as they are, come to about [\d,]+ tokens/);
    expect(error?.data.hint).toMatch(/^Unpin long pins or shorten the rules/);
  });

  it("a first message over the window is not sent at all", async () => {
    const llm = new FakeLLM([textTurn("never"), summaryTurn()]);
    const { store, service } = setup(llm);
    const s = await service.createSession();
    await service.prompt(s.id, { text: words(5000) });
    await service.ensureRunning(s.id);
    expect(purposes(llm)).toEqual([]);
    expect(lastError(await store.messages(s.id))?.data.message).toMatch(/^Your last message alone is about/);
  });

  it("with auto-compaction off the provider decides, as before", async () => {
    const llm = new FakeLLM([textTurn("the provider took it")]);
    const { service } = setup(llm, { settings: { compaction: { auto: false, prune: true, threshold: 1 } } });
    const s = await service.createSession();
    await service.prompt(s.id, { text: words(5000) });
    await service.ensureRunning(s.id);
    expect(purposes(llm)).toEqual(["chat"]);
  });

  it("where one summary helps, exactly one is made", async () => {
    const llm = new FakeLLM([toolTurn([{ tool: "big", input: { n: 4000 } }], { inputTokens: 100, outputTokens: 10 }), summaryTurn(), textTurn("Done.")]);
    const { store, service } = setup(llm);
    const s = await service.createSession();
    await service.prompt(s.id, { text: "go" });
    await service.ensureRunning(s.id);
    expect(purposes(llm)).toEqual(["chat", "summary", "chat"]);
    const msgs = await store.messages(s.id);
    expect(summaries(msgs)).toHaveLength(1);
    expect(lastError(msgs)).toBeUndefined();
  });
});

describe("a summary that did not help is not followed by another", () => {
  it("the provider still refuses the replayed prompt: one summary, then the clear error", async () => {
    const overflow = namedError("ContextOverflowError", { message: "maximum context length exceeded" });
    const llm = new FakeLLM([textTurn("first answer"), [{ type: "error", error: overflow }], summaryTurn(), [{ type: "error", error: overflow }], summaryTurn(), textTurn("never")]);
    const { store, service, errors } = setup(llm);
    const s = await service.createSession();
    await service.prompt(s.id, { text: "one" });
    await service.ensureRunning(s.id);
    await service.prompt(s.id, { text: "two" });
    await service.ensureRunning(s.id);
    expect(purposes(llm)).toEqual(["chat", "chat", "summary", "chat"]);
    const error = lastError(await store.messages(s.id));
    expect(error?.data.message).toMatch(/^The request is still too large for tiny after a summary, so tabcode stopped instead of summarising again/);
    expect(error?.data.message).toContain("The provider said: “maximum context length exceeded”");
    expect(errors).toEqual([error]);
  });

  it("a summary longer than what it replaced ends automatic summaries for the prompt", async () => {
    // Summaries start at a quarter of an 18,000-token usable window. Two steps' outputs reach that; the summary written
    // is larger than the history it folds, so the request after it is no smaller. The next step of the same turn
    // is over the point again: no second summary for this prompt (the old loop asked for one).
    const step = (n: number) => toolTurn([{ tool: "big", input: { n } }], { inputTokens: 100, outputTokens: 10 });
    const long: LLMEvent[] = [
      { type: "text-start", id: "1" },
      { type: "text-delta", id: "1", delta: `## Goal\nDo the thing.\n## Progress\n${words(8000, "s")}` },
      { type: "text-end", id: "1" },
      { type: "finish", reason: "stop", usage: { inputTokens: 100, outputTokens: 10 } },
    ];
    const llm = new FakeLLM([step(2300), step(2300), long, step(100), step(100), summaryTurn(), textTurn("Done.")]);
    const { store, service } = setup(llm, {
      settings: { models: { tiny: { ...TINY, contextWindow: 20_000, maxOutputTokens: 1000 } }, compaction: { auto: true, prune: false, threshold: 0.25 } },
    });
    const s = await service.createSession();
    await service.prompt(s.id, { text: "go" });
    await service.ensureRunning(s.id);
    expect(purposes(llm)).toEqual(["chat", "chat", "summary", "chat", "chat", "chat"]);
    expect(summaries(await store.messages(s.id))).toHaveLength(1);
  });
});
