import { describe, expect, it } from "vitest";
import coding from "../../../bench/context/traces/coding-128k.jsonl?raw";
import exploring from "../../../bench/context/traces/exploring-128k.jsonl?raw";
import claude from "../../../bench/context/traces/claude-200k.jsonl?raw";
import large from "../../../bench/context/traces/large-400k.jsonl?raw";
import local from "../../../bench/context/traces/local-32k.jsonl?raw";
import testing from "../../../bench/context/traces/testing-128k.jsonl?raw";
import { generateTrace, PROFILES, SHIPPED } from "../../../bench/context/generate";
import { SIM_ENCODING, SimSession } from "../../../bench/context/session";
import { bestBaseline, PRICINGS, runTrace } from "../../../bench/context/report";
import { simulate } from "../../../bench/context/simulate";
import { formatTrace, parseTrace, type Trace } from "../../../bench/context/trace";
import type { AssistantMessage, MessageWithParts } from "../schema";
import { filterCompacted } from "../conversation/view";
import { estimateTokens } from "../tokens/counter";
import { messageTokens, REPLY_OVERHEAD } from "../tokens/part-text";
import { finishRequestSize, planRequestSize } from "../tokens/request-size";
import {
  cachePriceOf,
  cacheWritePriceOf,
  DEFAULT_CACHE_PRICE,
  DEFAULT_POLICY,
  economicBatch,
  growthOf,
  keepLastN,
  noCompaction,
  opencodePolicy,
  type PolicyInput,
  planBatch,
  SUMMARY_OUTPUT_TOKENS,
  summaryPoint,
  TABCODE_POLICY,
  tabcodePolicy,
} from "./policy";
import { opencode2Policy } from "./opencode2-policy";
import { planPrune } from "./prune";
import { compaction, History, sized, text, tool } from "./test-fixtures";

// 128k window, 16k output: usable = 128k − 16k − 16k = 96k; the window allows 112k of input.
const MODEL = { contextWindow: 128_000, maxOutputTokens: 16_000 };
const SETTINGS = { compaction: { auto: true, prune: true, threshold: 1 } };
const ENC = "o200k_base";
const ours = tabcodePolicy();

function input(view: MessageWithParts[], request: number, extra: Partial<PolicyInput> = {}): PolicyInput {
  return { moment: "step", view, request, model: MODEL, settings: SETTINGS, cachePrice: 0.1, encoding: ENC, ...extra };
}
const read = (tokens: number, extra: { compacted?: number } = {}) => tool("read", { filePath: "f" }, sized(tokens), extra);
function usage(m: { info: MessageWithParts["info"] }, inputTokens: number, output = 0): void {
  const info = m.info as AssistantMessage;
  info.tokens = { input: inputTokens, output, reasoning: 0, cache: { read: 0, write: 0 } };
}

describe("baselines", () => {
  it("none always sends; keep-last-N trims to the last N messages before a step only", () => {
    const h = new History();
    for (let i = 0; i < 5; i++) h.turn(`t${i}`, [text("a")]);
    expect(noCompaction.decide(input(h.msgs, 500_000))).toEqual({ kind: "send" });
    expect(keepLastN(4).decide(input(h.msgs, 0))).toEqual({ kind: "trim", from: 6 });
    expect(keepLastN(10).decide(input(h.msgs, 0))).toEqual({ kind: "send" });
    expect(keepLastN(4).decide(input(h.msgs, 0, { moment: "idle" }))).toEqual({ kind: "send" });
  });
});

