/**
 * Replays a trace through a context policy, step by step as the agent loop
 * does, against a model of a provider's prompt cache, and counts what it
 * costs. See README.md for the model and the definitions of every column.
 */
import { type CompactionSettings, inputBudget, type ModelLimits } from "../../src/core/compaction/overflow";
import { type ContextPolicy, type PolicyDecision, type PolicyInput, SUMMARY_PROMPT_TOKENS } from "../../src/core/compaction/policy";
import { COMPACTION_SYSTEM_PROMPT } from "../../src/core/compaction/summarize";
import { TRANSCRIPT_TOOL_CHARS } from "../../src/core/compaction/transcript";
import type { MessageWithParts } from "../../src/core/schema";
import { filterCompacted } from "../../src/core/conversation/view";
import { estimateTokens } from "../../src/core/tokens/counter";
import { REPLY_OVERHEAD } from "../../src/core/tokens/part-text";
import { type Segment, SIM_ENCODING, SimSession } from "./session";
import type { Trace } from "./trace";

export interface SimOptions {
  /** Price of a cached input token relative to an uncached one (told to the policy too). */
  cachePrice: number;
  /** The provider forgets a prefix not used for this long (5 minutes: Anthropic's default, OpenAI's minimum). */
  cacheTtlSeconds?: number;
  /** How many recent requests' prefixes the provider can still serve. */
  cacheMemory?: number;
  /** Wall time of one step (model call + tools), for the cache clock. */
  stepSeconds?: number;
  settings?: CompactionSettings;
}

export interface SimResult {
  trace: string;
  policy: string;
  cachePrice: number;
  /** Input-token-equivalents: uncached + cached × cachePrice, over chat and summary requests. */
  billed: number;
  uncached: number;
  cached: number;
  requests: number;
  /** Largest request sent. */
  peak: number;
  /** Requests whose cached prefix ended before the end of the previous request (something already sent was changed). */
  invalidations: number;
  summaries: number;
  prunes: number;
  /** Input-token-equivalents spent on summary requests (included in `billed`). */
  summaryBilled: number;
  /** Tokens the summaries wrote (output, not in `billed`). */
  summaryOutput: number;
  /** Uncached tokens that were in the previous request but had to be re-sent because the prefix changed. */
  rebilled: number;
  /** Uncached tokens re-sent because the cache had expired (idle longer than the TTL). */
  cold: number;
  /** Requests larger than the window allows (context − max output). */
  exceeded: number;
  /** 1-based turn of the first such request. */
  firstExceeded?: number;
}

/** The fake summariser: 3 % of what it summarises, between 1k and 4k tokens. */
export function summaryTokens(head: number): number {
  return Math.min(4_000, Math.max(1_000, Math.round(head * 0.03)));
}

const COMPACTION_SYSTEM_TOKENS = estimateTokens(COMPACTION_SYSTEM_PROMPT);
const TRANSCRIPT_TOOL_TOKENS = Math.ceil(TRANSCRIPT_TOOL_CHARS / 4);
const DEFAULT_SETTINGS: CompactionSettings = { compaction: { auto: true, prune: true, threshold: 1 } };

/** The trace's model as the overflow functions see it (OpenCode caps requested output at 32k). */
export function modelOf(trace: Trace): ModelLimits {
  const m = trace.header.model;
  return { contextWindow: m.context, maxOutputTokens: m.maxOutput, ...(m.input ? { inputLimit: m.input } : {}) };
}

/** The provider's prompt cache: the prefixes of its last few requests. */
class PromptCache {
  private recent: Segment[][] = [];
  private lastLength = 0;
  constructor(private readonly memory: number) {}
  /** Tokens of `segs` served from cache, and whether the previous request's prefix was broken. */
  lookup(segs: Segment[]): { cached: number; broken: boolean; previous: number } {
    let cached = 0;
    for (const r of this.recent) {
      let n = 0;
      for (let i = 0; i < segs.length && i < r.length; i++) {
        const a = segs[i] as Segment;
        const b = r[i] as Segment;
        if (a.key !== b.key || a.tokens !== b.tokens) break;
        n += a.tokens;
      }
      cached = Math.max(cached, n);
    }
    return { cached, broken: this.recent.length > 0 && cached < this.lastLength, previous: this.lastLength };
  }
  remember(segs: Segment[], length: number): void {
    this.recent.unshift(segs);
    if (this.recent.length > this.memory) this.recent.pop();
    this.lastLength = length;
  }
  /** Forgets everything; returns the length of the last request. */
  expire(): number {
    const last = this.lastLength;
    this.recent = [];
    this.lastLength = 0;
    return last;
  }
}

