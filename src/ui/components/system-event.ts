import type { MessageWithParts } from "../../core/schema";

/** What a user-role message the user never typed stands for. */
export type SystemEventKind = "compaction" | "continue" | "goal" | "goal-continue" | "synthetic";

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
  return visible.some((p) => p.type === "text" && p.metadata?.compaction_continue === true) ? "continue" : "synthetic";
}

/**
 * For each compaction request, how many messages it folded into its summary: the messages since the
 * previous compaction request that the model no longer sees.
 */
export function compactedCounts(messages: MessageWithParts[], sent: ReadonlySet<string>): Map<string, number> {
  const out = new Map<string, number>();
  let n = 0;
  for (const m of messages) {
    if (systemEventKind(m) === "compaction") {
      out.set(m.info.id, n);
      n = 0;
    } else if (!sent.has(m.info.id)) n++;
  }
  return out;
}
