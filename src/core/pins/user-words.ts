/**
 * The user's own words after a compaction: the user messages that the
 * compacted request no longer holds verbatim (they were summarised) are sent
 * again as one block, newest first up to a budget (oldest dropped first),
 * so a rule stated in passing survives even when nobody pinned it. Codex CLI
 * keeps about 20k tokens of them; so do we.
 */
import { inputBudget, type ModelLimits } from "../compaction/overflow";
import type { MessageWithParts } from "../schema";
import { userText } from "./pins";

/** Tokens of earlier user messages kept verbatim after a compaction (on large windows). */
export const USER_WORDS_BUDGET = 20_000;
/** On smaller windows, at most this share of the input budget (20k of a 32k window would leave no room to work). */
export const USER_WORDS_SHARE = 0.1;

/** The budget for a model: 20k tokens, or a tenth of its input budget when that is less. */
export function userWordsBudget(model: ModelLimits): number {
  return Math.min(USER_WORDS_BUDGET, Math.floor(inputBudget(model) * USER_WORDS_SHARE));
}
/** A single message longer than this (a pasted log) is cut to its start. */
export const USER_WORDS_PER_MESSAGE = 2_000;

/** How the block starts (the demo model tells it from a new prompt by it). */
export const USER_WORDS_HEADING = "The user's earlier messages, verbatim";

export interface UserWords {
  /** The block to send (after the summary). */
  text: string;
  /** Messages it holds, and how many older ones did not fit. */
  messages: number;
  dropped: number;
  tokens: number;
}

/**
 * The block of earlier user messages for a compacted request: user messages
 * of `history` (the stored branch) that are not in `sent`, newest first until
 * `budget` tokens, then in their order. Undefined when there are none.
 */
export function keptUserWords(history: MessageWithParts[], sent: MessageWithParts[], count: (text: string) => number, budget: number = USER_WORDS_BUDGET): UserWords | undefined {
  const inSent = new Set(sent.map((m) => m.info.id));
  const older: string[] = [];
  for (const m of history) {
    if (m.info.role !== "user" || inSent.has(m.info.id)) continue;
    const text = userText(m);
    if (text) older.push(text);
  }
  if (older.length === 0) return undefined;
  const kept: string[] = [];
  let tokens = 0;
  for (let i = older.length - 1; i >= 0; i--) {
    let text = older[i] as string;
    let n = count(text);
    if (n > USER_WORDS_PER_MESSAGE) {
      text = `${text.slice(0, Math.floor((text.length * USER_WORDS_PER_MESSAGE) / n))}\n[… cut]`;
      n = count(text);
    }
    if (tokens + n > budget) break;
    tokens += n;
    kept.unshift(text);
  }
  if (kept.length === 0) return undefined;
  const dropped = older.length - kept.length;
  const head = `${USER_WORDS_HEADING} (the conversation they belong to was summarised above${dropped ? `; ${dropped} older ones did not fit` : ""}):`;
  const text = [head, ...kept.map((t, i) => `[${i + 1}] ${t}`)].join("\n\n");
  return { text, messages: kept.length, dropped, tokens: count(text) };
}