describe("opencodePolicy", () => {
  /** Older turns with 10k-token outputs, then two recent turns (protected). */
  function history(first = 10_001) {
    const h = new History();
    h.turn("one", [read(first), read(10_000)]);
    h.turn("two", [read(10_000), read(10_000)]);
    h.turn("three", [read(10_000), read(10_000)]);
    h.turn("four", [read(50_000)]);
    h.turn("five", [read(50_000)]);
    return h;
  }

  it("prunes after a run exactly as planPrune (40k protected, > 20k freed, last 2 turns)", () => {
    const h = history();
    const d = opencodePolicy.decide(input(h.msgs, 0, { moment: "idle" }));
    expect(d).toEqual({ kind: "prune", parts: planPrune(h.msgs).parts, freed: 20_001 });
    expect(opencodePolicy.decide(input(history(10_000).msgs, 0, { moment: "idle" }))).toEqual({ kind: "send" });
    expect(opencodePolicy.decide(input(h.msgs, 0, { moment: "idle", settings: { compaction: { ...SETTINGS.compaction, prune: false } } }))).toEqual({ kind: "send" });
    // Never before a step: OpenCode prunes only after a run.
    expect(opencodePolicy.decide(input(h.msgs, 0)).kind).toBe("send");
  });

  it("summarises (classic, no tail) when the last step's usage reaches OpenCode's usable, whatever the next request", () => {
    // OpenCode 1.x: usable = 128k − min(20k, 16k) = 112k (its source subtracts the output limit only with a separate input limit).
    const h = new History();
    h.user(text("go"));
    const a = h.assistant([read(30_000)]);
    usage(a, 111_000, 999);
    expect(opencodePolicy.decide(input(h.msgs, 200_000))).toEqual({ kind: "send" });
    usage(a, 111_000, 1_000);
    expect(opencodePolicy.decide(input(h.msgs, 0))).toEqual({ kind: "summarize", mode: "classic" });
    expect(opencodePolicy.decide(input(h.msgs, 0, { settings: { compaction: { ...SETTINGS.compaction, auto: false } } }))).toEqual({ kind: "send" });
    // After a summary, older steps do not count.
    const req = h.user(compaction(true));
    h.assistant([text("summary")], { summary: true, parent: req.info.id });
    expect(opencodePolicy.decide(input(filterCompacted(h.msgs), 0))).toEqual({ kind: "send" });
    expect(opencodePolicy.decide(input(h.msgs, 0, { moment: "overflow" }))).toEqual({ kind: "summarize", mode: "classic" });
  });
});

