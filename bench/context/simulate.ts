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
import { pickUserWords, userWordsBudget, userWordsOverhead } from "../../src/core/pins/user-words";
import { type Segment, SIM_ENCODING, SimSession } from "./session";
import type { Trace, TraceStep, TraceTool } from "./trace";

export interface SimOptions {
  /** Price of a cached input token relative to an uncached one (told to the policy too). */
  cachePrice: number;
  /** Price of an uncached input token, which the provider writes to its cache (1; Anthropic bills cache writes at 1.25). */
  writePrice?: number;
  /** Chance that one summary keeps a constraint it was given (deterministic per constraint and summary). */
  retention?: number;
  /** For policies whose app pins constraints: the share of stated constraints its detector finds (deterministic per constraint). */
  pinRecall?: number;
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
  /** Earlier tool outputs the model needed again but no longer had (pruned or summarised away): each cost a re-read. */
  rereads: number;
  /** Steps spent re-reading (one step may re-read several outputs). */
  rereadSteps: number;
  /** Input-token-equivalents of the re-read steps' requests (included in `billed`). */
  rereadBilled: number;
  /** Checks of a stated constraint that found it missing from the request. */
  violations: number;
}

/** Summaries keep a constraint they were given with this chance each time (about 30 % of constraints lost per compaction, as measured for in-context constraints). */
export const SUMMARY_RETENTION = 0.7;
/** What one pinned constraint adds to the system prompt. */
export const PIN_TOKENS = 30;
/** What a re-read step writes besides the tool call's result (its reasoning and the call). */
export const REREAD_OUTPUT = 60;

/** Tokens of a message's own text (non-synthetic text parts), as the app counts a user message's or a summary's words. */
function textTokens(m: MessageWithParts): number {
  let n = 0;
  for (const p of m.parts) if (p.type === "text" && !p.synthetic && !p.ignored) n += p.tokenCount?.count ?? 0;
  return n;
}

