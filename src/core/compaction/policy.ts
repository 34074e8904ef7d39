import type { ModelPrices } from "../ports/llm";
import type { MessageWithParts, ToolPart } from "../schema";
import { estimateTokens } from "../tokens/counter";
import { knownCount, messageTokens, partCost } from "../tokens/part-text";
import { opencode2Limit, opencodeCount, opencodeUsable } from "./opencode-rules";
import { type CompactionSettings, inputBudget, lastStepTokens, type ModelLimits, overflowAt, usable } from "./overflow";
import { PRUNE_PROTECTED_TOOLS, planPrune, toolOutputTokens } from "./prune";
import { previousSummary } from "./summarize";
import { selectTail, TAIL_MAX_TOKENS, TAIL_MIN_TOKENS } from "./tail";

/**
 * Context policies: pure functions that decide, from the history about to be
 * sent and its exact size, whether to send it as is, prune old tool outputs,
 * summarise, or (the naive baseline) drop old messages. The loop applies the
 * decision and asks again; the context benchmark (`npm run bench:context`)
 * replays traces through the same functions.
 *
 * - `noCompaction`: sends everything (long sessions overflow).
 * - `keepLastN(n)`: sends only the last n messages (a tiny agent's approach).
 * - `opencodePolicy`: OpenCode as specified (spec §3.2–3.4, classic).
 * - `tabcodePolicy`: ours; see its TSDoc for each idea.
 */

/** Where in the loop the policy is asked. */
export type PolicyMoment =
  /** Before a model call, with the exact size of the request about to be sent. */
  | "step"
  /** After a run finished (the answer is complete, the user has the turn). */
  | "idle"
  /** The provider rejected the request as too large. */
  | "overflow";

/** What a policy sees. Plain data: a policy is a pure function of it. */
export interface PolicyInput {
  moment: PolicyMoment;
  /** The history as it would be sent (after `applyRevert` and `filterCompacted`), parts carrying their cached `tokenCount`. */
  view: MessageWithParts[];
  /** Our exact (calibrated) size of the request about to be sent: system, tools and `view`. */
  request: number;
  model: ModelLimits;
  settings: CompactionSettings;
  /** Price of a cached input token relative to an uncached one (see `cachePriceOf`). */
  cachePrice: number;
  /** Price of writing a token to the cache relative to an uncached input (Anthropic: 1.25; default 1: no surcharge). */
  cacheWritePrice?: number;
  /** For cached counts (`TokenCounter.encodingFor`). */
  encoding: string;
  /** Milliseconds since this session's last request reached the provider (undefined: none yet). */
  sinceLastRequest?: number;
  /**
   * Tokens of `request` that are the extra message after the summary in force (the user's earlier
   * words, anything re-added: core/pins/after-compaction). Part of the request like any other
   * (it must fit the window), but OpenCode sends no such message, so it is left out where ours
   * compares itself with OpenCode's trigger.
   */
  afterSummary?: number;
  /**
   * Where a caller that asks more than once about the same `view` (a step asks whether an estimate will do,
   * then about the request's size) lets the decisions share what they worked out from it: each is a walk of
   * the whole view, milliseconds in a long session, in the send's way. Left out, each decision works it out.
   * What is kept was worked out from the counts known then: clear it when counts of the view land in between.
   */
  reuse?: Map<string, unknown>;
}

/** `work()`, or what it gave for `key` earlier in `input.reuse`. */
function reused<T>(input: Pick<PolicyInput, "reuse">, key: string, work: () => T): T {
  const memo = input.reuse;
  if (!memo) return work();
  if (memo.has(key)) return memo.get(key) as T;
  const result = work();
  memo.set(key, result);
  return result;
}