describe("tabcodePolicy: prunes", () => {
  /** Ten earlier steps with 4k outputs, then the current turn. */
  function session(current: number) {
    const h = new History();
    h.user(text("earlier"));
    for (let i = 0; i < 10; i++) h.assistant([read(4_000)], { finish: "tool-calls" });
    h.user(text("now"));
    h.assistant([read(current)], { finish: "tool-calls" });
    return h.msgs;
  }

  it("never prunes the current turn, and takes every older output at once", () => {
    const b = planBatch(session(50_000), 0, 1, ENC);
    expect(b.parts).toHaveLength(10);
    expect(b.freed).toBeGreaterThan(39_000);
    expect(b.freed).toBeLessThan(40_000);
    expect(planBatch(session(50_000), 0, 2, ENC).parts).toHaveLength(0);
    // `protect` keeps the newest older outputs.
    expect(planBatch(session(50_000), 8_000, 1, ENC).parts).toHaveLength(8);
  });

  it("prices the suffix from the oldest pruned output's message to the end (worked out when read)", () => {
    const view = session(1_000);
    const b = planBatch(view, 0, 1, ENC);
    const oldest = view.findIndex((m) => m.parts.some((p) => b.parts.includes(p as never)));
    expect(oldest).toBeGreaterThan(0);
    const expected = view.slice(oldest).reduce((n, m) => n + messageTokens(m, ENC).tokens, 0);
    expect(b.suffix).toBe(expected);
    expect(b.suffix).toBe(expected); // read twice, same figure
    expect(planBatch(view, 0, 2, ENC).suffix).toBe(0); // nothing to prune: nothing re-sent
  });

  it("never prunes tool results the model has not read yet, even behind a queued prompt", () => {
    const h = new History();
    h.user(text("earlier"));
    h.assistant([read(4_000)], { finish: "stop" });
    h.user(text("work"));
    h.assistant([read(4_000), read(4_000)], { finish: "tool-calls" });
    h.user(text("queued while the tools ran"));
    const b = planBatch(h.msgs, 0, 1, ENC);
    expect(b.parts).toHaveLength(1); // only the finished turn's output
  });

  it("batches to the cache: prunes once the batch reaches its economic size for the cache price", () => {
    const view = session(1_000);
    const b = planBatch(view, 0, 1, ENC);
    const g = growthOf(view, ENC);
    if (!g) throw new Error("no growth");
    // Cheap cache (10 %): carrying 40k costs little, re-sending the suffix a lot → wait.
    expect(b.freed).toBeLessThan(economicBatch(0.9 * b.suffix, g.tools, 0.1));
    expect(ours.decide(input(view, 50_000, { cachePrice: 0.1 })).kind).toBe("send");
    // Dear cache (50 %) → prune now, everything at once.
    expect(b.freed).toBeGreaterThanOrEqual(economicBatch(0.5 * b.suffix, g.tools, 0.5));
    expect(ours.decide(input(view, 50_000, { cachePrice: 0.5 }))).toEqual({ kind: "prune", parts: b.parts, freed: b.freed });
  });

  it("prunes for free when the cache has gone cold, but never less than the minimum", () => {
    const view = session(1_000);
    expect(ours.decide(input(view, 50_000, { sinceLastRequest: 4 * 60_000 })).kind).toBe("send");
    expect(ours.decide(input(view, 50_000, { sinceLastRequest: 5 * 60_000 })).kind).toBe("prune");
    const small = new History();
    small.turn("old", [read(7_000)]);
    small.turn("now", [read(100)]);
    // min(8k, 8 % of 96k = 7,680) is not reached by 7k.
    expect(ours.decide(input(small.msgs, 50_000, { sinceLastRequest: 3_600_000, cachePrice: 1 })).kind).toBe("send");
    expect(ours.decide(input(view, 50_000, { sinceLastRequest: 5 * 60_000, settings: { compaction: { ...SETTINGS.compaction, prune: false } } })).kind).toBe("send");
  });

  it("questions about one view share its walk (`reuse`), and answer as they would alone", () => {
    const view = session(1_000);
    const reuse = new Map<string, unknown>();
    // A step asks at the estimate's upper bound, then at the request's size: the same view each time.
    const asked = [50_000, 30_000, 110_000].map((request) => [ours.decide(input(view, request, { reuse, cachePrice: 0.5 })), ours.decide(input(view, request, { cachePrice: 0.5 }))]);
    for (const [shared, alone] of asked) expect(shared).toEqual(alone);
    expect(asked.map(([d]) => d?.kind)).toEqual(["prune", "prune", "prune"]);
    // One growth and one prune batch, worked out by the first question and read by the others.
    expect([...reuse.keys()].sort()).toEqual([`batch ${TABCODE_POLICY.protect} ${TABCODE_POLICY.protectTurns} ${ENC}`, `growth ${ENC}`]);
    expect(reuse.get(`batch ${TABCODE_POLICY.protect} ${TABCODE_POLICY.protectTurns} ${ENC}`)).toEqual(planBatch(view, TABCODE_POLICY.protect, TABCODE_POLICY.protectTurns, ENC));
    expect(reuse.get(`growth ${ENC}`)).toEqual(growthOf(view, ENC));
  });
});

