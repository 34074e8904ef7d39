import type { CompactionCheck } from "../../core/schema";

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