/** How a summary request is built. */
export type SummaryMode =
  /** OpenCode classic: the compaction system prompt, the head as model messages, then the instructions; nothing is served from cache. */
  | "classic"
  /** The head serialised as a transcript, tool results cut to 2,000 characters (what `buildSummaryRequest` sends). */
  | "transcript"
  /** The exact request of the next step plus the instructions as a last user message: the provider serves the head from its cache. */
  | "cached-prefix";

export type PolicyDecision =
  | { kind: "send" }
  /** Mark these tool outputs as pruned (`state.time.compacted`), then ask again. */
  | { kind: "prune"; parts: ToolPart[]; freed: number }
  /** Summarise now, keeping the messages from `tailStartID` on verbatim; then ask again. */
  | { kind: "summarize"; mode: SummaryMode; tailStartID?: string }
  /** Send only `view.slice(from)`; nothing is stored (the naive baseline). */
  | { kind: "trim"; from: number };

/** A context policy. `decide` must be pure: same input, same decision. */
export interface ContextPolicy {
  readonly name: string;
  decide(input: PolicyInput): PolicyDecision;
  /** The app that runs it sends the user's pinned goal and constraints in every request's system prompt (core/pins). */
  readonly pins?: boolean;
  /** The app that runs it also sends the user's earlier messages verbatim after each summary (core/pins/user-words); bench:context prices them. */
  readonly userWords?: boolean;
}

const SEND: PolicyDecision = { kind: "send" };

/** When prices do not tell (local models, unknown cache price): cached input at a tenth. */
export const DEFAULT_CACHE_PRICE = 0.1;

/** `cacheRead / input` from a model's prices, or DEFAULT_CACHE_PRICE when they do not say. */
export function cachePriceOf(prices: ModelPrices): number {
  if (!(prices.input > 0) || !(prices.cacheRead > 0)) return DEFAULT_CACHE_PRICE;
  return Math.min(1, prices.cacheRead / prices.input);
}

/** `cacheWrite / input` from a model's prices; 1 when writes cost nothing extra (OpenAI, DeepSeek, Gemini) or prices are unknown. */
export function cacheWritePriceOf(prices: ModelPrices): number {
  if (!(prices.input > 0) || !(prices.cacheWrite > 0)) return 1;
  return Math.max(1, prices.cacheWrite / prices.input);
}

/** Sends everything, always. */
export const noCompaction: ContextPolicy = { name: "none", decide: () => SEND };

/** Sends only the last `n` stored messages (user prompts and assistant steps). */
export function keepLastN(n: number): ContextPolicy {
  return {
    name: `keep-last-${n}`,
    decide: ({ moment, view }) => (moment === "step" && view.length > n ? { kind: "trim", from: view.length - n } : SEND),
  };
}

/**
 * OpenCode as specified: `planPrune` after each finished run (PRUNE_PROTECT
 * 40k, PRUNE_MINIMUM 20k, the last 2 turns, stop at a summary or at an
 * already pruned part); a summary of the whole history (classic request, no
 * tail) when the last finished step's reported usage (input + output +
 * cache) reaches OpenCode's `usable` (`opencodeUsable`: window −
 * min(20k, output); see opencode-rules.ts for the audit), checked before each
 * step, and after a provider overflow. It does not look at the request about
 * to be sent, so a large tool result can push that request past the window.
 */
export const opencodePolicy: ContextPolicy = {
  name: "opencode",
  decide(input) {
    const { settings, model, view } = input;
    if (input.moment === "idle") {
      if (!settings.compaction.prune) return SEND;
      const plan = planPrune(view);
      return plan.parts.length ? { kind: "prune", parts: plan.parts, freed: plan.pruned } : SEND;
    }
    if (settings.compaction.auto === false || model.contextWindow === 0) return SEND;
    if (input.moment === "overflow") return { kind: "summarize", mode: "classic" };
    const last = lastStepTokens(view);
    const limit = opencodeUsable(model);
    return last !== undefined && limit > 0 && opencodeCount(last) >= limit ? { kind: "summarize", mode: "classic" } : SEND;
  },
};

