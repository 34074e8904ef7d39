/**
 * The edit tool's matching cascade. Models often quote code with slightly
 * wrong indentation, whitespace or escapes; each replacer proposes substrings
 * of the file that the quoted `oldString` plausibly means, from strictest to
 * loosest. `replace` stops at the first stage that matches: one match is
 * replaced, several are an error ("multiple matches") — a looser stage never
 * gets to pick one of them. Loose block-anchor matches and matches far larger
 * than `oldString` are refused.
 *
 * Cost: every stage works from one line index of the file (built once per
 * content), and window checks start only at lines whose first line already
 * agrees, so a failed edit on a large file is close to linear in its size.
 */
import type { ReplaceTextResult } from "../ports/sandbox";
import { escapeRegex } from "../util/safe-regex";

/** Proposes candidate substrings of `content` that `find` may refer to. */
export type Replacer = (content: string, find: string) => Generator<string, void, unknown>;

/** Mean similarity of the middle lines an anchored block needs (OpenCode 1.x accepted any single candidate). */
export const BLOCK_ANCHOR_THRESHOLD = 0.6;

export const NOT_FOUND_ERROR =
  "Could not find oldString in the file. It must match exactly, including whitespace, indentation, and line endings. Read the file again and copy the exact text.";
export const MULTIPLE_MATCHES_ERROR =
  "Found multiple matches for oldString. Provide more surrounding lines in oldString to identify the correct match, or set replaceAll to change every occurrence.";

/** The multiple-matches error with how many there are and the lines they start on (the model can quote the right one). */
export function multipleMatchesError(content: string, starts: readonly number[]): string {
  // One pass over the file up to the 8th match (thousands of matches in a large file must stay cheap).
  const first = [...starts].sort((a, b) => a - b).slice(0, 8);
  const lines: number[] = [];
  let line = 1;
  let from = 0;
  for (const at of first) {
    for (let i = content.indexOf("\n", from); i !== -1 && i < at; i = content.indexOf("\n", i + 1)) line++;
    from = at;
    lines.push(line);
  }
  const shown = lines.join(", ") + (starts.length > 8 ? ", …" : "");
  return MULTIPLE_MATCHES_ERROR.replace("Found multiple matches for oldString.", `Found ${starts.length} matches for oldString (starting on lines ${shown}).`);
}
export const DISPROPORTIONATE_ERROR =
  "The only close match for oldString spans far more of the file than oldString itself, so it was not replaced. Read the file again and quote the exact text to change.";

interface Index {
  content: string;
  lines: string[];
  starts: number[];
  trimmed: string[];
  /** Trimmed line text → line numbers (ascending). */
  byTrimmed: Map<string, number[]>;
  collapsed?: string[];
}

let cached: Index | undefined;

/** The line index of `content`, built once for every stage of one edit. */
function indexOf(content: string): Index {
  if (cached && cached.content === content) return cached;
  const lines = content.split("\n");
  const starts: number[] = [];
  const trimmed: string[] = [];
  const byTrimmed = new Map<string, number[]>();
  let pos = 0;
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i] ?? "";
    starts.push(pos);
    pos += l.length + 1;
    const t = l.trim();
    trimmed.push(t);
    const list = byTrimmed.get(t);
    if (list) list.push(i);
    else byTrimmed.set(t, [i]);
  }
  cached = { content, lines, starts, trimmed, byTrimmed };
  return cached;
}

const collapse = (s: string) => s.replace(/\s+/g, " ").trim();

function collapsedLines(idx: Index): string[] {
  idx.collapsed ??= idx.lines.map(collapse);
  return idx.collapsed;
}

/** The search text as lines, without the empty line a trailing newline leaves. */
function searchLines(find: string): string[] {
  const ls = find.split("\n");
  if (ls.length > 1 && ls[ls.length - 1] === "") ls.pop();
  return ls;
}

function at(ls: readonly string[], i: number): string {
  return ls[i] ?? "";
}

/** Text of lines i..j (inclusive); with the following newline when `find` ends with one. */
function block(idx: Index, i: number, j: number, find: string): string {
  const start = idx.starts[i] ?? 0;
  let end = (idx.starts[j] ?? 0) + at(idx.lines, j).length;
  if (find.endsWith("\n") && idx.content[end] === "\n") end++;
  return idx.content.slice(start, end);
}

/** Yields the `size`-line windows starting at `starts` for which `same(i)` holds. */
function* windowsAt(idx: Index, find: string, size: number, starts: Iterable<number>, same: (i: number) => boolean): Generator<string> {
  if (size < 1) return;
  for (const i of starts) {
    if (i + size <= idx.lines.length && same(i)) yield block(idx, i, i + size - 1, find);
  }
}

function* range(n: number): Generator<number> {
  for (let i = 0; i < n; i++) yield i;
}

export function levenshtein(a: string, b: string): number {
  if (a === b) return 0;
  if (!a.length) return b.length;
  if (!b.length) return a.length;
  let prev = Array.from({ length: b.length + 1 }, (_, k) => k);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      cur.push(Math.min((prev[j] ?? 0) + 1, (cur[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + cost));
    }
    prev = cur;
  }
  return prev[b.length] ?? 0;
}

