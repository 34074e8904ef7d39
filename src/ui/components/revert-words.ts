/** Said when the files could not go back with the messages. */
const FILES_KEPT = ". The files were left as they are: their earlier versions are not in this browser (the session came from an export or a share).";

/** The revert banner's sentence: what was reverted, what came with it, and where the files stand. */
export function revertWords(turns: number, summaries: number, revert: { snapshot?: string; filesKept?: boolean } | undefined, answers = 0): string {
  // "undo" on a compaction divider reverts the summary alone: no message of the person's went.
  if (turns === 0) {
    const undone = `${summaries > 1 ? `The last ${summaries} summaries were undone` : "The summary was undone"}${answers > 0 ? ", with what the model did after it" : ""}`;
    return `${undone}: the model sees the conversation it replaced again${revert?.filesKept ? FILES_KEPT : "."}`;
  }
  const what = turns === 1 ? "Your last message and its answer were reverted" : `Your last ${turns} messages and their answers were reverted`;
  const them = turns === 1 ? "it" : "them";
  const summary = summaries === 0 ? "" : summaries === 1 ? `, with the summary written after ${them}` : `, with the ${summaries} summaries written after ${them}`;
  const files = revert?.filesKept ? FILES_KEPT : revert?.snapshot ? ", and the files restored." : ".";
  return `${what}${summary}${files}`;
}