/** Tuning of `tabcodePolicy`; the defaults (TABCODE_POLICY) are what the app runs and what the benchmark measures. */
export interface TabcodePolicyOptions {
  /** Tool-output tokens outside the protected turns that are never pruned (the newest ones). */
  protect: number;
  /** Whole turns at the end whose tool outputs are never pruned (1 = the current one). */
  protectTurns: number;
  /** The least a prune may free: `min(minimum, usable × minimumShare)`. */
  minimum: number;
  minimumShare: number;
  /** At the summary point, a prune is taken instead when it brings the request under `point × lowWater`. */
  lowWater: number;
  /** Idle time after which the provider's prompt cache is taken as cold. */
  coldAfterMs: number;
  /** The price put on the information one summary loses, in usable windows of input tokens. */
  summaryLoss: number;
  /** Economic summaries wait until the unpruned history reaches `overflowAt × gate` (1 = OpenCode's own trigger). */
  gate: number;
  /** Share of the compaction reserve the history may use (0 = summarise at `overflowAt`; 1 = up to the window minus the largest recent step). */
  fill: number;
  /** Share of the usable window kept verbatim after a summary (clamped to 2k–15k; 0 = no tail). */
  tail: number;
}

export const TABCODE_POLICY: Readonly<TabcodePolicyOptions> = {
  protect: 0,
  protectTurns: 1,
  minimum: 8_000,
  minimumShare: 0.08,
  lowWater: 0.75,
  coldAfterMs: 5 * 60_000,
  summaryLoss: 0.5,
  gate: 1.03,
  fill: 0,
  tail: 0,
};

/** Tokens of the summary instructions appended in `cached-prefix` mode (the template of `summaryPrompt`, rounded up). */
export const SUMMARY_PROMPT_TOKENS = 400;
/** What a summary is expected to write. */
export const SUMMARY_OUTPUT_TOKENS = 4_000;

function completedTool(p: MessageWithParts["parts"][number] | undefined): p is ToolPart & { state: { status: "completed" } } {
  return p?.type === "tool" && p.state.status === "completed";
}

/**
 * `placeholderTokens` per tool state: a state is replaced, never changed in place (see `partCost`), and
 * every decision walks all old tool outputs; building each placeholder again made that walk O(outputs ×
 * their inputs) on every step.
 */
const placeholders = new WeakMap<object, { tool: string; tokens: number }>();

/** What a tool part sends with its output cleared. */
function placeholderTokens(p: ToolPart): number {
  if (p.state.status !== "completed") return 0;
  const hit = placeholders.get(p.state);
  if (hit?.tool === p.tool) return hit.tokens;
  const cost = partCost({ ...p, state: { ...p.state, time: { ...p.state.time, compacted: 1 } } }, "assistant");
  const tokens = cost.kind === "text" ? estimateTokens(cost.text) : 0;
  placeholders.set(p.state, { tool: p.tool, tokens });
  return tokens;
}

/** A pruned part's size before it was pruned: its cached count when it still fits the full output, else an estimate. */
function unprunedTokens(p: ToolPart): number {
  if (p.state.status !== "completed") return 0;
  const cost = partCost({ ...p, state: { ...p.state, time: { start: p.state.time.start, end: p.state.time.end } } }, "assistant");
  if (cost.kind !== "text") return 0;
  return (knownCount(p, cost.text.length) ?? estimateTokens(cost.text)) + (cost.media ?? 0);
}

/** A prune our policy could take now. */
export interface PruneBatch {
  /** Newest first. */
  parts: ToolPart[];
  /** Tokens the request shrinks by (outputs minus their placeholders). */
  freed: number;
  /** Tokens from the oldest pruned part's message to the end: re-sent uncached after the prune (counted when read). */
  readonly suffix: number;
}

/**
 * Every completed, unpruned, unprotected tool output older than the last
 * `protectTurns` turns and the newest `protect` tool-output tokens, back to
 * the last summary, with what pruning them now costs.
 */
