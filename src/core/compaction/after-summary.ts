import type { LLMMessage } from "../ports/llm";
import type { MessageWithParts } from "../schema";

/** Whether the request being built starts with a summary (`sent` from `conversationView`): its request, then the summary. */
export function summaryInForce(sent: MessageWithParts[]): boolean {
  const s = sent[1];
  return sent[0]?.parts.some((p) => p.type === "compaction") === true && s?.info.role === "assistant" && s.info.summary === true;
}

/**
 * The request's messages with the extra message after a summary (the user's
 * earlier words, anything re-added: core/pins/after-compaction) placed right
 * after the summary, the first assistant message. Chat requests and the
 * `cached-prefix` summary request both place it here, so the summary request
 * repeats the chat request's prefix byte for byte and is served from cache.
 */
export function withAfterSummary(messages: LLMMessage[], text: string | undefined): LLMMessage[] {
  if (!text) return messages;
  const at = messages.findIndex((m) => m.role === "assistant");
  if (at < 0) return messages;
  return [...messages.slice(0, at + 1), { role: "user", content: [{ type: "text", text }] }, ...messages.slice(at + 1)];
}