describe("tabcodePolicy: summaries", () => {
  /** A turn of `steps` steps; the first reports `base` tokens; earlier outputs pruned when `prunedEach` > 0. */
  function turn(steps: number, base: number, prunedEach = 0) {
    const h = new History();
    h.user(text("task"));
    for (let i = 0; i < steps; i++) {
      const last = i === steps - 1;
      const a = h.assistant([prunedEach && !last ? read(prunedEach, { compacted: 1 }) : read(1_000)], { finish: "tool-calls" });
      usage(a, base + i * 1_000);
    }
    return h.msgs;
  }

  it("summarises into the cached prefix at overflowAt on the exact next request, as a transcript when that would not fit", () => {
    const view = turn(5, 10_000);
    expect(ours.decide(input(view, 95_999)).kind).toBe("send");
    expect(ours.decide(input(view, 96_000))).toEqual({ kind: "summarize", mode: "cached-prefix" });
    expect(ours.decide(input(view, 111_601))).toEqual({ kind: "summarize", mode: "transcript" });
    expect(ours.decide(input(view, 96_000, { settings: { compaction: { ...SETTINGS.compaction, auto: false } } })).kind).toBe("send");
    expect(ours.decide(input(view, 0, { moment: "overflow" }))).toEqual({ kind: "summarize", mode: "transcript" });
    expect(ours.decide(input(view, 0, { moment: "idle" }))).toEqual({ kind: "send" });
  });

  it("prunes instead of summarising when that brings the request under 75 % of the point", () => {
    const h = new History();
    h.user(text("old"));
    for (let i = 0; i < 3; i++) usage(h.assistant([read(i === 0 ? 30_000 : 100)], { finish: "tool-calls" }), 10_000);
    h.user(text("now"));
    usage(h.assistant([read(100)], { finish: "tool-calls" }), 10_000);
    expect(ours.decide(input(h.msgs, 96_000)).kind).toBe("prune"); // 96k − 30k ≤ 72k
    expect(ours.decide(input(h.msgs, 110_000)).kind).toBe("summarize"); // 80k > 72k
  });

  it("summarises earlier when it pays, but never before OpenCode would on the unpruned history", () => {
    // OpenCode 2.x would summarise at 128k − max(16k, 20k) = 108k; ours is capped at overflowAt (96k).
    // Gate closed (nothing pruned): only the hard point, even with a dear cache.
    const plain = turn(5, 10_000);
    expect(summaryPoint(input(plain, 92_000, { cachePrice: 0.5 }), growthOf(plain, ENC), TABCODE_POLICY)).toBe(96_000);
    expect(ours.decide(input(plain, 92_000, { cachePrice: 0.5 })).kind).toBe("send");
    // 80k pruned: unpruned, the history is past OpenCode's trigger, so the economic point applies.
    const pruned = turn(5, 10_000, 20_000);
    const g = growthOf(pruned, ENC);
    expect(g?.pruned).toBeGreaterThan(79_000);
    // The loss of a summary is priced at summaryLoss (0.5) usable windows of 96k.
    const at = (price: number) => 10_000 + economicBatch(TABCODE_POLICY.summaryLoss * 96_000 + (1 - price) * SUMMARY_OUTPUT_TOKENS, (92_000 - 10_000) / 5, price);
    expect(summaryPoint(input(pruned, 92_000, { cachePrice: 0.5 }), g, TABCODE_POLICY)).toBeCloseTo(at(0.5));
    expect(ours.decide(input(pruned, 92_000, { cachePrice: 0.5 })).kind).toBe("summarize");
    // Cheap cache: carrying the history is cheaper than summarising it.
    expect(at(0.1)).toBeGreaterThan(96_000);
    expect(ours.decide(input(pruned, 92_000, { cachePrice: 0.1 })).kind).toBe("send");
  });

  it("leaves the after-summary message out of the comparison with OpenCode's trigger (OpenCode sends none), not out of the request", () => {
    // 24k pruned: unpruned, 92k + 24k − the last step's 1k is past OpenCode 2.x's 108k (× gate 1.03)…
    const pruned = turn(5, 10_000, 6_000);
    const g = growthOf(pruned, ENC);
    expect(summaryPoint(input(pruned, 92_000, { cachePrice: 0.5 }), g, TABCODE_POLICY)).toBeLessThan(92_000);
    // …but 5k of it are the user's earlier words after the summary, which OpenCode would not have sent: only the hard point.
    expect(summaryPoint(input(pruned, 92_000, { cachePrice: 0.5, afterSummary: 5_000 }), g, TABCODE_POLICY)).toBe(96_000);
    expect(ours.decide(input(pruned, 96_000, { cachePrice: 0.5, afterSummary: 5_000 })).kind).toBe("summarize");
  });

  it("prices the summary's cache rewrite at the provider's write price (Anthropic 1.25 ×): a dearer rewrite summarises later", () => {
    const pruned = turn(5, 10_000, 20_000);
    const g = growthOf(pruned, ENC);
    const plain = summaryPoint(input(pruned, 92_000, { cachePrice: 0.5 }), g, TABCODE_POLICY);
    const anthropic = summaryPoint(input(pruned, 92_000, { cachePrice: 0.5, cacheWritePrice: 1.25 }), g, TABCODE_POLICY);
    expect(anthropic).toBeGreaterThan(plain);
    expect(cacheWritePriceOf({ input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 })).toBe(1.25);
    expect(cacheWritePriceOf({ input: 1.25, output: 10, cacheRead: 0.125, cacheWrite: 0 })).toBe(1);
  });

  it("never summarises twice in a row, and keeps a tail only when asked to", () => {
    const h = new History();
    const req = h.user(compaction(true));
    h.assistant([text("summary")], { summary: true, parent: req.info.id });
    h.user(text("Continue", { synthetic: true }));
    expect(ours.decide(input(filterCompacted(h.msgs), 100_000)).kind).toBe("send");

    const t = new History();
    t.turn("one", [read(20_000)]);
    const two = t.user(text("two"));
    t.assistant([read(2_000)]);
    for (const m of t.msgs) if (m.info.role === "assistant") usage(m, 10_000);
    t.assistant([read(1_000)]);
    t.assistant([read(1_000)]);
    const withTail = tabcodePolicy({ ...TABCODE_POLICY, tail: 0.25 });
    expect(withTail.decide(input(t.msgs, 100_000))).toEqual({ kind: "summarize", mode: "cached-prefix", tailStartID: two.info.id });
  });

  it("is pure: same input, same decision, input untouched", () => {
    const view = turn(5, 10_000, 20_000);
    const i = input(view, 92_000, { cachePrice: 0.5 });
    const before = JSON.stringify(i);
    expect(ours.decide(i)).toEqual(ours.decide(i));
    expect(JSON.stringify(i)).toBe(before);
  });

  it("reads the cache price from the model's prices", () => {
    expect(cachePriceOf({ input: 1.25, output: 10, cacheRead: 0.125, cacheWrite: 0 })).toBeCloseTo(0.1);
    expect(cachePriceOf({ input: 2.5, output: 10, cacheRead: 1.25, cacheWrite: 0 })).toBe(0.5);
    expect(cachePriceOf({ input: 0, output: 0, cacheRead: 0, cacheWrite: 0 })).toBe(DEFAULT_CACHE_PRICE);
  });
});

