import type { MessageWithParts } from "../schema";

/** What a user-role message the user never typed stands for. */
export type SystemEventKind = "compaction" | "continue" | "continue-answer" | "goal" | "goal-continue" | "synthetic";

/**
 * A user-role message the user never typed (a compaction request, the "continue" prompt after an
 * automatic summary, other injected text) is shown as a system event, never as "You".
 */
export function systemEventKind(m: MessageWithParts): SystemEventKind | undefined {
  if (m.info.role !== "user") return undefined;
  const visible = m.parts.filter((p) => !(p.type === "text" && p.ignored));
  if (visible.some((p) => p.type === "compaction")) return "compaction";
  if (visible.length === 0) return undefined;
  const allSynthetic = visible.every((p) => p.type === "text" && p.synthetic === true);
  if (!allSynthetic) return undefined;
  const goal = visible.find((p) => p.type === "text" && p.metadata?.goal !== undefined);
  if (goal?.type === "text") return goal.metadata?.goal === "start" ? "goal" : "goal-continue";
  if (visible.some((p) => p.type === "text" && p.metadata?.continue_answer === true)) return "continue-answer";
  return visible.some((p) => p.type === "text" && p.metadata?.compaction_continue === true) ? "continue" : "synthetic";
}

/** A message of the conversation itself: one a person sent or an answer, not a system event or a summary. */
export function isConversationMessage(m: MessageWithParts): boolean {
  return m.info.role === "assistant" ? !m.info.summary : systemEventKind(m) === undefined;
}

export interface Folded {
  /** For each compaction request: how many messages its summary folded (people's messages and answers). */
  byRequest: Map<string, number>;
  /** All the messages the model no longer sees, counted the same way. */
  total: number;
}

/**
 * What the summaries folded away, counted as the summary preview counts (`compactionPreview`): messages of
 * the conversation (`isConversationMessage`) the model no longer sees, each given to the compaction request
 * that comes after it in reading order (`readingOrder`), so a later summary never changes an earlier count.
 */
export function foldedCounts(reading: readonly MessageWithParts[], sent: ReadonlySet<string>): Folded {
  const byRequest = new Map<string, number>();
  let n = 0;
  let total = 0;
  for (const m of reading) {
    if (systemEventKind(m) === "compaction") {
      byRequest.set(m.info.id, n);
      n = 0;
    } else if (!sent.has(m.info.id) && isConversationMessage(m)) {
      n++;
      total++;
    }
  }
  return { byRequest, total };
}
