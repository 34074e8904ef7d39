/**
 * What the terminal shows (and keeps in its log) of a long output: the first lines and, mostly, the last ones,
 * which a terminal's user reads first. The whole output stays in memory for the page (the pane offers it as a
 * download); nothing of it is written to the workspace.
 */

export interface Limits {
  headLines: number;
  headChars: number;
  tailLines: number;
  tailChars: number;
}

/** 200 lines from the start and 1,800 from the end, at most ~20,000 characters in all. */
export const SHOWN: Limits = { headLines: 200, headChars: 2_000, tailLines: 1_800, tailChars: 18_000 };
/** A running command's output so far: its end only (it may already have lost its start). */
export const TAIL_ONLY: Limits = { ...SHOWN, headLines: 0, headChars: 0 };

export interface Cut {
  /** The first lines, when the output was cut. */
  head?: string;
  /** The rest: the whole output, or its last lines. */
  tail: string;
  /** What was left out between them. */
  omitted?: { lines: number; chars: number };
}

/** Lines of a text (an empty one is one line, as a terminal shows it). */
export function countLines(text: string): number {
  let n = 1;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) n++;
  return n;
}

/** `text` as shown: whole when it fits the limits, else head + tail on line boundaries (a huge line is cut inside). */
export function cutForScreen(text: string, limits: Limits = SHOWN): Cut {
  const fitsChars = text.length <= limits.headChars + limits.tailChars;
  if (fitsChars && countLines(text) <= limits.headLines + limits.tailLines) return { tail: text };
  // Head: whole lines from the start, within both limits.
  let headEnd = -1;
  let headLines = 0;
  for (let pos = 0; headLines < limits.headLines; ) {
    const nl = text.indexOf("\n", pos);
    const end = nl === -1 ? text.length : nl;
    if (end > limits.headChars) break;
    headEnd = end;
    headLines++;
    if (nl === -1) break;
    pos = nl + 1;
  }
  // Tail: whole lines from the end, within both limits.
  let tailStart = text.length;
  let tailLines = 0;
  for (let pos = text.length; tailLines < limits.tailLines && pos > 0; ) {
    const nl = text.lastIndexOf("\n", pos - 1);
    const start = nl + 1;
    if (text.length - start > limits.tailChars) break;
    tailStart = start;
    tailLines++;
    pos = nl;
    if (nl === -1) break;
  }
  // A last line longer than the limit: its end.
  if (tailLines === 0) {
    tailStart = Math.max(0, text.length - limits.tailChars);
    tailLines = 1;
  }
  const middleStart = headEnd === -1 ? 0 : headEnd + 1;
  if (tailStart <= middleStart) return { tail: text };
  const middle = text.slice(middleStart, tailStart);
  return {
    head: headEnd === -1 ? undefined : text.slice(0, headEnd),
    tail: text.slice(tailStart),
    omitted: { lines: Math.max(0, countLines(text) - headLines - tailLines), chars: middle.length },
  };
}

/** The cut in words, as the log shows it between the head and the tail (`trimmed`: cut later, for room in storage). */
export function omittedWords(o: { lines: number; chars: number; trimmed?: boolean }): string {
  if (o.trimmed) return o.lines > 1 ? `… ${o.lines.toLocaleString("en")} lines trimmed to save storage …` : `… ${o.chars.toLocaleString("en")} characters trimmed to save storage …`;
  return o.lines > 1 ? `… ${o.lines.toLocaleString("en")} lines not shown …` : `… ${o.chars.toLocaleString("en")} characters not shown …`;
}
