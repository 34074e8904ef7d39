/**
 * The edit tool's matching cascade. Models often quote code with slightly
 * wrong indentation, whitespace or escapes; each replacer proposes substrings
 * of the file that the quoted `oldString` plausibly means, from strictest to
 * loosest. `replace` takes the first candidate that occurs exactly once.
 */
import { escapeRegex } from "../util/safe-regex";

/** Proposes candidate substrings of `content` that `find` may refer to. */
export type Replacer = (content: string, find: string) => Generator<string, void, unknown>;

/** Similarity an anchored block needs when it is the only candidate / one of several. */
export const SINGLE_CANDIDATE_THRESHOLD = 0.0;
export const MULTIPLE_CANDIDATES_THRESHOLD = 0.3;

export const NOT_FOUND_ERROR =
  "Could not find oldString in the file. It must match exactly, including whitespace, indentation, and line endings. Read the file again and copy the exact text.";
export const MULTIPLE_MATCHES_ERROR =
  "Found multiple matches for oldString. Provide more surrounding lines in oldString to identify the correct match, or set replaceAll to change every occurrence.";

interface Lines {
  lines: string[];
  starts: number[];
}

function indexLines(content: string): Lines {
  const lines = content.split("\n");
  const starts: number[] = [];
  let pos = 0;
  for (const l of lines) {
    starts.push(pos);
    pos += l.length + 1;
  }
  return { lines, starts };
}

/** The search text as lines, without the empty line a trailing newline leaves. */
function searchLines(find: string): string[] {
  const ls = find.split("\n");
  if (ls.length > 1 && ls[ls.length - 1] === "") ls.pop();
  return ls;
}

function at(ls: string[], i: number): string {
  return ls[i] ?? "";
}

/** Text of lines i..j (inclusive); with the following newline when `find` ends with one. */
function block(content: string, idx: Lines, i: number, j: number, find: string): string {
  const start = idx.starts[i] ?? 0;
  let end = (idx.starts[j] ?? 0) + at(idx.lines, j).length;
  if (find.endsWith("\n") && content[end] === "\n") end++;
  return content.slice(start, end);
}

/** Yields every window of `size` consecutive lines for which `same(window)` holds. */
function* windows(content: string, find: string, size: number, same: (window: string[]) => boolean): Generator<string> {
  const idx = indexLines(content);
  if (size < 1) return;
  for (let i = 0; i + size <= idx.lines.length; i++) {
    if (same(idx.lines.slice(i, i + size))) yield block(content, idx, i, i + size - 1, find);
  }
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
  const search = searchLines(find).map((l) => l.trim());
  yield* windows(content, find, search.length, (w) => w.every((l, k) => l.trim() === search[k]));
};

/** Candidate blocks: first line equals `first`, the nearest later line (at least 2 below) equals `last`. */
function anchored(lines: string[], first: string, last: string): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (let i = 0; i < lines.length; i++) {
    if (at(lines, i).trim() !== first) continue;
    for (let j = i + 2; j < lines.length; j++) {
      if (at(lines, j).trim() === last) {
        out.push([i, j]);
        break;
      }
    }
  }
  return out;
}

export const BlockAnchorReplacer: Replacer = function* (content, find) {
  const search = searchLines(find);
  if (search.length < 3) return;
  const idx = indexLines(content);
  const candidates = anchored(idx.lines, at(search, 0).trim(), at(search, search.length - 1).trim());
  if (!candidates.length) return;
  const score = ([i, j]: [number, number]): number => {
    const middle = Math.min(search.length, j - i + 1) - 2;
    if (middle <= 0) return 1;
    let sum = 0;
    for (let k = 1; k <= middle; k++) sum += similarity(at(idx.lines, i + k).trim(), at(search, k).trim());
    return sum / middle;
  };
  let best: [number, number] | undefined;
  let bestScore = -1;
  for (const c of candidates) {
    const s = score(c);
    if (s > bestScore) {
      best = c;
      bestScore = s;
    }
  }
  const threshold = candidates.length === 1 ? SINGLE_CANDIDATE_THRESHOLD : MULTIPLE_CANDIDATES_THRESHOLD;
  if (best && bestScore >= threshold) yield block(content, idx, best[0], best[1], find);
};

