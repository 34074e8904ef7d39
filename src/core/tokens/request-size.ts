import type { LLMToolSpec } from "../ports/llm";
import type { MessageWithParts, Part } from "../schema";
import { utf8Length } from "../util/utf8";
import { CountMemo } from "./count-memo";
import { ESTIMATE_ENCODING, estimateTokens, type TokenCounter } from "./counter";
import { cachedCount, countIn, MESSAGE_OVERHEAD, modelMessageCount, type PartCostOptions, partCost, REPLY_OVERHEAD, rememberCount } from "./part-text";

/**
 * The size of a model request in tokens, in two phases so that preparing a
 * request costs O(new content): `planRequestSize` lists only the texts whose
 * count is not known yet (parts without a fresh `tokenCount`, system sections
 * and tool specs not in the memo); `finishRequestSize` adds their counts to
 * what was known and returns the parts to persist with their new `tokenCount`.
 *
 * A part's cached count is `{encoding, count, size}` where `size` is the
 * length of the text that was counted (what the part sends, see
 * `part-text.ts`); it is stale when the encoding differs or the length changed
 * (a streamed text grew, a tool finished, a tool output was pruned).
 */

export interface RequestSizeInput {
  /** System prompt sections, as sent. */
  system: string[];
  /** The history as sent (after `applyRevert` and `filterCompacted`). */
  messages: MessageWithParts[];
  tools: LLMToolSpec[];
  /** From `TokenCounter.encodingFor(modelID)`. */
  encoding: string;
  stripMedia?: PartCostOptions["stripMedia"];
}

/** One text to count. */
export interface SizeJob {
  text: string;
  bucket: "system" | "tools" | "messages";
  /** Set when the count should be cached on this part. */
  part?: Part;
}

export interface RequestSizePlan {
  encoding: string;
  /** Texts to count, in this order. */
  jobs: SizeJob[];
  /** Tokens already known, per bucket (cached counts, memo hits, media, overheads). */
  known: { system: number; tools: number; messages: number };
}

/** Our count of a request. */
export interface RequestSize {
  /** Everything: system + tools + messages + reply priming. Apply calibration before comparing with limits. */
  total: number;
  system: number;
  tools: number;
  messages: number;
  /** Parts with a new `tokenCount`, to persist with `store.upsertPart` (empty for estimates). */
  upserts: Part[];
  /** How many texts were counted for this request (0 when everything was cached). */
  counted: number;
  /** False when the counter failed and estimates were used. */
  exact: boolean;
  /**
   * Set when the request was sized by `estimateRequestSize` (the tokenizer
   * was not ready): `upper` is a bound the true count cannot exceed.
   */
  estimate?: { upper: number; charsPerToken: number };
}

/** `toolSpecText` per spec object: a tool's spec is built once and never changed (`defineTool`). */
const specTexts = new WeakMap<LLMToolSpec, string>();

/**
 * The text a tool spec costs. Kept per spec object: every request is sized at least twice (the loop, the
 * header), and serialising a dozen JSON schemas each time cost a few milliseconds of every send.
 */
export function toolSpecText(t: LLMToolSpec): string {
  let text = specTexts.get(t);
  if (text === undefined) {
    text = JSON.stringify({ name: t.name, description: t.description, parameters: t.inputSchema });
    specTexts.set(t, text);
  }
  return text;
}

/** Phase 1: what is known, and what must still be counted. */
export function planRequestSize(input: RequestSizeInput, memo?: CountMemo): RequestSizePlan {
  const { encoding } = input;
  const jobs: SizeJob[] = [];
  const known = { system: 0, tools: 0, messages: REPLY_OVERHEAD };
  const plain = (text: string, bucket: "system" | "tools") => {
    if (text.length === 0) return;
    const hit = memo?.get(encoding, text);
    if (hit === undefined) jobs.push({ text, bucket });
    else known[bucket] += hit;
  };
  for (const s of input.system) plain(s, "system");
  if (input.system.some((s) => s.length > 0)) known.system += MESSAGE_OVERHEAD;
  for (const t of input.tools) plain(toolSpecText(t), "tools");
  for (const m of input.messages) {
    const costs = m.parts.map((p) => partCost(p, m.info.role, { stripMedia: input.stripMedia }));
    const n = modelMessageCount(m, costs);
    if (n === 0) continue;
    known.messages += n * MESSAGE_OVERHEAD;
    costs.forEach((c, i) => {
      const part = m.parts[i];
      if (!part) return;
      if (c.kind === "fixed") known.messages += c.tokens;
      else if (c.kind === "text") {
        known.messages += c.media ?? 0;
        const cached = cachedCount(part, c.text, encoding);
        if (cached === undefined) jobs.push({ text: c.text, bucket: "messages", part });
        else known.messages += cached;
      }
    });
  }
  return { encoding, jobs, known };
}

