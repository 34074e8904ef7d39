/**
 * A hunk's `@@` line as unified diffs write it: a side with no lines names the line before it ("-0,0" for a new
 * file), where jsdiff's hunk objects hold the line after (and its `parsePatch` reads it back that way).
 */
export function hunkHeader(h: { oldStart: number; oldLines: number; newStart: number; newLines: number }): string {
  const start = (at: number, lines: number) => (lines === 0 ? at - 1 : at);
  return `@@ -${start(h.oldStart, h.oldLines)},${h.oldLines} +${start(h.newStart, h.newLines)},${h.newLines} @@`;
}
