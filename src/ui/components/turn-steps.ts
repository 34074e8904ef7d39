import type { MessageWithParts } from "../../core/schema";

/** Whether `m` is a further step of the answer `prev` belongs to (it shares that answer's header). */
export function continuesAnswer(m: MessageWithParts, prev: MessageWithParts | undefined): boolean {
  return m.info.role === "assistant" && !m.info.summary && prev?.info.role === "assistant" && !prev.info.summary;
}

/**
 * Where the message at `i` stands in its answer: `continued` (a later step, under the first one's header)
 * and `last` (the answer's last step so far: the one place for its Regenerate).
 */
export function stepPlace(messages: readonly MessageWithParts[], i: number): { continued: boolean; last: boolean } {
  const m = messages[i];
  if (!m) return { continued: false, last: false };
  const next = messages[i + 1];
  return { continued: continuesAnswer(m, messages[i - 1]), last: m.info.role === "assistant" && !(next && continuesAnswer(next, m)) };
}
