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
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]?.trim();
    if (!raw) continue;
    const parsed = guardedParse(raw);
    if (!parsed.ok) issues.push({ at: `${path}:${i + 1}`, problem: lineProblem(parsed.error) });
    else if (!isObj(parsed.value)) issues.push({ at: `${path}:${i + 1}`, problem: "expected a JSON object on this line" });
    else out.push({ n: i + 1, value: parsed.value });
  }
  return out;
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
