import { utf8Length } from "../util/utf8";
import { MAX_IMPORT_BYTES, MAX_IMPORT_DEPTH } from "./types";

function mb(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** Rejects text over the import size limit, before any parsing. */
export function checkSize(text: string, limit = MAX_IMPORT_BYTES): string | undefined {
  if (text.length > limit) return `The file is too large: more than ${mb(limit)} (the import limit).`;
  if (text.length * 3 <= limit) return undefined;
  const bytes = utf8Length(text, limit);
  return bytes > limit ? `The file is too large: more than ${mb(limit)} (the import limit).` : undefined;
}

/**
 * Rejects JSON text nested deeper than `limit` objects/arrays, by scanning the
 * text (no recursion, no parsing), so hostile nesting never reaches a parser.
 */
export function checkDepth(text: string, limit = MAX_IMPORT_DEPTH): string | undefined {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
      continue;
    }
    if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      depth++;
      if (depth > limit) return `The file is nested too deeply: more than ${limit} levels of objects and arrays.`;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return undefined;
}

/** Parses JSON, turning a syntax error into words. */
export function parseJson(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (e) {
    // The parser's own words differ per engine; say where, in ours.
    const at = e instanceof Error ? /position (\d+)/.exec(e.message)?.[1] : undefined;
    const where = at === undefined ? "" : ` near character ${Number(at).toLocaleString("en")}`;
    return { ok: false, error: `The file is not valid JSON: it has a syntax error${where} or breaks off before its end.` };
  }
}

/** All three guards, then the parse. */
export function guardedParse(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  const problem = checkSize(text) ?? checkDepth(text);
  if (problem) return { ok: false, error: problem };
  if (text.trim() === "") return { ok: false, error: "The file is empty." };
  return parseJson(text);
}