// Whole 200-turn traces, simulated: seconds each, more when the other worker is busy too (a budget, not a speed check).
describe("context benchmark", { timeout: 90_000 }, () => {
  const shipped: Record<string, string> = { "coding-128k.jsonl": coding, "exploring-128k.jsonl": exploring, "testing-128k.jsonl": testing, "local-32k.jsonl": local, "claude-200k.jsonl": claude, "large-400k.jsonl": large };
  const traces: Trace[] = SHIPPED.map((s) => {
    const r = parseTrace(shipped[s.file] ?? "", s.file);
    if (!r.ok) throw new Error(`${s.file}: ${r.error}`);
    return r.value;
  });

  it("ships the generator's traces, byte for byte", () => {
    for (const s of SHIPPED) {
      const profile = PROFILES[s.profile];
      if (!profile) throw new Error(s.profile);
      expect(formatTrace(generateTrace(s.file.replace(/\.jsonl$/, ""), profile, s.seed, s.description))).toBe(shipped[s.file]);
    }
    expect(parseTrace('{"model":{"context":1}}\n{"user":1,"steps":[]}').ok).toBe(false);
    expect(parseTrace('{"model":{}}\n{"user":1,"steps":[{"output":1}]}').ok).toBe(false);
    expect(parseTrace("not json").ok).toBe(false);
  });

  it("sizes requests exactly as measureRequest does", () => {
    const s = new SimSession();
    const u = s.user(120, 0);
    s.step({ output: 300, tools: [{ tool: "read", tokens: 4_200 }, { tool: "bash", tokens: 800 }] }, u.info.id, 1, { request: 0, cached: 0 });
    const a = s.step({ output: 50, tools: [{ tool: "grep", tokens: 900 }] }, u.info.id, 2, { request: 0, cached: 0 });
    const first = a.parts.find((p) => p.type === "tool");
    if (first?.type !== "tool") throw new Error("fixture");
    s.prune([first], 3);
    s.summary(1_500, undefined, 4);
    s.user(80, 5);
    for (const view of [s.msgs, filterCompacted(s.msgs)]) {
      const plan = planRequestSize({ system: [], tools: [], messages: view, encoding: SIM_ENCODING });
      const exact = finishRequestSize(plan, plan.jobs.map((j) => estimateTokens(j.text)));
      expect(s.size(view) + REPLY_OVERHEAD).toBe(exact.total);
    }
  });

  /**
   * The target, for what the app runs (DEFAULT_POLICY: the policy, pinned context and the user's earlier
   * words after every summary): billed input (re-reads included) ≤ 0.85 × the better OpenCode baseline at
   * every pricing, no violated constraint, no more summaries, never over the window. One exception:
   * on the 32k trace the policy alone bills 0.85–0.88 × (OpenCode 2.x summarises constantly there and
   * stays cheap) and the few hundred tokens of words carried in every request add about 0.02–0.06, so
   * it is held to 0.91 instead.
   */
  const RATIO: Record<string, number> = { "local-32k": 0.91 };
  it.each(traces.map((t) => [t.header.name, t] as const))("%s: as the app runs it, ours meets the target against the better OpenCode baseline (re-reads included)", (name, trace) => {
    expect(DEFAULT_POLICY.pins && DEFAULT_POLICY.userWords).toBe(true);
    const report = runTrace(trace, [opencodePolicy, opencode2Policy(), DEFAULT_POLICY]);
    PRICINGS.forEach((_, i) => {
      const r = report.results.get(DEFAULT_POLICY.name)?.[i];
      const b = bestBaseline(report, i);
      if (!r || !b) throw new Error("missing result");
      expect(r.exceeded).toBe(0);
      expect(r.violations).toBe(0);
      expect(r.summaries).toBeLessThanOrEqual(b.summaries);
      expect(r.billed / b.billed).toBeLessThanOrEqual(RATIO[name] ?? 0.85);
    });
  });

  it("the user's earlier words keep constraints the pins missed: with no pins, fewer are violated than without them", () => {
    const words = DEFAULT_POLICY;
    const without = { ...DEFAULT_POLICY, userWords: false, decide: (i: PolicyInput) => DEFAULT_POLICY.decide(i) };
    for (const t of traces) {
      const a = simulate(t, words, { cachePrice: 0.1, pinRecall: 0 }).violations;
      const b = simulate(t, without, { cachePrice: 0.1, pinRecall: 0 }).violations;
      expect(a, t.header.name).toBeLessThan(b);
    }
  });

  it("OpenCode baselines lose constraints to their summaries; the pinned ones never are", () => {
    const t = traces.find((x) => x.header.name === "coding-128k");
    if (!t) throw new Error("trace");
    expect(simulate(t, opencodePolicy, { cachePrice: 0.1 }).violations).toBeGreaterThan(0);
    expect(simulate(t, opencode2Policy(), { cachePrice: 0.1 }).violations).toBeGreaterThan(0);
    expect(simulate(t, ours, { cachePrice: 0.1 }).violations).toBe(0);
    // A detector that found nothing would leave ours as exposed as the others.
    expect(simulate(t, ours, { cachePrice: 0.1, pinRecall: 0 }).violations).toBeGreaterThan(0);
  });

  it("a step that needs a pruned or summarised output pays a re-read", () => {
    const t = traces.find((x) => x.header.name === "exploring-128k");
    if (!t) throw new Error("trace");
    const none = simulate({ ...t, turns: t.turns.slice(0, 30) }, noCompaction, { cachePrice: 0.1 });
    expect(none.rereads).toBe(0);
    const r = simulate(t, ours, { cachePrice: 0.1 });
    expect(r.rereads).toBeGreaterThan(0);
    expect(r.rereadBilled).toBeGreaterThan(0);
  });

  it("no compaction overflows every shipped trace", () => {
    for (const t of traces) expect(simulate({ ...t, turns: t.turns.slice(0, 20) }, noCompaction, { cachePrice: 0.1 }).firstExceeded).toBeLessThan(20);
  });
});
