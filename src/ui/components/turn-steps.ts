import { systemEventKind } from "../../core/conversation/system-event";
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
  return { continued: continuesAnswer(m, messages[i - 1]), last: m.info.role === "assistant" && !answerGoesOn(messages, i) };
}

/**
 * Whether the answer goes on after the message at `i`: a later step comes before the next message a person sent,
 * past a summary and tabcode's own messages (a summary in the middle of an answer does not end it).
 */
function answerGoesOn(messages: readonly MessageWithParts[], i: number): boolean {
  return nextStep(messages, i) !== undefined;
}

/** The index of the answer's next step after `i` (see `answerGoesOn`), if there is one. */
function nextStep(messages: readonly MessageWithParts[], i: number): number | undefined {
  for (let j = i + 1; j < messages.length; j++) {
    const n = messages[j];
    if (!n) break;
    if (n.info.role === "assistant") {
      if (!n.info.summary) return j;
    } else if (systemEventKind(n) === undefined) return undefined;
  }
  return undefined;
}

/** The index of the last step of the answer the message at `i` belongs to (Fork from an answer goes through it). */
export function answerEnd(messages: readonly MessageWithParts[], i: number): number {
  let at = i;
  for (let next = nextStep(messages, at); next !== undefined; next = nextStep(messages, at)) at = next;
  return at;
}
