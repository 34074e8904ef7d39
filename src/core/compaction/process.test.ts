import { describe, expect, it } from "vitest";
import { FakeLLM, textTurn } from "../../testing/fake-llm";
import { MemoryStore } from "../../testing/memory-store";
import { Bus } from "../bus";
import { namedError } from "../errors";
import type { Clock } from "../ports/clock";
import type { LLMRequest, ModelConfig } from "../ports/llm";
import type { AssistantMessage, CompactionPart, MessageWithParts, TextPart } from "../schema";
import { filterCompacted } from "../conversation/view";
import { type CompactionDeps, COMPACTION_TOO_LARGE, CONTINUE_PROMPT, OVERFLOW_NOTE, processCompaction } from "./process";
import { COMPACTION_SYSTEM_PROMPT, createCompactionRequest, pendingCompaction, SUMMARY_SECTIONS } from "./summarize";
import { compaction, file, History, makeSession, sized, text, tool } from "./test-fixtures";

const clock: Clock = { now: () => Date.now(), sleep: async () => undefined };
const gpt4o: ModelConfig = { provider: "openai", modelID: "gpt-4o", contextWindow: 128_000, maxOutputTokens: 16_384, prices: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } };
const MODEL_SUMMARY = "## Goal\nShip the fix\n\n## Instructions\n- keep tests green\n\n## Discoveries\n- none\n\n## Accomplished\n- done";

async function run(h: History, llm: FakeLLM, opts: { auto?: boolean; overflow?: boolean; model?: ModelConfig; bus?: Bus } = {}) {
  const store = new MemoryStore();
  const session = makeSession(h.sessionID);
  await store.importSession(session, h.msgs);
  const req = await createCompactionRequest(store, session, { auto: opts.auto ?? true, overflow: opts.overflow, now: clock.now() });
  const deps: CompactionDeps = { store, llm, clock, model: opts.model ?? gpt4o, bus: opts.bus };
  const result = await processCompaction(deps, { sessionID: h.sessionID, messageID: req.message.id, signal: new AbortController().signal });
  const all = await store.messages(h.sessionID);
  return { store, req, result, all, visible: filterCompacted(all) };
}

const promptOf = (r: LLMRequest | undefined) => {
  const c = r?.messages[0]?.content[0];
  return c && "text" in c ? c.text : "";
};
const summaryOf = (all: MessageWithParts[]) => all.find((m): m is MessageWithParts & { info: AssistantMessage } => m.info.role === "assistant" && m.info.summary === true);
const textOf = (m: MessageWithParts | undefined) => m?.parts.filter((p): p is TextPart => p.type === "text").map((p) => p.text).join("|");

