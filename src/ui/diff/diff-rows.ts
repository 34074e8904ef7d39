import { hunkHeader } from "../../core/tools/hunk-header";
import { diffWordsWithSpace, parsePatch, type StructuredPatchHunk, structuredPatch } from "diff";

/**
 * A diff as rows to render: hunks of context/added/removed lines with their
 * line numbers, and for each removed line paired with an added one the words
 * that changed. Built from two texts (snapshots) or from a unified patch (the
 * edit tools' `metadata.diff`); file headers (`Index:`, `===`, `---`/`+++`)
 * never become rows.
 */

/** A piece of a changed line; `changed` marks the words that differ from its pair. */
export interface Segment {
  text: string;
  changed: boolean;
}

export interface DiffRow {
  kind: "context" | "add" | "del";
  /** Line number in the old file (context and removed lines). */
  old?: number;
  /** Line number in the new file (context and added lines). */
  new?: number;
  text: string;
  /** Set on a removed/added line paired with its counterpart. */
  segments?: Segment[];
}

export interface DiffHunk {
  /** `@@ -a,b +c,d @@` (shown as a separator, with the lines it spans). */
  header: string;
  rows: DiffRow[];
}

export interface FileDiffRows {
  hunks: DiffHunk[];
  additions: number;
  deletions: number;
}

/** Lines longer than this are not diffed word by word (cost grows with the square). */
const WORD_DIFF_MAX = 2_000;

function wordSegments(before: string, after: string): { old: Segment[]; new: Segment[] } | undefined {
  if (before.length > WORD_DIFF_MAX || after.length > WORD_DIFF_MAX) return undefined;
  const parts = diffWordsWithSpace(before, after);
  const common = parts.filter((p) => !p.added && !p.removed).reduce((n, p) => n + p.value.length, 0);
  // Lines that share next to nothing read better as a whole removal and addition.
  if (common < Math.min(before.length, after.length) * 0.3) return undefined;
  return {
    old: parts.filter((p) => !p.added).map((p) => ({ text: p.value, changed: p.removed })),
    new: parts.filter((p) => !p.removed).map((p) => ({ text: p.value, changed: p.added })),
  };
}

/** Pairs each run of removed lines with the added lines after it (i-th with i-th) and marks their changed words. */
function pairWords(rows: DiffRow[]): void {
  let i = 0;
  while (i < rows.length) {
    if (rows[i]?.kind !== "del") {
      i++;
      continue;
    }
    const delStart = i;
    while (rows[i]?.kind === "del") i++;
    const addStart = i;
    while (rows[i]?.kind === "add") i++;
    const pairs = Math.min(addStart - delStart, i - addStart);
    for (let k = 0; k < pairs; k++) {
      const d = rows[delStart + k];
      const a = rows[addStart + k];
      if (!d || !a) continue;
      const w = wordSegments(d.text, a.text);
      if (!w) continue;
      d.segments = w.old;
      a.segments = w.new;
    }
  }
}

function hunkRows(h: StructuredPatchHunk): DiffHunk {
  const rows: DiffRow[] = [];
  let oldNo = h.oldStart;
  let newNo = h.newStart;
  for (const line of h.lines) {
    const mark = line[0];
    const text = line.slice(1);
    if (mark === "+") rows.push({ kind: "add", new: newNo++, text });
    else if (mark === "-") rows.push({ kind: "del", old: oldNo++, text });
    else if (mark === " ") rows.push({ kind: "context", old: oldNo++, new: newNo++, text });
    // "\ No newline at end of file" is not a line of either file.
  }
  pairWords(rows);
  return { header: hunkHeader(h), rows };
}

function fromHunks(hunks: StructuredPatchHunk[]): FileDiffRows {
  const out = hunks.filter((h) => Number.isFinite(h.oldStart) && Number.isFinite(h.newStart)).map(hunkRows).filter((h) => h.rows.length > 0);
  let additions = 0;
  let deletions = 0;
  for (const h of out)
    for (const r of h.rows) {
      if (r.kind === "add") additions++;
      else if (r.kind === "del") deletions++;
    }
  return { hunks: out, additions, deletions };
}

const eol = (s: string) => s.replace(/\r\n/g, "\n");

/** The diff between two versions of a file (`undefined` = the file did not exist). */
export function diffTexts(before: string | undefined, after: string | undefined, context = 3): FileDiffRows {
  const p = structuredPatch("a", "b", eol(before ?? ""), eol(after ?? ""), undefined, undefined, { context });
  return fromHunks(p.hunks);
}

/** The rows of a unified patch of one file (headers dropped); an unreadable patch gives no hunks. */
export function diffFromPatch(patch: string): FileDiffRows {
  try {
    return fromHunks(parsePatch(patch).flatMap((f) => f.hunks));
  } catch {
    return { hunks: [], additions: 0, deletions: 0 };
  }
}

/** Several patches of one file, one after the other (each hunk keeps its own header and line numbers). */
export function diffFromPatches(patches: string[]): FileDiffRows {
  const all = patches.map(diffFromPatch);
  return {
    hunks: all.flatMap((d) => d.hunks),
    additions: all.reduce((n, d) => n + d.additions, 0),
    deletions: all.reduce((n, d) => n + d.deletions, 0),
  };
}

/** One row of the side-by-side view: the old line on the left, the new one on the right. */
export interface SplitRow {
  left?: DiffRow;
  right?: DiffRow;
}

/** Side-by-side rows: context on both sides; a run of removals beside the additions that follow it. */
export function splitRows(rows: DiffRow[]): SplitRow[] {
  const out: SplitRow[] = [];
  let i = 0;
  while (i < rows.length) {
    const r = rows[i];
    if (!r) break;
    if (r.kind === "context") {
      out.push({ left: r, right: r });
      i++;
      continue;
    }
    const dels: DiffRow[] = [];
    const adds: DiffRow[] = [];
    while (rows[i]?.kind === "del") dels.push(rows[i++] as DiffRow);
    while (rows[i]?.kind === "add") adds.push(rows[i++] as DiffRow);
    for (let k = 0; k < Math.max(dels.length, adds.length); k++) out.push({ left: dels[k], right: adds[k] });
  }
  return out;
}
