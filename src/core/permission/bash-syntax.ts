/**
 * Shell syntax pieces shared by the permission parser: the word and command
 * shapes it produces, and small pure scanners (globs, `$'…'` strings,
 * arithmetic expansion detection).
 */

/** One shell word. */
export interface Word {
  /** Source text as written. */
  raw: string;
  /** Value after quote removal; only meaningful when `dynamic` is false. */
  value: string;
  /** Contains an expansion (`$x`, `$(…)`, backticks, `${…}`) known only at run time. */
  dynamic: boolean;
  /** Contains unquoted glob or brace-expansion characters. */
  glob: boolean;
}

/** A redirection: `op` and its target (a file, an fd or a here-doc delimiter). */
export interface Redirect {
  op: string;
  target: Word;
}

/** A simple command as written: its words and redirections, in source order. */
export interface RawCommand {
  words: Word[];
  redirects: Redirect[];
}

export type ParseResult = { ok: true; commands: RawCommand[] } | { ok: false; error: string; commands: RawCommand[] };

/** Unquoted glob (`*`, `?`, `[…]`) or brace expansion (`{a,b}`, `{1..3}`) characters; linear time. */
export function hasGlob(unquoted: string): boolean {
  if (/[*?]/.test(unquoted)) return true;
  const sq = unquoted.indexOf("[");
  if (sq !== -1 && unquoted.indexOf("]", sq + 1) !== -1) return true;
  const br = unquoted.indexOf("{");
  if (br === -1) return false;
  const close = unquoted.lastIndexOf("}");
  const inner = unquoted.slice(br + 1, close);
  return close > br && (inner.includes(",") || inner.includes(".."));
}

/**
 * Whether the `$((` at `pos` is arithmetic: like bash, decided lexically — its
 * parentheses balance and it closes with `))`. Otherwise it is a command
 * substitution that starts with a subshell.
 */
export function isArithmeticAt(src: string, pos: number): boolean {
  if (!src.startsWith("$((", pos)) return false;
  let depth = 0;
  for (let i = pos + 3; i < src.length; i++) {
    const c = src[i];
    if (c === "\\") i++;
    else if (c === "'" || c === '"') return false;
    else if (c === "(") depth++;
    else if (c === ")") {
      if (depth > 0) depth--;
      else return src[i + 1] === ")";
    }
  }
  return false;
}

const SIMPLE_ESCAPES: Readonly<Record<string, string>> = {
  n: "\n", t: "\t", r: "\r", a: "\x07", b: "\b", f: "\f", v: "\v", e: "\x1b", E: "\x1b", "\\": "\\", "'": "'", '"': '"', "?": "?",
};

/**
 * Decodes a `$'…'` string starting at `start` (the `$`). Common escapes are
 * decoded (`\\n`, `\\x72`, `\\162`, `\\u0072`); others make it `dynamic`.
 * Returns the index after the closing quote, or undefined when unbalanced.
 */
export function decodeAnsiC(src: string, start: number): { text: string; dynamic: boolean; end: number } | undefined {
  let pos = start + 2;
  let text = "";
  let dynamic = false;
  while (pos < src.length) {
    const c = src[pos++] ?? "";
    if (c === "'") return { text, dynamic, end: pos };
    if (c !== "\\") {
      text += c;
      continue;
    }
    const n = src[pos++] ?? "";
    const hex = /^x([0-9a-fA-F]{1,2})/.exec(src.slice(pos - 1, pos + 2));
    const oct = /^[0-7]{1,3}/.exec(src.slice(pos - 1, pos + 2));
    const uni = /^(?:u([0-9a-fA-F]{1,4})|U([0-9a-fA-F]{1,8}))/.exec(src.slice(pos - 1, pos + 8));
    const simple = Object.hasOwn(SIMPLE_ESCAPES, n) ? SIMPLE_ESCAPES[n] : undefined;
    if (simple !== undefined) text += simple;
    else if (hex?.[1]) {
      text += String.fromCharCode(Number.parseInt(hex[1], 16));
      pos += hex[1].length;
    } else if (oct) {
      text += String.fromCharCode(Number.parseInt(oct[0], 8) & 0xff);
      pos += oct[0].length - 1;
    } else if (uni) {
      const code = Number.parseInt(uni[1] ?? uni[2] ?? "0", 16);
      text += code <= 0x10ffff ? String.fromCodePoint(code) : "";
      pos += uni[0].length - 1;
    } else dynamic = true;
  }
  return undefined;
}

/**
 * The body of the backtick substitution at `pos`, unescaped as bash does
 * (`\\$`, `` \\` ``, `\\\\`, and `\\"` only inside double quotes), and the index
 * after the closing backtick; undefined when it is not closed.
 */
export function backtickBody(src: string, pos: number, inDouble: boolean): { body: string; end: number } | undefined {
  let body = "";
  for (let i = pos + 1; i < src.length; i++) {
    const c = src[i] ?? "";
    const n = src[i + 1] ?? "";
    if (c === "`") return { body, end: i + 1 };
    if (c === "\\" && ((n !== "" && "$`\\".includes(n)) || (inDouble && n === '"'))) {
      body += n;
      i++;
    } else body += c;
  }
  return undefined;
}

/**
 * A here-document body starting at `pos` (after the newline), up to the line
 * equal to `delim` (leading tabs removed for `<<-`). Inside `$(…)` bash also
 * ends a body at `DELIM)`; treating that as the end everywhere errs on the
 * safe side (the rest is parsed as commands). `end` is where parsing resumes.
 */
export function heredocBody(src: string, pos: number, delim: string, strip: boolean): { body: string; end: number } {
  const lines: string[] = [];
  while (pos < src.length) {
    const nl = src.indexOf("\n", pos);
    const raw = src.slice(pos, nl === -1 ? undefined : nl);
    const line = strip ? raw.replace(/^\t+/, "") : raw;
    if (line.startsWith(`${delim})`)) return { body: `${lines.join("\n")}\n`, end: pos + raw.length - line.length + delim.length };
    pos = nl === -1 ? src.length : nl + 1;
    if (line === delim) break;
    lines.push(raw);
  }
  return { body: `${lines.join("\n")}\n`, end: pos };
}