function similarity(a: string, b: string): number {
  const max = Math.max(a.length, b.length);
  return max === 0 ? 1 : 1 - levenshtein(a, b) / max;
}

export const SimpleReplacer: Replacer = function* (_content, find) {
  yield find;
};

export const LineTrimmedReplacer: Replacer = function* (content, find) {
  const idx = indexOf(content);
  const search = searchLines(find).map((l) => l.trim());
  const starts = idx.byTrimmed.get(at(search, 0)) ?? [];
  yield* windowsAt(idx, find, search.length, starts, (i) => search.every((s, k) => idx.trimmed[i + k] === s));
};

/** Sorted `list` entries in [lo, hi]. */
function* between(list: readonly number[], lo: number, hi: number): Generator<number> {
  let a = 0;
  let b = list.length;
  while (a < b) {
    const mid = (a + b) >> 1;
    if ((list[mid] ?? 0) < lo) a = mid + 1;
    else b = mid;
  }
  for (let k = a; k < list.length && (list[k] ?? 0) <= hi; k++) yield list[k] ?? 0;
}

/**
 * Anchored blocks: the first line equals the first search line, a later line
 * (at least 2 below) equals the last, and the block has about as many lines
 * as the search (± a quarter, at least 1), so anchors cannot swallow a larger block.
 */
export const BlockAnchorReplacer: Replacer = function* (content, find) {
  const search = searchLines(find);
  if (search.length < 3) return;
  const idx = indexOf(content);
  const firsts = idx.byTrimmed.get(at(search, 0).trim()) ?? [];
  const lasts = idx.byTrimmed.get(at(search, search.length - 1).trim()) ?? [];
  const slack = Math.max(1, Math.floor(search.length / 4));
  const scored: Array<{ i: number; j: number; score: number }> = [];
  for (const i of firsts) {
    for (const j of between(lasts, Math.max(i + 2, i + search.length - 1 - slack), i + search.length - 1 + slack)) {
      const middle = Math.min(search.length, j - i + 1) - 2;
      let sum = 0;
      for (let k = 1; k <= middle; k++) sum += similarity(at(idx.trimmed, i + k), at(search, k).trim());
      const score = middle > 0 ? sum / middle : 1;
      if (score >= BLOCK_ANCHOR_THRESHOLD) scored.push({ i, j, score });
    }
  }
  scored.sort((a, b) => b.score - a.score);
  for (const c of scored) yield block(idx, c.i, c.j, find);
};

export const WhitespaceNormalizedReplacer: Replacer = function* (content, find) {
  const target = collapse(find);
  if (!target) return;
  const idx = indexOf(content);
  const collapsed = collapsedLines(idx);
  const search = searchLines(find);
  if (search.length === 1) {
    const words = new RegExp(find.trim().split(/\s+/).map(escapeRegex).join("\\s+"));
    for (let i = 0; i < idx.lines.length; i++) {
      const c = at(collapsed, i);
      if (c === target) yield at(idx.lines, i);
      else if (c.includes(target)) {
        const m = words.exec(at(idx.lines, i));
        if (m) yield m[0];
      }
    }
    return;
  }
  const want = search.map(collapse);
  yield* windowsAt(idx, find, search.length, range(idx.lines.length), (i) => want.every((w, k) => collapsed[i + k] === w));
};

function dedent(lines: readonly string[]): string {
  const widths = lines.filter((l) => l.trim()).map((l) => (/^[ \t]*/.exec(l)?.[0] ?? "").length);
  const min = widths.length ? Math.min(...widths) : 0;
  return lines.map((l) => (l.trim() ? l.slice(min) : "")).join("\n");
}

export const IndentationFlexibleReplacer: Replacer = function* (content, find) {
  const idx = indexOf(content);
  const search = searchLines(find);
  const target = dedent(search);
  const trimmed = search.map((l) => l.trim());
  const starts = idx.byTrimmed.get(at(trimmed, 0)) ?? [];
  yield* windowsAt(
    idx,
    find,
    search.length,
    starts,
    (i) => trimmed.every((t, k) => idx.trimmed[i + k] === t) && dedent(idx.lines.slice(i, i + search.length)) === target,
  );
};

const ESCAPES: Record<string, string> = { n: "\n", t: "\t", r: "\r", "'": "'", '"': '"', "`": "`", "\\": "\\", "\n": "\n", $: "$" };

