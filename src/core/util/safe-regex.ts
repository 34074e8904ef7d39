/**
 * The one place where regexes from the model or the user are built. It
 * bounds the pattern length, refuses obviously catastrophic shapes (nested
 * quantifiers), accepts ripgrep-style leading inline flags such as `(?i)`,
 * and turns syntax errors into readable messages instead of throws.
 */

export const MAX_PATTERN_LENGTH = 1000;
/** Flags a caller may ask for; `g`/`y` are never used (stateful `lastIndex`). */
const ALLOWED_FLAGS = new Set(["i", "m", "s", "u"]);

export type SafeRegexResult = { ok: true; regex: RegExp } | { ok: false; error: string };

// A group that itself contains a quantifier, followed by another quantifier: (a+)+, (\w*)*, (x+){2,}
const NESTED_QUANTIFIER = /\((?:[^()\\]|\\.)*[+*](?:[^()\\]|\\.)*\)(?:[+*]|\{\d+,\d*\})/;

export function safeRegex(pattern: string, flags = ""): SafeRegexResult {
  if (pattern.length === 0) return { ok: false, error: "The regex pattern is empty." };
  if (pattern.length > MAX_PATTERN_LENGTH) {
    return { ok: false, error: `The regex pattern is too long (${pattern.length} characters; the limit is ${MAX_PATTERN_LENGTH}).` };
  }
  let source = pattern;
  const wanted = new Set<string>();
  const inline = /^\(\?([imsu]+)\)/.exec(source);
  if (inline?.[1]) {
    for (const f of inline[1]) wanted.add(f);
    source = source.slice(inline[0].length);
  }
  for (const f of flags) {
    if (!ALLOWED_FLAGS.has(f)) return { ok: false, error: `Unsupported regex flag "${f}" (allowed: i, m, s, u).` };
    wanted.add(f);
  }
  if (NESTED_QUANTIFIER.test(source)) {
    return {
      ok: false,
      error: `The regex "${pattern}" nests quantifiers (like (a+)+), which can take exponential time. Simplify it.`,
    };
  }
  try {
    return { ok: true, regex: new RegExp(source, [...wanted].sort().join("")) };
  } catch (e) {
    const reason = e instanceof Error ? e.message.replace(/^Invalid regular expression: /, "") : String(e);
    return { ok: false, error: `Invalid regex "${pattern}": ${reason}` };
  }
}

/** Escapes text for literal use inside a regex. */
export function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