export function planBatch(view: MessageWithParts[], protect: number, protectTurns: number, encoding: string): PruneBatch {
  const parts: ToolPart[] = [];
  let turns = 0;
  let seen = 0;
  let freed = 0;
  let oldest = -1;
  // Tool results the model has not read yet (its newest step ended in tool calls) are never pruned,
  // even when a newer prompt waits behind them.
  let inProgress: string | undefined;
  for (let i = view.length - 1; i >= 0; i--) {
    const info = view[i]?.info;
    if (info?.role !== "assistant") continue;
    if (info.finish === undefined || info.finish === "tool-calls") inProgress = info.parentID;
    break;
  }
  for (let i = view.length - 1; i >= 0; i--) {
    const m = view[i];
    if (!m) continue;
    if (m.info.role === "user") turns++;
    if (m.info.role === "assistant" && m.info.summary) break;
    if (turns < protectTurns) continue;
    if (m.info.role === "assistant" && m.info.parentID === inProgress) continue;
    for (let j = m.parts.length - 1; j >= 0; j--) {
      const p = m.parts[j];
      if (!completedTool(p) || p.state.time.compacted || PRUNE_PROTECTED_TOOLS.has(p.tool)) continue;
      const tokens = toolOutputTokens(p);
      seen += tokens;
      if (seen <= protect) continue;
      parts.push(p);
      freed += tokens - placeholderTokens(p);
      oldest = i;
    }
  }
  // The suffix is a pass over every message from the oldest pruned one on, and only the last of the policy's
  // questions needs it: worked out when first read (a long session's send asked for it every step).
  let suffix: number | undefined;
  return {
    parts,
    freed: Math.max(0, freed),
    get suffix() {
      if (suffix === undefined) {
        suffix = 0;
        for (let i = Math.max(0, oldest); oldest >= 0 && i < view.length; i++) suffix += messageTokens(view[i] as MessageWithParts, encoding).tokens;
      }
      return suffix;
    },
  };
}

/** How the history has grown since the last summary, read from the view (O(view), nothing counted). */
export interface Growth {
  /** Size of the first request after the last summary (or the session's first), as the provider reported it. */
  base: number;
  /** Finished steps since then. */
  steps: number;
  /** Tokens the largest of the last 20 steps added (its output and tool results). */
  maxStep: number;
  /** Unpruned tool-output tokens the last 20 steps added, per step. */
  tools: number;
  /** Tokens pruned since the last summary: without our prunes the request would be this much larger. */
  pruned: number;
  /** Tokens added after the last step's own request and output: its tool results and any newer messages. */
  sinceLastStep: number;
}

/** Growth since the last completed summary; undefined before the first step after it. */
export function growthOf(view: MessageWithParts[], encoding: string): Growth | undefined {
  let boundary = -1;
  for (let i = view.length - 1; i >= 0 && boundary < 0; i--) {
    const info = view[i]?.info;
    if (info?.role === "assistant" && info.summary && info.finish && !info.error) boundary = i;
  }
  let base: number | undefined;
  let steps = 0;
  let pruned = 0;
  for (let i = boundary + 1; i < view.length; i++) {
    const m = view[i];
    if (m?.info.role !== "assistant") continue;
    for (const p of m.parts) if (completedTool(p) && p.state.time.compacted) pruned += unprunedTokens(p) - placeholderTokens(p);
    const info = m.info;
    if (info.summary || !info.finish || info.error) continue;
    base ??= info.tokens.input + info.tokens.cache.read + info.tokens.cache.write;
    steps++;
  }
  if (base === undefined) return undefined;
  let maxStep = 0;
  let tools = 0;
  let seen = 0;
  let sinceLastStep = 0;
  let lastStepFound = false;
  for (let i = view.length - 1; i > boundary && seen < 20; i--) {
    const m = view[i];
    if (!m) continue;
    if (m.info.role !== "assistant" || m.info.summary) {
      if (!lastStepFound) sinceLastStep += messageTokens(m, encoding).tokens;
      continue;
    }
    seen++;
    maxStep = Math.max(maxStep, messageTokens(m, encoding).tokens);
    for (const p of m.parts) {
      if (!completedTool(p) || p.state.time.compacted) continue;
      const t = toolOutputTokens(p);
      if (!lastStepFound) sinceLastStep += t;
      if (!PRUNE_PROTECTED_TOOLS.has(p.tool)) tools += t;
    }
    lastStepFound = true;
  }
  return { base, steps, maxStep, tools: seen ? tools / seen : 0, pruned, sinceLastStep };
}

