import type { CompactionCheck, MessageWithParts } from "../../core/schema";

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

/**
 * The post-compaction check as the divider says it: "pins checked 5/5" (pins and touched files, all in
 * the next request once what was missing is re-added), "pins checked 5/5 · 2 re-added", or a note while
 * no request has been made since the summary.
 */
export function checkText(check: CompactionCheck | undefined): { text: string; detail: string; reinjected: number } {
  if (!check) return { text: "pins checked on the next request", detail: "The next request after the summary is checked for every pin and touched file.", reinjected: 0 };
  const total = check.pins + check.files;
  const reinjected = check.reinjectedPins + check.reinjectedFiles;
  const plural = (n: number, w: string) => `${n} ${w}${n === 1 ? "" : "s"}`;
  const detail = [
    `${plural(check.pins, "pin")} and ${plural(check.files, "touched file")} checked in the next request`,
    reinjected ? `${plural(check.reinjectedPins, "pin")} and ${plural(check.reinjectedFiles, "file")} were missing and re-added` : "nothing was missing",
    `${plural(check.userMessages, "earlier message")} of yours sent verbatim${check.droppedUserMessages ? ` (${check.droppedUserMessages} older did not fit)` : ""}`,
  ].join("; ");
  return { text: `pins checked ${total}/${total}${reinjected ? ` · ${reinjected} re-added` : ""}`, detail, reinjected };
}
