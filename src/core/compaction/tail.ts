import type { MessageWithParts } from "../schema";
import { messageTokens } from "../tokens/part-text";
import { type ModelLimits, usable } from "./overflow";

/**
 * Tail preservation (spec §3.4, later refinements): the most recent whole
 * turns stay verbatim after a compaction, within a budget; only the older
 * head is summarised. The tail always starts at a user message.
 */

export const TAIL_MIN_TOKENS = 2_000;
export const TAIL_MAX_TOKENS = 15_000;

/** `clamp(floor(usable × 0.25), 2k, 15k)` tokens. */
export function tailBudget(model: ModelLimits): number {
  return Math.min(TAIL_MAX_TOKENS, Math.max(TAIL_MIN_TOKENS, Math.floor(usable(model) * 0.25)));
}

export interface TailOptions {
  budget: number;
  /** For cached counts (`TokenCounter.encodingFor`); other parts are estimated. */
  encoding: string;
  /** Messages at or before this id cannot start the tail (the previous compaction boundary). */
  after?: string;
}

/**
 * The index in `msgs` (chronological, the messages to compact) where the
 * tail starts, or undefined when not even one whole turn fits or the head
 * would be empty.
 */
export function selectTail(msgs: MessageWithParts[], opts: TailOptions): number | undefined {
  // The head must keep at least one turn: the first user message never starts the tail.
  const firstUser = msgs.findIndex((m) => m.info.role === "user" && (opts.after === undefined || m.info.id > opts.after));
  let size = 0;
  let start: number | undefined;
  for (let i = msgs.length - 1; i > firstUser && firstUser >= 0; i--) {
    const m = msgs[i];
    if (!m) continue;
    if (opts.after !== undefined && m.info.id <= opts.after) break;
    size += messageTokens(m, opts.encoding).tokens;
    if (size > opts.budget) break;
    if (m.info.role === "user") start = i;
  }
  return start;
}