/**
 * The economic order quantity: an action with a fixed cost `cost` that
 * clears what accumulates at `rate` tokens per step, each token carried at
 * `price` per step, is best repeated every √(2 · cost · rate / price) tokens.
 */
export function economicBatch(cost: number, rate: number, price: number): number {
  return Math.sqrt((2 * Math.max(0, cost) * Math.max(1, rate)) / Math.min(1, Math.max(1e-6, price)));
}

/** Tail budget of our summaries: `tail` × usable, clamped to 2k–15k (0 = none). */
export function ourTailBudget(model: ModelLimits, opts: Pick<TabcodePolicyOptions, "tail">): number {
  if (opts.tail <= 0) return 0;
  return Math.min(TAIL_MAX_TOKENS, Math.max(TAIL_MIN_TOKENS, Math.floor(usable(model) * opts.tail)));
}

/** The request size at which our policy summarises (see `tabcodePolicy`, points 1 and 5). */
export function summaryPoint(input: PolicyInput, growth: Growth | undefined, opts: TabcodePolicyOptions): number {
  const { model, settings, request } = input;
  const at = overflowAt(model, settings);
  const margin = growth ? growth.maxStep : 0;
  const hard = at + Math.max(0, opts.fill * (inputBudget(model) - SUMMARY_PROMPT_TOKENS - margin - at));
  if (settings.compaction.auto === false || !growth || growth.steps < 3) return hard;
  // Never sooner than OpenCode (1.x: the last step's usage against overflowAt; 2.x: the next request
  // against context − max(output, 20k)) would summarise the same history unpruned (and without our
  // after-summary message, which OpenCode does not send).
  if (request - (input.afterSummary ?? 0) + growth.pruned - growth.sinceLastStep < opencode2Limit(model) * opts.gate) return hard;
  const p = input.cachePrice;
  // After a summary the new prefix (tail + summary) is written to the cache again: at the provider's write price.
  const w = input.cacheWritePrice ?? 1;
  const cost = opts.summaryLoss * usable(model) + (w - p) * (ourTailBudget(model, opts) + SUMMARY_OUTPUT_TOKENS);
  const rate = Math.max(1, (request - growth.base) / growth.steps);
  return Math.min(hard, growth.base + economicBatch(cost, rate, p));
}