describe("processCompaction", () => {
  it("summarises the head with no tools, keeps a verbatim tail and auto-continues", async () => {
    const h = new History();
    h.user(text(`one ${sized(3_000)}`));
    h.assistant([tool("read", { filePath: "src/a.ts" }, "a"), tool("bash", { command: "npm test" }, "ok"), text(sized(3_000))]);
    h.turn(`two ${sized(3_000)}`, [text(sized(3_000))]);
    const three = h.user(text(`three ${sized(3_000)}`));
    h.assistant([text(sized(3_000))]);
    h.turn(`four ${sized(3_000)}`, [tool("edit", { filePath: "src/tail.ts" }, "ok"), text(sized(3_000))]);
    const llm = new FakeLLM([textTurn(MODEL_SUMMARY)]);
    const bus = new Bus();
    const live: string[] = [];
    bus.subscribe((e) => e.type === "part.live" && live.push(e.part.id));
    const { result, all, visible, req } = await run(h, llm, { bus });

    expect(result.ok && result.next).toBe("continue");
    expect(result.ok && result.tailStartID).toBe(three.info.id);
    const part = all.find((m) => m.info.id === req.message.id)?.parts[0] as CompactionPart;
    expect(part.tail_start_id).toBe(three.info.id);

    const sent = llm.requests[0];
    expect(sent?.tools).toEqual([]);
    expect(sent?.system).toEqual([COMPACTION_SYSTEM_PROMPT]);
    expect(sent?.purpose).toBe("summary");
    const prompt = promptOf(sent);
    expect(prompt).toContain("[User]: one");
    expect(prompt).toContain("[User]: two");
    expect(prompt).not.toContain("[User]: three");
    // The newer template: every section, kept even when empty.
    for (const section of SUMMARY_SECTIONS) expect(prompt).toContain(`## ${section}`);
    expect(prompt).toContain("keep every one of them even when it is empty");

    const summary = summaryOf(all);
    expect(summary?.info).toMatchObject({ summary: true, agent: "compaction", parentID: req.message.id, finish: "stop" });
    expect(textOf(summary)).toBe(`${MODEL_SUMMARY}\n\n## Relevant files\n- src/a.ts (read)\n\n## Commands run\n- \`npm test\``);
    expect(live.length).toBeGreaterThan(0);

    const cont = all.at(-1);
    expect(cont?.parts[0]).toMatchObject({ type: "text", text: CONTINUE_PROMPT, synthetic: true });
    expect(visible.map((m) => textOf(m)?.slice(0, 5) ?? "")).toEqual(["", MODEL_SUMMARY.slice(0, 5), "three", "x".repeat(5), "four ", "x".repeat(5), CONTINUE_PROMPT.slice(0, 5)]);
    expect(pendingCompaction(all)).toBeUndefined();
  });

  it("does not auto-continue a manual compaction", async () => {
    const h = new History();
    h.turn("one", [text("a")]);
    h.turn("two", [text("b")]);
    const { result, all } = await run(h, new FakeLLM([textTurn(MODEL_SUMMARY)]), { auto: false });
    expect(result.ok && result.next).toBe("stop");
    expect(result.ok && result.continued).toBeUndefined();
    expect(all.at(-1)?.info.role).toBe("assistant");
  });

  it("passes the previous summary in to be updated and merges its tool log", async () => {
    const h = new History();
    h.turn("first task", [text("a1")]);
    const c1 = h.user(compaction(true));
    h.assistant([text("## Goal\nOld goal\n\n## Relevant files\n- old.ts (read)\n\n## Commands run\n- `make`")], { summary: true, parent: c1.info.id });
    h.turn("second task", [tool("write", { filePath: "new.ts", content: "" }, "ok"), tool("bash", { command: "npm test" }, "ok")]);
    h.turn("third task", [text("a3")]);
    const llm = new FakeLLM([textTurn("## Goal\nNew goal")]);
    const { result, all } = await run(h, llm, { auto: false });
    expect(result.ok).toBe(true);
    const prompt = promptOf(llm.requests[0]);
    expect(prompt).toContain("<previous-summary>\n## Goal\nOld goal\n</previous-summary>");
    expect(prompt).toContain("Update the summary");
    expect(prompt).toContain("[User]: second task");
    expect(prompt).not.toContain("first task");
    expect(prompt).not.toContain("third task"); // kept as the tail
    const summaries = all.filter((m) => m.info.role === "assistant" && m.info.summary);
    expect(textOf(summaries.at(-1))).toBe("## Goal\nNew goal\n\n## Relevant files\n- old.ts (read)\n- new.ts (written)\n\n## Commands run\n- `make`\n- `npm test`");
  });

  it("on overflow replays the last user message after the summary, media as placeholders", async () => {
    const h = new History();
    h.turn("one", [tool("read", { filePath: "a.ts" }, "a")]);
    h.turn("two", [text("b")]);
    const big = h.user(text("giant paste"), file("image/png", "shot.png"));
    h.assistant([], { error: namedError("ContextOverflowError", { message: "too long" }) });
    const llm = new FakeLLM([textTurn(MODEL_SUMMARY)]);
    const { result, all, visible } = await run(h, llm, { overflow: true });
    expect(result.ok && result.next).toBe("continue");
    expect(result.ok && result.tailStartID).toBeUndefined();
    const prompt = promptOf(llm.requests[0]);
    expect(prompt).toContain("[User]: two");
    expect(prompt).not.toContain("giant paste");
    const replayed = all.at(-1);
    expect(result.ok && result.replayed?.id).toBe(replayed?.info.id);
    expect(replayed?.info.id).not.toBe(big.info.id);
    expect((replayed?.info.id ?? "") > (summaryOf(all)?.info.id ?? "")).toBe(true);
    expect(replayed?.parts.map((p) => (p.type === "text" ? p.text : p.type))).toEqual(["giant paste", "[Attached image/png: shot.png]"]);
    expect(visible.map((m) => m.info.id)).toEqual([all.find((m) => m.parts.some((p) => p.type === "compaction"))?.info.id, summaryOf(all)?.info.id, replayed?.info.id]);
  });

  it("on overflow with nothing earlier to summarise, summarises everything and continues with a note", async () => {
    const h = new History();
    h.user(text("only message"));
    h.assistant([], { error: namedError("ContextOverflowError", { message: "too long" }) });
    const llm = new FakeLLM([textTurn(MODEL_SUMMARY)]);
    const { result, all } = await run(h, llm, { overflow: true });
    expect(result.ok && result.replayed).toBeUndefined();
    expect(promptOf(llm.requests[0])).toContain("[User]: only message");
    expect(textOf(all.at(-1))).toBe(`${OVERFLOW_NOTE}\n\n${CONTINUE_PROMPT}`);
  });

  it("strips media from the summary request when it does not fit with it", async () => {
    const h = new History();
    h.user(text("see these"), file("image/png", "a.png"), file("image/png", "b.png"));
    h.assistant([text("nice")]);
    // Input budget 2,000 tokens: the prompt fits, the prompt + 2 × 1,500-token images does not.
    const small = { ...gpt4o, contextWindow: 3_000, maxOutputTokens: 1_000 };
    const llm = new FakeLLM([textTurn(MODEL_SUMMARY)]);
    const { result } = await run(h, llm, { model: small, auto: false });
    expect(result.ok).toBe(true);
    expect(llm.requests).toHaveLength(1);
    expect(llm.requests[0]?.messages[0]?.content.map((c) => c.type)).toEqual(["text"]);
    expect(promptOf(llm.requests[0])).toContain("[Attached image/png: a.png]");
  });

  it("retries without media when the provider reports an overflow", async () => {
    const h = new History();
    h.user(text("see this"), file("image/png", "a.png"));
    h.assistant([text("nice")]);
    const llm = new FakeLLM([[{ type: "error", error: namedError("ContextOverflowError", { message: "too long" }) }], textTurn(MODEL_SUMMARY)]);
    const { result } = await run(h, llm, { auto: false });
    expect(result.ok).toBe(true);
    expect(llm.requests.map((r) => r.messages[0]?.content.map((c) => c.type))).toEqual([["text", "file"], ["text"]]);
  });

  it("media a tool read go with the summary request, and are stripped to placeholders when the provider reports an overflow", async () => {
    const h = new History();
    h.user(text("look at the logo"));
    h.assistant([tool("read", { filePath: "logo.png" }, "Image read successfully", { attachments: [{ mime: "image/png", filename: "logo.png", url: "data:image/png;base64,AAAA" }] })]);
    h.assistant([text("a red square")]);
    const llm = new FakeLLM([[{ type: "error", error: namedError("ContextOverflowError", { message: "too long" }) }], textTurn(MODEL_SUMMARY)]);
    const { result } = await run(h, llm, { auto: false });
    expect(result.ok).toBe(true);
    const [withMedia, stripped] = llm.requests.map((r) => r.messages[0]?.content ?? []);
    expect(withMedia?.map((c) => c.type)).toEqual(["text", "file"]);
    expect(withMedia?.[1]).toMatchObject({ type: "file", mime: "image/png", filename: "logo.png" });
    expect(stripped?.map((c) => c.type)).toEqual(["text"]);
    expect(promptOf(llm.requests[1])).toContain("[Attached image/png: logo.png]");
  });

  it("gives up with a clear error when the summary request is still too large, leaving the history intact", async () => {
    const h = new History();
    h.turn(sized(2_000), [text(sized(2_000))]);
    const tiny = { ...gpt4o, contextWindow: 1_000, maxOutputTokens: 500 };
    const llm = new FakeLLM([textTurn(MODEL_SUMMARY)]);
    const { result, all, visible } = await run(h, llm, { model: tiny });
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error).toEqual({ name: "ContextOverflowError", data: { message: COMPACTION_TOO_LARGE } });
    expect(llm.requests).toHaveLength(0);
    expect(summaryOf(all)?.info.error?.name).toBe("ContextOverflowError");
    expect(visible).toHaveLength(all.length);
    expect(all.at(-1)?.info.role).toBe("assistant"); // no continue message
  });

  it("leaves the full history in place when the summary call fails", async () => {
    const h = new History();
    h.turn("one", [text("a")]);
    h.turn("two", [text("b")]);
    const err = namedError("APIError", { message: "bad request", isRetryable: false, statusCode: 400 });
    const llm = new FakeLLM([[{ type: "error", error: err }]]);
    const { result, all, visible, store } = await run(h, llm);
    expect(!result.ok && result.error).toEqual(err);
    expect(summaryOf(all)?.info).toMatchObject({ error: err, finish: "error" });
    expect(visible.map((m) => m.info.id)).toEqual(all.map((m) => m.info.id));
    expect("compacting" in ((await store.getSession(h.sessionID))?.time ?? {})).toBe(false);
    expect(pendingCompaction(all)).toBeUndefined();
  });

  it("retries a retryable provider error before anything streamed", async () => {
    const h = new History();
    h.turn("one", [text("a")]);
    h.turn("two", [text("b")]);
    const busy = namedError("APIError", { message: "overloaded", isRetryable: true, statusCode: 503 });
    const llm = new FakeLLM([[{ type: "error", error: busy }], textTurn(MODEL_SUMMARY)]);
    const { result, all } = await run(h, llm, { auto: false });
    expect(result.ok).toBe(true);
    expect(llm.requests).toHaveLength(2);
    expect(summaryOf(all)?.parts.map((p) => p.type)).toEqual(["retry", "text", "step-finish"]);
  });

  it("records an abort without publishing an error", async () => {
    const h = new History();
    h.turn("one", [text("a")]);
    const store = new MemoryStore();
    const session = makeSession(h.sessionID);
    await store.importSession(session, h.msgs);
    const req = await createCompactionRequest(store, session, { auto: true, now: clock.now() });
    const bus = new Bus();
    const errors: string[] = [];
    bus.subscribe((e) => e.type === "session.error" && errors.push(e.error.name));
    const ctl = new AbortController();
    ctl.abort();
    const r = await processCompaction({ store, llm: new FakeLLM([textTurn(MODEL_SUMMARY)]), clock, model: gpt4o, bus }, { sessionID: h.sessionID, messageID: req.message.id, signal: ctl.signal });
    expect(!r.ok && r.error.name).toBe("MessageAbortedError");
    expect(errors).toEqual([]);
  });

  it("refuses a message that is not a compaction request", async () => {
    const h = new History();
    const u = h.user(text("hi"));
    const store = new MemoryStore();
    await store.importSession(makeSession(h.sessionID), h.msgs);
    const r = await processCompaction({ store, llm: new FakeLLM(), clock, model: gpt4o }, { sessionID: h.sessionID, messageID: u.info.id, signal: new AbortController().signal });
    expect(r.ok).toBe(false);
  });
});

describe("no compacting flag on the session", () => {
  it("a summary in progress writes no `time.compacting` (nothing reads it, and a crash would leave it set)", async () => {
    const h = new History();
    h.turn(`one ${sized(3_000)}`, [text(sized(3_000))]);
    h.turn(`two ${sized(3_000)}`, [text(sized(3_000))]);
    const store = new MemoryStore();
    const session = makeSession(h.sessionID);
    await store.importSession(session, h.msgs);
    const written: unknown[] = [];
    const update = store.updateSession.bind(store);
    store.updateSession = async (id, fn) => {
      const s = await update(id, fn);
      written.push(s?.time);
      return s;
    };
    const req = await createCompactionRequest(store, session, { auto: false, now: clock.now() });
    const deps: CompactionDeps = { store, llm: new FakeLLM([textTurn(MODEL_SUMMARY)]), clock, model: gpt4o };
    await processCompaction(deps, { sessionID: h.sessionID, messageID: req.message.id, signal: new AbortController().signal });
    expect(written.some((t) => typeof t === "object" && t !== null && "compacting" in t && (t as { compacting?: number }).compacting !== undefined)).toBe(false);
  });
});
