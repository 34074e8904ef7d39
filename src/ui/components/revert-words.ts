/** Said when the files could not go back with the messages. */
const FILES_KEPT = ". The files were left as they are: their earlier versions are not in this browser (the session came from an export or a share).";

/** The revert banner's sentence: what was reverted, what came with it, and where the files stand. */
export function revertWords(
  turns: number,
  summaries: number,
  revert: { snapshot?: string; filesKept?: boolean; undone?: string[]; ownKept?: string[] } | undefined,
  answers = 0,
  fromSummary = false,
): string {
  // "undo" on a compaction divider: the summary, and whatever came after it.
  if (turns === 0 || fromSummary) {
    const after =
      turns > 0
        ? `, with ${turns === 1 ? "your later message and its answer" : `your ${turns} later messages and their answers`}${revert?.snapshot && !revert.filesKept ? " (files included)" : ""}`
        : answers > 0
          ? ", with what the model did after it"
          : "";
    const undone = `${summaries > 1 ? `The last ${summaries} summaries were undone` : "The summary was undone"}${after}`;
    return `${undone}: the model sees the conversation it replaced again${revert?.filesKept ? FILES_KEPT : "."}${ownWords(revert)}`;
  }
  const what = turns === 1 ? "Your last message and its answer were reverted" : `Your last ${turns} messages and their answers were reverted`;
  const them = turns === 1 ? "it" : "them";
  const summary = summaries === 0 ? "" : summaries === 1 ? `, with the summary written after ${them}` : `, with the ${summaries} summaries written after ${them}`;
  const files = revert?.filesKept ? FILES_KEPT : revert?.snapshot ? ", and the files restored." : ".";
  return `${what}${summary}${files}${ownWords(revert)}`;
}

/** The user's own later changes to files the revert put back: undone with them, or kept. */
function ownWords(revert: { undone?: string[]; ownKept?: string[] } | undefined): string {
  const undone = revert?.undone ?? [];
  const kept = revert?.ownKept ?? [];
  const out: string[] = [];
  if (undone.length) out.push(` Your own later changes to ${names(undone)} were undone with ${undone.length === 1 ? "it" : "them"}.`);
  if (kept.length) out.push(` Your own later changes to ${names(kept)} were kept.`);
  return out.join("");
}

/** Up to three file names, then how many more. */
export function names(files: readonly string[]): string {
  const shown = files.slice(0, 3);
  const more = files.length - shown.length;
  if (more > 0) return `${shown.join(", ")} and ${more} more`;
  return shown.length > 1 ? `${shown.slice(0, -1).join(", ")} and ${shown.at(-1)}` : (shown[0] ?? "");
}
