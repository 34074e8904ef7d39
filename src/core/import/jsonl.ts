import { guardedParse } from "../export/guards";
import type { ImportIssue } from "./types";

export type Obj = Record<string, unknown>;

export function isObj(v: unknown): v is Obj {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

export function str(v: unknown): string | undefined {
  return typeof v === "string" ? v : undefined;
}

export function num(v: unknown): number {
  return typeof v === "number" && Number.isFinite(v) && v >= 0 ? v : 0;
}

/** Milliseconds from an ISO date string or a number; `fallback` when neither. */
export function timeOf(v: unknown, fallback: number): number {
  if (typeof v === "number" && Number.isFinite(v)) return v;
  if (typeof v === "string") {
    const t = Date.parse(v);
    if (Number.isFinite(t)) return t;
  }
  return fallback;
}

/** One parsed JSON line with its 1-based line number. */
export interface Line {
  n: number;
  value: Obj;
}

/** Parses JSON Lines; a line that is not a JSON object is reported as `path:line` and skipped. */
export function parseLines(path: string, text: string, issues: ImportIssue[]): Line[] {
  const out: Line[] = [];
  for (const _ of parseLineSteps(path, text, issues, out, Number.POSITIVE_INFINITY));
  return out;
}

/**
 * `parseLines` in steps: adds the lines to `out` and, every `step` characters
 * or so, yields how far into `text` it got (a reader in a Worker reports that
 * as progress through a large file).
 */
export function* parseLineSteps(path: string, text: string, issues: ImportIssue[], out: Line[], step: number): Generator<number> {
  let since = 0;
  for (let start = 0, n = 1; start <= text.length; n++) {
    const found = text.indexOf("\n", start);
    const end = found < 0 ? text.length : found;
    const raw = text.slice(start, end).trim();
    start = end + 1;
    if (raw) {
      const parsed = guardedParse(raw);
      if (!parsed.ok) issues.push({ at: `${path}:${n}`, problem: lineProblem(parsed.error) });
      else if (!isObj(parsed.value)) issues.push({ at: `${path}:${n}`, problem: "expected a JSON object on this line" });
      else out.push({ n, value: parsed.value });
    }
    if (end - since >= step) {
      since = end;
      yield end;
    }
  }
}

/** A tool input as an object: JSON text is parsed; anything else is kept under `input`. */
export function inputObject(v: unknown): Obj {
  if (isObj(v)) return v;
  if (typeof v === "string") {
    try {
      const parsed: unknown = JSON.parse(v);
      if (isObj(parsed)) return parsed;
    } catch {
      // not JSON: keep the text
    }
    return { input: v };
  }
  return v === undefined ? {} : { input: v };
}

/** A parse error's words (written about a whole file) said about the line that is broken. */
function lineProblem(error: string): string {
  if (!error.startsWith("The file is not valid JSON")) return `${error.replace(/^The file/, "This line")} Skipped.`;
  const where = /near character [\d,]+/.exec(error)?.[0];
  return `this line is not valid JSON${where ? ` (${where})` : ""}: skipped`;
}