/** Phase 2: `counts[i]` is the count of `plan.jobs[i].text`. */
export function finishRequestSize(plan: RequestSizePlan, counts: number[], memo?: CountMemo, exact = true): RequestSize {
  const sum = { ...plan.known };
  const upserts: Part[] = [];
  const persist = exact && plan.encoding !== ESTIMATE_ENCODING;
  plan.jobs.forEach((job, i) => {
    const count = counts[i] ?? estimateTokens(job.text);
    sum[job.bucket] += count;
    if (!exact) return;
    if (job.part && persist) {
      const tokenCount = { encoding: plan.encoding, count, size: job.text.length };
      rememberCount(job.part, tokenCount);
      upserts.push({ ...job.part, tokenCount });
    }
    else if (!job.part) memo?.set(plan.encoding, job.text, count);
  });
  return { total: sum.system + sum.tools + sum.messages, ...sum, upserts, counted: plan.jobs.length, exact };
}

/**
 * Both phases with a counter. A failing counter degrades to estimates
 * (`exact: false`, nothing to persist) instead of failing the request.
 */
export async function measureRequest(counter: TokenCounter, input: RequestSizeInput, memo?: CountMemo): Promise<RequestSize> {
  return countPlan(counter, planRequestSize(input, memo), memo);
}

/** Phase 2 of a plan with a counter (see `measureRequest`). */
export async function countPlan(counter: TokenCounter, plan: RequestSizePlan, memo?: CountMemo): Promise<RequestSize> {
  if (plan.jobs.length === 0) return finishRequestSize(plan, [], memo);
  try {
    const counts = await counter.count(
      plan.jobs.map((j) => j.text),
      plan.encoding,
    );
    return finishRequestSize(plan, counts, memo);
  } catch {
    return finishRequestSize(
      plan,
      plan.jobs.map((j) => estimateTokens(j.text)),
      memo,
      false,
    );
  }
}

/** Characters per token of `estimateTokens` (used when nothing better is known). */
export const DEFAULT_CHARS_PER_TOKEN = 4;

/**
 * Characters per token measured on the history's own exact counts (parts
 * whose cached `tokenCount` is fresh in this encoding): the calibration of
 * the estimate. Falls back to `DEFAULT_CHARS_PER_TOKEN` below `minChars`.
 */
export function charsPerToken(messages: MessageWithParts[], encoding: string, minChars = 2_000): number {
  let chars = 0;
  let tokens = 0;
  for (const m of messages)
    for (const p of m.parts) {
      const c = countIn(p, encoding);
      if (c && c.count > 0) {
        chars += c.size;
        tokens += c.count;
      }
    }
  return chars >= minChars && tokens > 0 ? chars / tokens : DEFAULT_CHARS_PER_TOKEN;
}

/**
 * The request's size without a tokenizer: what is cached stays exact, every
 * text still to count is estimated at the history's own characters per token
 * (`charsPerToken`), and `estimate.upper` bounds the true count (UTF-8 bytes
 * of those texts). Nothing is persisted or memoised from an estimate. The
 * loop sends on it only when even the bound is far from the window (the
 * context policy decides the same on the bound as on the exact count).
 */
export function estimateRequestSize(input: RequestSizeInput, memo?: CountMemo): RequestSize {
  return estimatePlan(planRequestSize(input, memo), input.messages, memo);
}

/** Characters of the texts a plan still has to count. */
export function pendingChars(plan: RequestSizePlan): number {
  return plan.jobs.reduce((n, j) => n + j.text.length, 0);
}

/** `estimateRequestSize` of a plan already made (`messages`: the history, for its characters per token). */
export function estimatePlan(plan: RequestSizePlan, messages: MessageWithParts[], memo?: CountMemo): RequestSize {
  const input = { messages, encoding: plan.encoding };
  const rate = charsPerToken(input.messages, input.encoding);
  const estimates = plan.jobs.map((j) => Math.ceil(j.text.length / rate));
  const size = finishRequestSize(plan, estimates, memo, false);
  const known = plan.known.system + plan.known.tools + plan.known.messages;
  // A text's UTF-8 length bounds its tokens in any byte-level BPE (every token is at least one byte).
  const upper = known + plan.jobs.reduce((n, j) => n + utf8Length(j.text), 0);
  return { ...size, estimate: { upper, charsPerToken: rate } };
}

export { CountMemo };
