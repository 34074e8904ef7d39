/**
 * The user's own words after a compaction: the user messages that the
 * compacted request no longer holds verbatim (they were summarised) are sent
 * again as one block, so a rule stated in passing survives even when nobody
 * pinned it, and the next summary (whose request carries the block) can keep
 * it again. The first message (the task, where rules are usually set) comes
 * first, then the newest ones until the budget is spent (oldest dropped
 * first). Codex CLI keeps about 20k tokens of them; we keep at most that.
 *
 * Which messages are kept is decided on sizes alone (`pickUserWords`), so the
 * context benchmark (bench/context) runs the very same selection on its
 * traces; the texts are prepared first (`wordsOf`: acknowledgements dropped,
 * long pasted blocks left out).
 */
import { type ModelLimits, usable } from "../compaction/overflow";
import type { MessageWithParts } from "../schema";
import { estimateTokens } from "../tokens/counter";
import { userText } from "./pins";

/** The most tokens of earlier user messages kept after a compaction (Codex CLI's figure). */
export const USER_WORDS_MAX = 20_000;
/** The summary and the words together take at most this share of the usable window. */
export const USER_WORDS_SHARE = 0.1;
/** A single message longer than this (or half the budget, if less) is cut to its start. */
export const USER_WORDS_PER_MESSAGE = 2_000;

/**
 * The budget after a summary of `summaryTokens`: a tenth of the usable window
 * less what the summary already holds, at most USER_WORDS_MAX. Scales with
 * the window (on a 32k model it is a few hundred tokens, not 20k), and the
 * words never cost more room than the summary leaves.
 */
export function userWordsBudget(model: ModelLimits, summaryTokens = 0): number {
  return Math.max(0, Math.min(USER_WORDS_MAX, Math.floor(usable(model) * USER_WORDS_SHARE) - Math.max(0, summaryTokens)));
}

/** The longest one message may be within `budget`. */
export function perMessageCap(budget: number): number {
  return Math.min(USER_WORDS_PER_MESSAGE, Math.floor(budget / 2));
}

export interface WordsPick {
  /** Indices into the sizes kept, in their order (the first message first, as in the conversation). */
  kept: number[];
  /** Of `kept`, the ones cut to `cap` (a cut message may have lost what it said: it holds only its start). */
  cut: Set<number>;
  /** Tokens of the kept messages (cut ones at `cap`). */
  tokens: number;
  /** Messages left out. */
  dropped: number;
  cap: number;
}

/**
 * Which earlier messages to keep, from their sizes (oldest first): the first
 * one if it fits, then the newest first until the next one would not fit; a
 * message larger than `perMessageCap(budget)` counts (and is sent) as its
 * first `cap` tokens. Shared by the app (`keptUserWords`) and the benchmark.
 */
export function pickUserWords(sizes: readonly number[], budget: number): WordsPick {
  const cap = perMessageCap(budget);
  const cut = new Set<number>();
  const chosen: number[] = [];
  let tokens = 0;
  const take = (i: number): boolean => {
    const n = Math.min(sizes[i] ?? 0, cap);
    if (n <= 0 || tokens + n > budget) return false;
    tokens += n;
    chosen.push(i);
    if ((sizes[i] ?? 0) > cap) cut.add(i);
    return true;
  };
  if (sizes.length > 0 && cap > 0) {
    const first = take(0);
    for (let i = sizes.length - 1; i >= (first ? 1 : 0); i--) if (!take(i)) break;
  }
  const kept = chosen.sort((a, b) => a - b);
  return { kept, cut, tokens, dropped: sizes.length - kept.length, cap };
}

/** How the block starts (the demo model tells it from a new prompt by it). */
export const USER_WORDS_HEADING = "The user's earlier messages, verbatim";

/** The first line of the block. */
export function userWordsHead(dropped: number): string {
  return `${USER_WORDS_HEADING} (the conversation they belong to was summarised above${dropped ? `; ${dropped} other ones did not fit` : ""}):`;
}

/** Tokens the block adds besides the messages themselves: its first line and each message's label. */
export function userWordsOverhead(messages: number, dropped: number): number {
  return estimateTokens(userWordsHead(dropped)) + 3 * messages;
}

/** Replies that say nothing but "go on": never a rule, so never kept. */
const ACKNOWLEDGEMENT = /^(ok(ay)?|k|yes|yep|yeah|sure|thanks?( you)?|thx|ty|go( on| ahead)?|continue|proceed|do it|sounds good|great|perfect|nice|cool|lgtm|👍)[\s.!]*$/i;
/** A fenced block longer than this (lines or characters) is pasted material (a log, a file), left out. */
const PASTED_LINES = 8;
const PASTED_CHARS = 600;

/**
 * What of a user message is worth keeping as the user's words: pasted blocks
 * (fenced, longer than a few lines) are replaced by a note, a bare
 * acknowledgement by nothing. A pasted log is not a rule.
 */
export function wordsOf(text: string): string {
  const out = text.replace(/```[^\n]*\n([\s\S]*?)(```|$)/g, (block, body: string) => {
    const lines = body.replace(/\n$/, "").split("\n").length;
    return lines > PASTED_LINES || body.length > PASTED_CHARS ? `[pasted block of ${lines} lines left out]` : block;
  });
  const t = out.trim();
  return ACKNOWLEDGEMENT.test(t) ? "" : t;
}

export interface UserWords {
  /** The block to send (after the summary). */
  text: string;
  /** Messages it holds, and how many others did not fit. */
  messages: number;
  dropped: number;
  tokens: number;
}

/**
 * The block of earlier user messages for a compacted request: user messages
 * of `history` (the stored branch) that are not in `sent`, chosen by
 * `pickUserWords` within `budget` tokens, in their order. Undefined when
 * there are none.
 */
export function keptUserWords(history: MessageWithParts[], sent: MessageWithParts[], count: (text: string) => number, budget: number = USER_WORDS_MAX): UserWords | undefined {
  const inSent = new Set(sent.map((m) => m.info.id));
  const older: string[] = [];
  for (const m of history) {
    if (m.info.role !== "user" || inSent.has(m.info.id)) continue;
    const text = wordsOf(userText(m));
    if (text) older.push(text);
  }
  if (older.length === 0) return undefined;
  const sizes = older.map(count);
  const pick = pickUserWords(sizes, budget);
  if (pick.kept.length === 0) return undefined;
  const kept = pick.kept.map((i) => {
    const text = older[i] as string;
    if (!pick.cut.has(i)) return text;
    return `${text.slice(0, Math.floor((text.length * pick.cap) / (sizes[i] as number)))}\n[… cut]`;
  });
  const text = [userWordsHead(pick.dropped), ...kept.map((t, i) => `[${i + 1}] ${t}`)].join("\n\n");
  return { text, messages: kept.length, dropped: pick.dropped, tokens: count(text) };
}
