import { originName } from "../../core/conversation/compaction-origin";
import type { CompactionCheck } from "../../core/schema";

/**
 * The compaction divider's words: "Compacted automatically: 12 messages → summary" for tabcode's own,
 * "Compacted in Claude Code: 40 messages → summary" for one an imported history brought (`origin`), with
 * what that means in `detail`.
 */
export function compactionWords(o: { auto: boolean; count?: number; origin?: string }): { text: string; detail?: string } {
  const folded = o.count ? `: ${o.count} message${o.count === 1 ? "" : "s"}` : "";
  if (o.origin === undefined) return { text: `${o.auto ? "Compacted automatically" : "Compacted"}${folded} → summary` };
  const name = originName(o.origin);
  return {
    text: `Compacted in ${name}${folded} → summary`,
    detail: `${name} summarised the conversation before it was imported; the model is sent that summary instead of the messages before it.`,
  };
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
