import { describe, expect, it, vi } from "vitest";
import { createTiktokenCounter } from "../../adapters/tokens/tiktoken-counter";
import { FakeLLM } from "../../testing/fake-llm";
import { MemoryStore } from "../../testing/memory-store";
import { Bus } from "../bus";
import { History, text, tool } from "../compaction/test-fixtures";
import { systemClock } from "../ports/clock";
import { defaultSettings, sessionModelConfig } from "../settings";
import type { TokenCounter } from "../tokens/counter";
import { COUNT_BEHIND_CHARS, ContextGuard } from "./context-guard";

/** The real tokenizer, recording the characters of each count it is asked for; with `stall`, the count after that many answers only on `go()`. */
function recordingCounter(stall = Number.POSITIVE_INFINITY) {
  const real = createTiktokenCounter();
  const calls: number[] = [];
  let go = () => {};
  const stalled = new Promise<void>((resolve) => {
    go = resolve;
  });
  const counter: TokenCounter = {
    encodingFor: (id) => real.encodingFor(id),
    count: async (texts, encoding) => {
      calls.push(texts.reduce((n, t) => n + t.length, 0));
      if (calls.length > stall) await stalled;
      return real.count(texts, encoding);
    },
  };
  return { counter, calls, go };
}

function longHistory(): History {
  const h = new History();
  for (let i = 0; i < 40; i++) h.turn(`question ${i}`, [text(`answer ${i}: ${"a sentence of some length. ".repeat(60)}`)]);
  return h;
}

describe("the count behind a request sent on an estimate", () => {
  const settings = { ...defaultSettings(), provider: "openai-compatible" as const, modelID: "gpt-4o-mini" };
  const model = sessionModelConfig(settings, undefined);

  it("waits while a request is being prepared, and runs in slices once none is", async () => {
    const { counter, calls } = recordingCounter();
    const guard = new ContextGuard({ store: new MemoryStore(), llm: new FakeLLM([]), clock: systemClock, bus: new Bus(), settings: () => settings, counter });
    const h = longHistory();
    const chars = h.msgs.flatMap((m) => m.parts).reduce((n, p) => n + (p.type === "text" ? p.text.length : 0), 0);
    expect(chars).toBeGreaterThan(COUNT_BEHIND_CHARS);

    const preparing = guard.foreground();
    const size = await guard.measure(["system"], h.msgs, [], model, h.sessionID);
    expect(size.exact).toBe(false);
    await new Promise((r) => setTimeout(r, 30));
    expect(calls).toEqual([]);

    preparing();
    await vi.waitFor(() => expect(calls.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(chars));
    // Slices of about 8,000 characters (a part is never split), not one count of the whole history.
    expect(calls.length).toBeGreaterThan(5);
    expect(Math.max(...calls)).toBeLessThan(8_000 + 2_000);
    // Every part is now known: the next request is exact without counting the history again.
    const before = calls.length;
    const next = await guard.measure(["system"], h.msgs, [], model, h.sessionID);
    expect(next.exact).toBe(true);
    expect(calls.length).toBe(before);
  });

  it("a request prepared while it runs pauses it after the current slice", async () => {
    const { counter, calls } = recordingCounter();
    const guard = new ContextGuard({ store: new MemoryStore(), llm: new FakeLLM([]), clock: systemClock, bus: new Bus(), settings: () => settings, counter });
    const h = longHistory();
    await guard.measure(["system"], h.msgs, [], model, h.sessionID);
    await vi.waitFor(() => expect(calls.length).toBeGreaterThan(0));
    const preparing = guard.foreground();
    const paused = calls.length;
    await new Promise((r) => setTimeout(r, 30));
    expect(calls.length).toBeLessThanOrEqual(paused + 1);
    const atRelease = calls.length;
    preparing();
    await vi.waitFor(() => expect(calls.length).toBeGreaterThan(atRelease));
  });

  it("a request prepared while it runs is sent on the estimate too, not counted in its way", async () => {
    // Three slices are counted, the fourth is on its way: what is left is under COUNT_BEHIND_CHARS.
    const { counter, calls, go } = recordingCounter(3);
    const guard = new ContextGuard({ store: new MemoryStore(), llm: new FakeLLM([]), clock: systemClock, bus: new Bus(), settings: () => settings, counter });
    const h = longHistory();
    await guard.measure(["system"], h.msgs, [], model, h.sessionID);
    await vi.waitFor(() => expect(calls.length).toBe(4));
    const preparing = guard.foreground();
    h.user(text("And the tests?"));
    const next = await guard.measure(["system"], h.msgs, [], model, h.sessionID);
    expect(next.exact).toBe(false);
    expect(calls.length).toBe(4);
    preparing();
    go();
    // The count behind goes on and finishes; then the request is exact.
    await vi.waitFor(async () => expect((await guard.measure(["system"], h.msgs, [], model, h.sessionID)).exact).toBe(true));
  });

  it("says when a request is being prepared, and when none is any more (what views put off waits for it)", async () => {
    const guard = new ContextGuard({ store: new MemoryStore(), llm: new FakeLLM([]), clock: systemClock, bus: new Bus(), settings: () => settings, counter: createTiktokenCounter() });
    expect(guard.preparing).toBe(false);
    await guard.whenQuiet(); // nothing prepared: at once
    const first = guard.foreground();
    const second = guard.foreground();
    expect(guard.preparing).toBe(true);
    let quiet = false;
    void guard.whenQuiet().then(() => {
      quiet = true;
    });
    first();
    first(); // releasing twice counts once
    await new Promise((r) => setTimeout(r, 0));
    expect(guard.preparing).toBe(true);
    expect(quiet).toBe(false);
    second();
    await vi.waitFor(() => expect(quiet).toBe(true));
    expect(guard.preparing).toBe(false);
  });
});

describe("a step's policy questions share one walk of the view (`reuse`)", () => {
  const settings = { ...defaultSettings(), provider: "openai-compatible" as const, modelID: "gpt-4o-mini" };
  const model = sessionModelConfig(settings, undefined);

  it("a question asked after the exact count sees the counts, not what the estimate's question worked out before them", async () => {
    // A tokenizer that finds a token in every character (the estimate takes four characters a token).
    const counter: TokenCounter = { encodingFor: () => "o200k_base", count: async (texts) => texts.map((t) => t.length) };
    let now = 0;
    const clock = { now: () => now, sleep: systemClock.sleep };
    const guard = new ContextGuard({ store: new MemoryStore(), llm: new FakeLLM([]), clock, bus: new Bus(), settings: () => settings, counter });
    // Ten turns, each with an old tool output never counted: more than COUNT_BEHIND_CHARS, so the step asks first on the estimate.
    const h = new History();
    for (let i = 0; i < 10; i++) h.turn(`question ${i}`, [tool("read", { filePath: `f${i}` }, "y".repeat(6_000))]);
    // The last request went out long ago: a prune is due, so the estimate's answer is not "send" and the request is counted.
    guard.sent(h.sessionID);
    now = 10 * 60_000;
    const reuse = new Map<string, unknown>();
    const size = await guard.measure(["system"], h.msgs, [], model, h.sessionID, reuse);
    expect(size.exact).toBe(true);
    // The step asks again with the counted size: the answer is the one it would get alone.
    const shared = guard.decide(h.sessionID, h.msgs, size, model, "step", 0, reuse);
    const alone = guard.decide(h.sessionID, h.msgs, size, model, "step", 0);
    expect(alone.kind).toBe("prune");
    expect(shared).toEqual(alone);
    expect(reuse.size).toBeGreaterThan(0);
  });
});