const collapse = (s: string) => s.replace(/\s+/g, " ").trim();

export const WhitespaceNormalizedReplacer: Replacer = function* (content, find) {
  const target = collapse(find);
  if (!target) return;
  const search = searchLines(find);
  if (search.length === 1) {
    const words = new RegExp(find.trim().split(/\s+/).map(escapeRegex).join("\\s+"));
    for (const line of content.split("\n")) {
      if (collapse(line) === target) yield line;
      else if (collapse(line).includes(target)) {
        const m = words.exec(line);
        if (m) yield m[0];
      }
    }
    return;
  }
  yield* windows(content, find, search.length, (w) => collapse(w.join("\n")) === target);
};

function dedent(lines: string[]): string {
  const widths = lines.filter((l) => l.trim()).map((l) => (/^[ \t]*/.exec(l)?.[0] ?? "").length);
  const min = widths.length ? Math.min(...widths) : 0;
  return lines.map((l) => (l.trim() ? l.slice(min) : "")).join("\n");
}

export const IndentationFlexibleReplacer: Replacer = function* (content, find) {
  const search = searchLines(find);
  const target = dedent(search);
  yield* windows(content, find, search.length, (w) => dedent(w) === target);
};

const ESCAPES: Record<string, string> = { n: "\n", t: "\t", r: "\r", "'": "'", '"': '"', "`": "`", "\\": "\\", "\n": "\n", $: "$" };

function unescapeText(s: string): string {
  return s.replace(/\\(n|t|r|'|"|`|\\|\n|\$)/g, (_m, c: string) => ESCAPES[c] ?? c);
}

export const EscapeNormalizedReplacer: Replacer = function* (content, find) {
  const plain = unescapeText(find);
  if (plain !== find && content.includes(plain)) yield plain;
  const size = searchLines(plain).length;
  yield* windows(content, find, size, (w) => unescapeText(w.join("\n")) === plain);
};

export const TrimmedBoundaryReplacer: Replacer = function* (content, find) {
  const trimmed = find.trim();
  if (trimmed === find || !trimmed) return;
  if (content.includes(trimmed)) yield trimmed;
  yield* windows(content, trimmed, trimmed.split("\n").length, (w) => w.join("\n").trim() === trimmed);
};

export const ContextAwareReplacer: Replacer = function* (content, find) {
  const search = searchLines(find);
  if (search.length < 3) return;
  const idx = indexLines(content);
  for (const [i, j] of anchored(idx.lines, at(search, 0).trim(), at(search, search.length - 1).trim())) {
    if (j - i + 1 !== search.length) continue;
    let total = 0;
    let same = 0;
    for (let k = 1; k < search.length - 1; k++) {
      const want = at(search, k).trim();
      if (!want) continue;
      total++;
      if (at(idx.lines, i + k).trim() === want) same++;
    }
    if (total === 0 || same / total >= 0.5) {
      yield block(content, idx, i, j, find);
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

export type ReplaceResult = { ok: true; content: string } | { ok: false; error: string };

/**
 * Replaces `oldString` by `newString` in `content`: every occurrence of the
 * first candidate found with `replaceAll`, otherwise the first candidate that
 * occurs exactly once.
 */
export function replace(content: string, oldString: string, newString: string, replaceAll = false): ReplaceResult {
  if (oldString === newString) return { ok: false, error: "No changes to apply: oldString and newString are identical." };
  let found = false;
  for (const replacer of REPLACERS) {
    for (const candidate of replacer(content, oldString)) {
      if (!candidate) continue;
      const first = content.indexOf(candidate);
      if (first === -1) continue;
      found = true;
      if (replaceAll) return { ok: true, content: content.split(candidate).join(newString) };
      if (content.lastIndexOf(candidate) !== first) continue;
      return { ok: true, content: content.slice(0, first) + newString + content.slice(first + candidate.length) };
    }
  }
  return { ok: false, error: found ? MULTIPLE_MATCHES_ERROR : NOT_FOUND_ERROR };
}