/** Replays `trace` through `policy`. Deterministic. */
export function simulate(trace: Trace, policy: ContextPolicy, opts: SimOptions): SimResult {
  const model = modelOf(trace);
  const settings = opts.settings ?? DEFAULT_SETTINGS;
  const budget = inputBudget(model);
  const ttl = opts.cacheTtlSeconds ?? 300;
  const stepSeconds = opts.stepSeconds ?? 10;
  const system: Segment = { key: "system", tokens: trace.header.system };
  const s = new SimSession();
  const cache = new PromptCache(opts.cacheMemory ?? 4);
  const r: SimResult = { trace: trace.header.name, policy: policy.name, cachePrice: opts.cachePrice, billed: 0, uncached: 0, cached: 0, requests: 0, peak: 0, invalidations: 0, summaries: 0, prunes: 0, summaryBilled: 0, summaryOutput: 0, rebilled: 0, cold: 0, exceeded: 0 };
  let now = 0;
  let lastRequest: number | undefined;
  let turn = 0;
  let requestSeq = 0;

  const overBudget = () => {
    r.exceeded++;
    r.firstExceeded ??= turn;
  };
  /** Sends a request: bills it against the cache and remembers its prefix. */
  const send = (segs: Segment[]): { total: number; cached: number } => {
    let expired = 0;
    if (lastRequest !== undefined && now - lastRequest > ttl) expired = cache.expire();
    let length = 0;
    for (const x of segs) length += x.tokens;
    const total = length + REPLY_OVERHEAD;
    const { cached, broken, previous } = cache.lookup(segs);
    if (broken) {
      r.invalidations++;
      r.rebilled += Math.min(length, previous) - cached;
    }
    r.cold += Math.min(length, expired);
    cache.remember(segs, length);
    r.requests++;
    r.cached += cached;
    r.uncached += total - cached;
    r.billed += total - cached + cached * opts.cachePrice;
    r.peak = Math.max(r.peak, total);
    lastRequest = now;
    return { total, cached };
  };
  const chatSegments = (view: MessageWithParts[]): Segment[] => [system, ...view.flatMap((m) => s.segments(m))];
  const input = (moment: PolicyInput["moment"], view: MessageWithParts[]): PolicyInput => ({
    moment,
    view,
    request: trace.header.system + s.size(view) + REPLY_OVERHEAD,
    model,
    settings,
    cachePrice: opts.cachePrice,
    encoding: SIM_ENCODING,
    sinceLastRequest: lastRequest === undefined ? undefined : (now - lastRequest) * 1000,
  });

  const summarize = (d: Extract<PolicyDecision, { kind: "summarize" }>, view: MessageWithParts[]) => {
    const tail = d.tailStartID ? view.findIndex((m) => m.info.id === d.tailStartID) : -1;
    const head = tail > 0 ? view.slice(0, tail) : view;
    const headTokens = s.size(head);
    const prompt: Segment = { key: `summary-prompt#${requestSeq++}`, tokens: SUMMARY_PROMPT_TOKENS };
    let segs: Segment[];
    if (d.mode === "cached-prefix") segs = [...chatSegments(view), prompt];
    else if (d.mode === "classic") segs = [{ key: "compaction-system", tokens: COMPACTION_SYSTEM_TOKENS }, ...head.flatMap((m) => s.segments(m)), prompt];
    else {
      // Transcript: tool results cut to TRANSCRIPT_TOOL_CHARS, everything in one new user message.
      let transcript = 0;
      for (const m of head) for (const p of m.parts) for (const x of s.segments({ info: m.info, parts: [p] })) transcript += p.type === "tool" ? Math.min(x.tokens, TRANSCRIPT_TOOL_TOKENS) : x.tokens;
      segs = [{ key: "compaction-system", tokens: COMPACTION_SYSTEM_TOKENS }, { key: `transcript#${requestSeq++}`, tokens: transcript + SUMMARY_PROMPT_TOKENS }];
    }
    const before = r.billed;
    const sent = send(segs);
    if (sent.total > budget) overBudget();
    r.summaryBilled += r.billed - before;
    const out = summaryTokens(headTokens);
    r.summaryOutput += out;
    r.summaries++;
    now += stepSeconds;
    s.summary(out, d.tailStartID, now);
  };

  /** Asks the policy until it says send; returns what is sent. */
  const prepare = (): MessageWithParts[] => {
    for (let round = 0; round < 8; round++) {
      const view = filterCompacted(s.msgs);
      const d = policy.decide(input("step", view));
      if (d.kind === "send") return view;
      if (d.kind === "trim") return view.slice(d.from);
      if (d.kind === "prune") {
        if (d.parts.length === 0) return view;
        r.prunes++;
        s.prune(d.parts, now);
      } else summarize(d, view);
    }
    return filterCompacted(s.msgs);
  };

  for (const t of trace.turns) {
    turn++;
    now += t.idle;
    const user = s.user(t.user, now);
    for (const step of t.steps) {
      let view = prepare();
      let size = input("step", view).request;
      if (size > budget) {
        // The provider rejects it (not billed); the policy may compact and try again.
        overBudget();
        const d = policy.decide(input("overflow", view));
        if (d.kind === "summarize") {
          summarize(d, view);
          view = prepare();
          size = input("step", view).request;
          if (size > budget) overBudget();
        }
      }
      const sent = send(chatSegments(view));
      now += stepSeconds;
      s.step(step, user.info.id, now, { request: sent.total, cached: sent.cached });
    }
    const d = policy.decide(input("idle", filterCompacted(s.msgs)));
    if (d.kind === "prune" && d.parts.length) {
      r.prunes++;
      s.prune(d.parts, now);
    }
  }
  return r;
}