function unescapeText(s: string): string {
  return s.replace(/\\(n|t|r|'|"|`|\\|\n|\$)/g, (_m, c: string) => ESCAPES[c] ?? c);
}

export const EscapeNormalizedReplacer: Replacer = function* (content, find) {
  const plain = unescapeText(find);
  if (plain !== find && content.includes(plain)) yield plain;
  if (!content.includes("\\")) return;
  const idx = indexOf(content);
  const want = searchLines(plain);
  yield* windowsAt(idx, find, want.length, range(idx.lines.length), (i) =>
    want.every((w, k) => {
      const line = at(idx.lines, i + k);
      return line === w || (line.includes("\\") && unescapeText(line) === w);
    }),
  );
};

export const TrimmedBoundaryReplacer: Replacer = function* (content, find) {
  const trimmed = find.trim();
  if (trimmed === find || !trimmed) return;
  if (content.includes(trimmed)) yield trimmed;
  const idx = indexOf(content);
  const want = trimmed.split("\n");
  const last = want.length - 1;
  const starts = want.length === 1 ? (idx.byTrimmed.get(trimmed) ?? []) : range(idx.lines.length);
  yield* windowsAt(idx, trimmed, want.length, starts, (i) =>
    want.every((w, k) => {
      const line = at(idx.lines, i + k);
      if (last === 0) return line.trim() === w;
      if (k === 0) return line.trimStart() === w;
      return k === last ? line.trimEnd() === w : line === w;
    }),
  );
};

export const ContextAwareReplacer: Replacer = function* (content, find) {
  const search = searchLines(find);
  if (search.length < 3) return;
  const idx = indexOf(content);
  const last = at(search, search.length - 1).trim();
  for (const i of idx.byTrimmed.get(at(search, 0).trim()) ?? []) {
    const j = i + search.length - 1;
    if (j >= idx.lines.length || idx.trimmed[j] !== last) continue;
    let total = 0;
    let same = 0;
    for (let k = 1; k < search.length - 1; k++) {
      const want = at(search, k).trim();
      if (!want) continue;
      total++;
      if (idx.trimmed[i + k] === want) same++;
    }
    if (total === 0 || same / total >= 0.5) {
      yield block(idx, i, j, find);
      return;
    }
  }
};

export const MultiOccurrenceReplacer: Replacer = function* (content, find) {
  if (!find) return;
  for (let i = content.indexOf(find); i !== -1; i = content.indexOf(find, i + find.length)) yield find;
};

/** The cascade, strictest first. */
export const REPLACERS: readonly Replacer[] = [
  SimpleReplacer,
  LineTrimmedReplacer,
  BlockAnchorReplacer,
  WhitespaceNormalizedReplacer,
  IndentationFlexibleReplacer,
  EscapeNormalizedReplacer,
  TrimmedBoundaryReplacer,
  ContextAwareReplacer,
  MultiOccurrenceReplacer,
];

export type ReplaceResult = ReplaceTextResult;

interface Span {
  start: number;
  end: number;
}

/** A matched span much larger than what the model quoted (lines or characters). */
export function isDisproportionate(matched: string, oldString: string): boolean {
  const oldLines = oldString.split("\n").length;
  const lines = matched.split("\n").length;
  if (lines >= Math.max(oldLines + 3, oldLines * 2)) return true;
  const want = oldString.trim().length;
  return matched.trim().length > Math.max(want + 500, want * 4);
}

/** The distinct places a stage's candidates occupy (up to 2: one is enough to know it is ambiguous). */
function stageMatches(content: string, candidates: Iterable<string>): { spans: Span[]; first?: string } {
  const spans: Span[] = [];
  const seen = new Set<string>();
  let first: string | undefined;
  for (const cand of candidates) {
    if (!cand || seen.has(cand)) continue;
    seen.add(cand);
    const at1 = content.indexOf(cand);
    if (at1 === -1) continue;
    first ??= cand;
    // The same text twice is two places; a different text overlapping a known place is that place.
    const at2 = content.indexOf(cand, at1 + 1);
    if (at2 !== -1) return { spans: [{ start: at1, end: at1 + cand.length }, { start: at2, end: at2 + cand.length }], first };
    const span = { start: at1, end: at1 + cand.length };
    if (!spans.some((s) => span.start < s.end && span.end > s.start)) spans.push(span);
    if (spans.length > 1) break;
  }
  return { spans, first };
}

/**
 * Replaces `oldString` by `newString` in `content`. The first stage of the
 * cascade that finds `oldString` decides: with `replaceAll`, every occurrence
 * of its first candidate is replaced; otherwise it must have found exactly one
 * place, of a size close to `oldString`'s.
 */
export function replace(content: string, oldString: string, newString: string, replaceAll = false): ReplaceResult {
  if (oldString === newString) return { ok: false, error: "No changes to apply: oldString and newString are identical." };
  try {
    for (const replacer of REPLACERS) {
      const { spans, first } = stageMatches(content, replacer(content, oldString));
      if (first === undefined) continue;
      if (replaceAll) return { ok: true, content: content.split(first).join(newString) };
      if (spans.length > 1) return { ok: false, error: multipleMatchesError(content, spans.map((sp) => sp.start)) };
      const span = spans[0];
      if (!span) continue;
      const matched = content.slice(span.start, span.end);
      if (replacer !== SimpleReplacer && isDisproportionate(matched, oldString)) return { ok: false, error: DISPROPORTIONATE_ERROR };
      return { ok: true, content: content.slice(0, span.start) + newString + content.slice(span.end) };
    }
    return { ok: false, error: NOT_FOUND_ERROR };
  } finally {
    cached = undefined;
  }
}