/**
 * Ours: the same prune marks and summaries as OpenCode, decided before every
 * call from our exact count of the request about to be sent, and priced
 * against the provider's prompt cache (cached input at `cachePrice`).
 *
 * 1. **Never over the window.** Decisions use the exact size of the next
 *    request, not the last step's usage, so a large tool result is dealt
 *    with before it is sent. (`fill` > 0 would also let the history use the
 *    compaction reserve, since our summary needs only room for its
 *    instructions; off by default: it trades cost for fewer summaries.)
 * 2. **Prunes batched to the cache.** A prune changes the request from the
 *    oldest pruned part on, so that suffix is billed uncached once. Pruning
 *    a little every turn pays that again and again; we prune only when the
 *    batch reaches its economic size (`economicBatch` with the suffix's
 *    re-send cost), and then everything outside the current turn at once —
 *    or as soon as the cache is cold after a pause (`coldAfterMs`), when the
 *    whole request is billed uncached anyway.
 * 3. **Prune before summarising.** At the summary point a prune is taken
 *    instead when it brings the request well under it (`lowWater`):
 *    summaries lose the conversation, prunes only drop tool results the
 *    model has already read.
 * 4. **Summaries into the cached prefix.** The summary request is the next
 *    request itself plus the instructions, so the provider serves the head
 *    from its cache (a transcript when that would not fit the window).
 * 5. **Summaries when they pay, never more often than OpenCode.** Carrying a
 *    long history costs `cachePrice` per token per step; once the history,
 *    counted as if nothing had been pruned, reaches OpenCode's own trigger
 *    (`gate`), a summary is taken as soon as the growth since the last one
 *    reaches its economic size (the loss of a summary priced at
 *    `summaryLoss` windows). So summaries come no sooner than OpenCode's, and
 *    later when cached input is cheap.
 * 6. **No verbatim tail by default** (`tail`): measured, a tail is re-sent
 *    uncached after every summary and fills the window sooner (more
 *    summaries); the current turn is protected from pruning instead.
 */
export function tabcodePolicy(opts: TabcodePolicyOptions = TABCODE_POLICY): ContextPolicy {
  return {
    name: "tabcode",
    pins: true,
    userWords: true,
    decide(input) {
      const { settings, model, view, request, cachePrice: p } = input;
      if (model.contextWindow === 0 || input.moment === "idle") return SEND;
      const auto = settings.compaction.auto !== false;
      if (input.moment === "overflow") return auto ? summarize(input, opts, "transcript") : SEND;
      const u = usable(model);
      const growth = reused(input, `growth ${input.encoding}`, () => growthOf(view, input.encoding));
      const batch = settings.compaction.prune ? reused(input, `batch ${opts.protect} ${opts.protectTurns} ${input.encoding}`, () => planBatch(view, opts.protect, opts.protectTurns, input.encoding)) : undefined;
      const prunable = batch !== undefined && batch.freed > 0;
      const prune = (): PolicyDecision => ({ kind: "prune", parts: batch?.parts ?? [], freed: batch?.freed ?? 0 });
      const due = summaryPoint(input, growth, opts);
      if (request >= due) {
        if (prunable && request - batch.freed <= due * opts.lowWater) return prune();
        // A summary needs something new to summarise (otherwise it would repeat itself).
        if (auto && growth) return summarize(input, opts, request + SUMMARY_PROMPT_TOKENS <= inputBudget(model) ? "cached-prefix" : "transcript");
        return prunable ? prune() : SEND;
      }
      if (!prunable || batch.freed < Math.min(opts.minimum, u * opts.minimumShare)) return SEND;
      if (input.sinceLastRequest !== undefined && input.sinceLastRequest >= opts.coldAfterMs) return prune();
      return batch.freed >= economicBatch((1 - p) * batch.suffix, growth?.tools ?? 0, p) ? prune() : SEND;
    },
  };
}

function summarize(input: PolicyInput, opts: Pick<TabcodePolicyOptions, "tail">, mode: SummaryMode): PolicyDecision {
  const budget = ourTailBudget(input.model, opts);
  if (budget === 0) return { kind: "summarize", mode };
  const previous = previousSummary(input.view);
  const prevIDs = new Set([previous?.message.info.id, previous?.message.info.parentID]);
  const body = input.view.filter((m) => !prevIDs.has(m.info.id));
  const start = selectTail(body, { budget, encoding: input.encoding, after: previous?.message.info.parentID });
  const tailStartID = start === undefined ? undefined : body[start]?.info.id;
  return tailStartID ? { kind: "summarize", mode, tailStartID } : { kind: "summarize", mode };
}

/** The policy the app runs. */
export const DEFAULT_POLICY: ContextPolicy = tabcodePolicy();
