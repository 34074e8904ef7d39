import type { MessageWithParts } from "../schema";

/** What a user-role message the user never typed stands for. */
export type SystemEventKind = "compaction" | "continue" | "continue-answer" | "goal" | "goal-continue" | "synthetic";

/**
 * A user-role message the user never typed (a compaction request, the "continue" prompt after an
 * automatic summary, other injected text) is shown as a system event, never as "You".
 */
export function systemEventKind(m: MessageWithParts): SystemEventKind | undefined {
  if (m.info.role !== "user") return undefined;
  // One pass, nothing allocated: every view of a long session asks this of each of its messages.
  let visible = false;
  let allSynthetic = true;
  let goal: unknown;
  let continueAnswer = false;
  let continuePrompt = false;
  for (const p of m.parts) {
    if (p.type === "compaction") return "compaction";
    if (p.type === "text" && p.ignored) continue;
    visible = true;
    if (p.type !== "text" || p.synthetic !== true) {
      allSynthetic = false;
      continue;
    }
    if (goal === undefined && p.metadata?.goal !== undefined) goal = p.metadata.goal;
    if (p.metadata?.continue_answer === true) continueAnswer = true;
    if (p.metadata?.compaction_continue === true) continuePrompt = true;
  }
  if (!visible || !allSynthetic) return undefined;
  if (goal !== undefined) return goal === "start" ? "goal" : "goal-continue";
  if (continueAnswer) return "continue-answer";
  return continuePrompt ? "continue" : "synthetic";
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
