import { isConversationMessage, systemEventKind } from "../conversation/system-event";
import type { MessageWithParts } from "../schema";
import { messageTokens } from "../tokens/part-text";

/** About how long a summary comes out (the template caps it at about 2,000 words; most are far shorter). */
export const SUMMARY_TARGET_TOKENS = 2_000;

/** What a summary would fold: "about to summarise 34 messages (61k tokens) into ~2k". */
export interface CompactionPreview {
  messages: number;
  tokens: number;
  target: number;
  /** The first message kept verbatim after the summary ("Summarise up to here"). */
  tailStartID?: string;
}

/**
 * The first message of the turn after `messageID` in `sent` (the next user
 * message a person sent), so "Summarise up to here" folds whole turns; undefined
 * when `messageID` is in the last turn (everything is summarised).
 */
export function turnAfter(sent: readonly MessageWithParts[], messageID: string): string | undefined {
  const at = sent.findIndex((m) => m.info.id === messageID);
  if (at < 0) return undefined;
  return sent.slice(at + 1).find((m) => m.info.role === "user" && systemEventKind(m) === undefined)?.info.id;
}

/** The preview of summarising `sent` (messages counted as the dividers count them, `foldedCounts`) (what the model is sent now), up to `tailStartID` when given. */
export function compactionPreview(sent: readonly MessageWithParts[], encoding: string, tailStartID?: string): CompactionPreview {
  const end = tailStartID ? sent.findIndex((m) => m.info.id === tailStartID) : -1;
  const head = end > 0 ? sent.slice(0, end) : sent;
  let messages = 0;
  let tokens = 0;
  for (const m of head) {
    tokens += messageTokens(m, encoding).tokens;
    if (isConversationMessage(m)) messages++;
  }
  return { messages, tokens, target: Math.min(SUMMARY_TARGET_TOKENS, Math.max(200, Math.round(tokens / 4))), ...(end > 0 ? { tailStartID } : {}) };
}
