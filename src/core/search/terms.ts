import type { Part } from "../schema";

/** Words shorter than this are not indexed (and not searchable on their own). */
export const MIN_WORD = 2;
const MAX_WORD = 40;
/** At most this many distinct words are indexed per part (long outputs are sampled from the start). */
export const MAX_WORDS_PER_PART = 3000;
const WORD_RE = /[\p{L}\p{N}_]+/gu;

/** Lower-cased distinct words of a text, in first-seen order. */
export function words(text: string, limit = MAX_WORDS_PER_PART): string[] {
  const out = new Set<string>();
  for (const m of text.toLowerCase().matchAll(WORD_RE)) {
    const w = m[0];
    if (w.length < MIN_WORD) continue;
    out.add(w.length > MAX_WORD ? w.slice(0, MAX_WORD) : w);
    if (out.size >= limit) break;
  }
  return [...out];
}

/** The searchable text of a part: what a person would look for (text, tool inputs and outputs). */
export function searchableText(part: Part): string {
  switch (part.type) {
    case "text":
      return part.text;
    case "tool": {
      const s = part.state;
      const input = readableInput(s.input);
      if (s.status === "completed") return `${part.tool} ${s.title} ${input} ${s.output}`;
      if (s.status === "error") return `${part.tool} ${input} ${s.error}`;
      return `${part.tool} ${input}`;
    }
    case "file":
      return part.filename ?? "";
    case "subtask":
      return `${part.description} ${part.prompt}`;
    default:
      return "";
  }
}

/**
 * A tool's input as a person reads it: `key: value`, strings as they are (JSON would show `\n` and quotes, and
 * index the letter after an escape as part of the next word: "\nexport" gave "nexport").
 */
export function readableInput(input: unknown): string {
  if (input === null || typeof input !== "object" || Array.isArray(input)) return typeof input === "string" ? input : JSON.stringify(input) ?? "";
  return Object.entries(input)
    .map(([k, v]) => `${k}: ${typeof v === "string" ? v : JSON.stringify(v)}`)
    .join(" · ");
}

export function partWords(part: Part): string[] {
  return words(searchableText(part));
}

/** Whether every query word is a prefix of some indexed word. */
export function matchesAll(indexed: readonly string[], query: readonly string[]): boolean {
  return query.every((q) => indexed.some((w) => w.startsWith(q)));
}

/** Where the first query word is found in `text` (lower-case query words), or -1. */
export function firstMatch(text: string, query: readonly string[]): number {
  const lower = text.toLowerCase();
  let at = -1;
  for (const q of query) {
    const i = lower.indexOf(q);
    if (i >= 0 && (at < 0 || i < at)) at = i;
  }
  return at;
}

/** A short excerpt around the first query word found (plain text; the UI escapes it). */
export function snippet(text: string, query: readonly string[], width = 140): string {
  const at = firstMatch(text, query);
  const start = Math.max(0, at - Math.floor(width / 3));
  const cut = text.slice(start, start + width).replace(/\s+/g, " ").trim();
  return `${start > 0 ? "…" : ""}${cut}${start + width < text.length ? "…" : ""}`;
}