/** A deterministic number in [0, 1) for a string (FNV-1a). */
function unit(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0) / 2 ** 32;
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
  /** Constraints the app pinned (in the system prompt from the turn they were stated on). */
  const pinned = new Set<string>();
  const pinRecall = opts.pinRecall ?? 1;
  let system: Segment = { key: "system", tokens: trace.header.system };
  const s = new SimSession();
  const cache = new PromptCache(opts.cacheMemory ?? 4);
  const writePrice = opts.writePrice ?? 1;
  const retention = opts.retention ?? SUMMARY_RETENTION;
  const r: SimResult = { trace: trace.header.name, policy: policy.name, cachePrice: opts.cachePrice, billed: 0, uncached: 0, cached: 0, requests: 0, peak: 0, invalidations: 0, summaries: 0, prunes: 0, summaryBilled: 0, summaryOutput: 0, rebilled: 0, cold: 0, exceeded: 0, rereads: 0, rereadSteps: 0, rereadBilled: 0, violations: 0 };
  /** Trace tool-output id → the part that carries it now, and what it was. */
  const outputs = new Map<string, { partID: string; tool: TraceTool }>();
  /** Constraint id → the user message that stated it. */
  const carriers = new Map<string, string>();
  /** Summary message id → the constraints it kept. */
  const kept = new Map<string, Set<string>>();
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
    r.billed += (total - cached) * writePrice + cached * opts.cachePrice;
    r.peak = Math.max(r.peak, total);
    lastRequest = now;
    return { total, cached };
  };
  /**
   * After a summary, tabcode sends the user's earlier messages verbatim right after it (core/pins/user-words):
   * the app's own selection (`pickUserWords`) within the app's budget (`userWordsBudget`, which leaves
   * room for the summary), on the messages' token counts; for policies with `userWords`.
   */
  const userWords = (view: MessageWithParts[]): { seg?: Segment; ids: Set<string> } => {
    const ids = new Set<string>();
    const summary = view[1];
    if (!policy.userWords || summary?.info.role !== "assistant" || !summary.info.summary) return { ids };
    const inView = new Set(view.map((m) => m.info.id));
    const older = s.msgs.filter((m) => m.info.role === "user" && !inView.has(m.info.id) && textTokens(m) > 0);
    const pick = pickUserWords(older.map(textTokens), userWordsBudget(model, textTokens(summary)));
    if (pick.kept.length === 0) return { ids };
    // A message cut to its start may lose the rule it carried; only whole ones count as holding it.
    for (const i of pick.kept) if (!pick.cut.has(i)) ids.add((older[i] as MessageWithParts).info.id);
    return { seg: { key: `user-words#${summary.info.id}#${pick.kept.length}`, tokens: pick.tokens + userWordsOverhead(pick.kept.length, pick.dropped) }, ids };
  };
  const chatSegments = (view: MessageWithParts[]): Segment[] => {
    const segs = view.flatMap((m) => s.segments(m));
    const words = userWords(view).seg;
    if (!words) return [system, ...segs];
    // Right after the summary (the compaction request and the summary come first).
    const at = s.segments(view[0] as MessageWithParts).length + s.segments(view[1] as MessageWithParts).length;
    return [system, ...segs.slice(0, at), words, ...segs.slice(at)];
  };
  const input = (moment: PolicyInput["moment"], view: MessageWithParts[]): PolicyInput => ({
    moment,
    view,
    request: system.tokens + s.size(view) + (userWords(view).seg?.tokens ?? 0) + REPLY_OVERHEAD,
    afterSummary: userWords(view).seg?.tokens ?? 0,
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
    // As process.ts builds them: the cached-prefix request is the chat request (after-summary message included) plus the
    // instructions; the transcript carries the after-summary message's words too.
    const words = userWords(view);
    if (d.mode === "cached-prefix") segs = [...chatSegments(view), prompt];
    else if (d.mode === "classic") segs = [{ key: "compaction-system", tokens: COMPACTION_SYSTEM_TOKENS }, ...head.flatMap((m) => s.segments(m)), prompt];
    else {
      // Transcript: tool results cut to TRANSCRIPT_TOOL_CHARS, everything in one new user message.
      let transcript = 0;
      for (const m of head) for (const p of m.parts) for (const x of s.segments({ info: m.info, parts: [p] })) transcript += p.type === "tool" ? Math.min(x.tokens, TRANSCRIPT_TOOL_TOKENS) : x.tokens;
      segs = [{ key: "compaction-system", tokens: COMPACTION_SYSTEM_TOKENS }, { key: `transcript#${requestSeq++}`, tokens: transcript + (words.seg?.tokens ?? 0) + SUMMARY_PROMPT_TOKENS }];
    }
    const before = r.billed;
    const sent = send(segs);
    if (sent.total > budget) overBudget();
    r.summaryBilled += r.billed - before;
    const out = summaryTokens(headTokens);
    r.summaryOutput += out;
    r.summaries++;
    now += stepSeconds;
    // The summariser sees the head and the user's earlier words sent with it (classic: OpenCode, no words).
    const given = constraintsIn(head, false);
    if (d.mode !== "classic") for (const c of constraintsOf(words.ids)) given.add(c);
    const n = r.summaries;
    s.summary(out, d.tailStartID, now);
    const summaryID = s.msgs[s.msgs.length - 2]?.info.id;
    if (summaryID) kept.set(summaryID, new Set([...given].filter((c) => unit(`${c}#${n}`) < retention)));
  };
  /** Constraints stated in these (user) messages. */
  function constraintsOf(ids: Set<string>): Set<string> {
    const out = new Set<string>();
    for (const [c, msg] of carriers) if (ids.has(msg)) out.add(c);
    return out;
  }
  /** Constraints present in these messages: stated verbatim in one of them, or kept by a summary among them. */
  function constraintsIn(msgs: MessageWithParts[], withUserWords = true): Set<string> {
    const ids = new Set(msgs.map((m) => m.info.id));
    const out = new Set<string>();
    if (withUserWords) for (const id of userWords(msgs).ids) ids.add(id);
    for (const [c, msg] of carriers) if (ids.has(msg)) out.add(c);
    for (const m of msgs) for (const c of kept.get(m.info.id) ?? []) out.add(c);
    return out;
  }
  /** Tool-output ids whose content is in these messages, unpruned. */
  function outputsIn(msgs: MessageWithParts[], wanted: string[]): Set<string> {
    const live = new Set<string>();
    for (const m of msgs) for (const p of m.parts) if (p.type === "tool" && p.state.status === "completed" && p.state.time.compacted === undefined) live.add(p.id);
    return new Set(wanted.filter((id) => {
      const o = outputs.get(id);
      return o !== undefined && live.has(o.partID);
    }));
  }

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

  /** One model call: prepare (policy), overflow handling, send, store the step. Returns the request's billed cost. */
  const runStep = (step: TraceStep, userID: string, view: MessageWithParts[]): number => {
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
    const before = r.billed;
    const sent = send(chatSegments(view));
    now += stepSeconds;
    const m = s.step(step, userID, now, { request: sent.total, cached: sent.cached });
    const tools = m.parts.filter((p) => p.type === "tool");
    step.tools.forEach((tool, i) => {
      const part = tools[i];
      if (tool.id && part) outputs.set(tool.id, { partID: part.id, tool });
    });
    return r.billed - before;
  };

  for (const t of trace.turns) {
    turn++;
    now += t.idle;
    const user = s.user(t.user, now);
    if (t.constraint) {
      carriers.set(t.constraint, user.info.id);
      if (policy.pins && unit(`pin:${t.constraint}`) < pinRecall) {
        // A new pin changes the system prompt: the provider's cache is rebuilt from there.
        pinned.add(t.constraint);
        system = { key: `system#${pinned.size}`, tokens: trace.header.system + PIN_TOKENS * pinned.size };
      }
    }
    t.steps.forEach((step, i) => {
      let view = prepare();
      if (i === 0 && t.checks?.length) {
        const present = constraintsIn(view);
        for (const c of t.checks) if (carriers.has(c) && !present.has(c) && !pinned.has(c)) r.violations++;
      }
      const needs = step.needs ?? [];
      if (needs.length) {
        const have = outputsIn(view, needs);
        const missing = needs.filter((id) => !have.has(id) && outputs.has(id));
        if (missing.length) {
          // The model reads them again: one more step calling the same tools with the same results.
          const again: TraceStep = { output: REREAD_OUTPUT * missing.length, tools: missing.map((id) => outputs.get(id)?.tool as TraceTool) };
          r.rereads += missing.length;
          r.rereadSteps++;
          r.rereadBilled += runStep(again, user.info.id, view);
          view = prepare();
        }
      }
      runStep(step, user.info.id, view);
    });
    const d = policy.decide(input("idle", filterCompacted(s.msgs)));
    if (d.kind === "prune" && d.parts.length) {
      r.prunes++;
      s.prune(d.parts, now);
    }
  }
  return r;
}
