/**
 * Splitting streamed markdown into top-level blocks, so that finished blocks are rendered once and only
 * the last (open) block re-renders while text streams in.
 *
 * A boundary is a blank line outside fenced code, followed by a line that starts a new block: not an
 * indented continuation, and not another item of the list the block is. The boundary is only known once
 * that next line has arrived, so a block never changes after it is reported done.
 */
export interface Blocks {
  /** Complete blocks, each with its trailing blank lines removed. */
  done: string[];
  /** The last block: it may still grow. */
  open: string;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const LIST_ITEM = /^ {0,3}([-*+]|\d{1,9}[.)])(\s|$)/;
const BLANK = /^\s*$/;

export function splitBlocks(text: string): Blocks {
  const lines = text.split("\n");
  const done: string[] = [];
  let start = 0; // line index where the current block starts
  let fence: { char: string; len: number } | null = null;
  let blankAt = -1; // first blank line after content, outside fences
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? "";
    if (fence) {
      const m = FENCE.exec(line);
      if (m?.[1] && m[1][0] === fence.char && m[1].length >= fence.len && BLANK.test(line.slice(m[0].length))) fence = null;
      continue;
    }
    if (BLANK.test(line)) {
      if (blankAt < 0 && i > start) blankAt = i;
      continue;
    }
    if (blankAt >= 0) {
      // A non-blank line after blank lines: a new block unless it continues this one.
      const continues = /^[ \t]/.test(line) || (LIST_ITEM.test(lines[start] ?? "") && LIST_ITEM.test(line));
      if (!continues) {
        done.push(lines.slice(start, blankAt).join("\n"));
        start = i;
      }
      blankAt = -1;
    }
    const m = FENCE.exec(line);
    if (m?.[1]) fence = { char: m[1][0] ?? "`", len: m[1].length };
  }
  return { done, open: lines.slice(start).join("\n") };
}
