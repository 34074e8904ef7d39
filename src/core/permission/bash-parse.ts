/**
 * A small shell parser for permission checks: it finds every simple command
 * in a command line, including those nested in subshells, groups, command
 * substitutions (`$(…)`, backticks), process substitutions (`<(…)`) and
 * expanding here-documents. It does not evaluate anything. Constructs it does
 * not understand (`case`, function definitions, arrays, unbalanced quotes)
 * make the parse fail, so the caller asks the user instead of guessing.
 */

import { backtickBody, decodeAnsiC, hasGlob, heredocBody, isArithmeticAt, type ParseResult, type RawCommand, type Redirect, type Word } from "./bash-syntax";

export type { ParseResult, RawCommand, Word } from "./bash-syntax";

/** Nesting limit across substitutions, subshell scripts and here-documents. */
const MAX_LEVEL = 64;
const MAX_LENGTH = 100_000;
const META = " \t\n;&|<>()";
/** Reserved words after which `(` opens a subshell (`if (…)`, `! (…)`, `{ (…); }`). */
const OPENERS = new Set(["{", "!", "if", "then", "else", "elif", "do", "while", "until", "time"]);

class ParseError extends Error {}

class Parser {
  private pos = 0;
  private heredocs: Array<{ delim: string; strip: boolean; expand: boolean }> = [];

  constructor(
    private readonly src: string,
    private readonly out: RawCommand[],
    private level: number,
  ) {
    if (level > MAX_LEVEL) throw new ParseError("nesting is too deep");
  }

  private peek = (o = 0): string => this.src[this.pos + o] ?? "";
  private startsWith = (s: string): boolean => this.src.startsWith(s, this.pos);

  /** Parses a command list until `stop` (the `)` that closes a `$(`, or the end of the source). */
  parseList(stop: ")" | ""): void {
    let cmd: RawCommand = { words: [], redirects: [] };
    let parens = 0;
    const finish = () => {
      if (cmd.words.length || cmd.redirects.length) this.out.push(cmd);
      cmd = { words: [], redirects: [] };
    };
    for (;;) {
      while (this.peek() === " " || this.peek() === "\t") this.pos++;
      const c = this.peek();
      if (c === "") {
        if (stop) throw new ParseError(`missing "${stop}"`);
        if (parens) throw new ParseError('missing ")"');
        finish();
        return;
      }
      if (this.startsWith("\\\n")) {
        this.pos += 2;
      } else if (c === "#") {
        while (this.peek() !== "" && this.peek() !== "\n") this.pos++;
      } else if (c === "\n") {
        finish();
        this.pos++;
        this.readHeredocBodies();
      } else if (c === ")" && stop === ")" && parens === 0) {
        this.pos++;
        finish();
        return;
      } else if (this.startsWith(";;") || this.startsWith(";&")) {
        throw new ParseError("case statements are not supported");
      } else if (c === ";" || c === "|" || (c === "&" && this.peek(1) !== ">")) {
        finish();
        this.pos += this.startsWith("&&") || this.startsWith("||") || this.startsWith("|&") ? 2 : 1;
      } else if (c === "(") {
        if (!cmd.words.every((w) => OPENERS.has(w.raw))) throw new ParseError('unexpected "(" (function definitions and arrays are not supported)');
        finish();
        parens++;
        this.pos++;
      } else if (c === ")") {
        if (parens === 0) throw new ParseError('unexpected ")"');
        finish();
        parens--;
        this.pos++;
      } else if ((c === "<" || c === ">") && this.peek(1) === "(") {
        cmd.words.push(this.readWord());
      } else if (c === "<" || c === ">" || c === "&") {
        cmd.redirects.push(this.readRedirect(""));
      } else {
        const w = this.readWord();
        const next = this.peek();
        if (/^\d+$/.test(w.raw) && (next === "<" || next === ">") && this.peek(1) !== "(") cmd.redirects.push(this.readRedirect(w.raw));
        else cmd.words.push(w);
      }
    }
  }

  private readRedirect(fd: string): Redirect {
    const ops = ["&>>", "&>", "<<<", "<<-", "<<", "<>", "<&", ">>", ">&", ">|", "<", ">"];
    const op = ops.find((o) => this.startsWith(o)) ?? "";
    if (!op) throw new ParseError("bad redirection");
    this.pos += op.length;
    while (this.peek() === " " || this.peek() === "\t") this.pos++;
    const procSub = (this.peek() === "<" || this.peek() === ">") && this.peek(1) === "(";
    if (this.peek() === "" || (META.includes(this.peek()) && !procSub)) throw new ParseError(`missing target after "${op}"`);
    const target = this.readWord();
    if (op === "<<" || op === "<<-") {
      const quoted = /["'\\]/.test(target.raw);
      this.heredocs.push({ delim: quoted ? target.value : target.raw, strip: op === "<<-", expand: !quoted });
    }
    return { op: fd + op, target };
  }

  /** Consumes here-document bodies after a newline, scanning expanding ones for substitutions. */
  private readHeredocBodies(): void {
    for (const h of this.heredocs.splice(0)) {
      const doc = heredocBody(this.src, this.pos, h.delim, h.strip);
      this.pos = doc.end;
      if (h.expand) new Parser(doc.body, this.out, this.level + 1).scanExpandable();
    }
  }

  /** Scans text where `$` and backticks expand (a here-document body). */
  scanExpandable(): void {
    while (this.pos < this.src.length) this.readExpandablePiece(null);
  }

  private readWord(): Word {
    const start = this.pos;
    let value = "";
    let dynamic = false;
    let unquoted = "";
    if ((this.peek() === "<" || this.peek() === ">") && this.peek(1) === "(") {
      this.pos += 2;
      this.deeper(() => this.parseList(")"));
      return { raw: this.src.slice(start, this.pos), value: "", dynamic: true, glob: false };
    }
    while (this.pos < this.src.length && !META.includes(this.peek())) {
      const c = this.peek();
      if (c === "'") {
        value += this.readSingleQuoted();
      } else if (c === '"') {
        const piece = this.readDoubleQuoted();
        value += piece.text;
        dynamic ||= piece.dynamic;
      } else if (c === "\\") {
        if (this.peek(1) !== "\n") value += this.peek(1);
        this.pos += 2;
      } else if (c === "$" && this.peek(1) === "'") {
        const decoded = decodeAnsiC(this.src, this.pos);
        if (!decoded) throw new ParseError("unbalanced $' quote");
        value += decoded.text;
        dynamic ||= decoded.dynamic;
        this.pos = decoded.end;
      } else if (c === "$" && this.peek(1) === '"') {
        this.pos++;
      } else if (c === "$" || c === "`") {
        const piece = this.readExpandablePiece(null);
        value += piece.text;
        dynamic ||= piece.dynamic;
      } else {
        unquoted += c;
        value += c;
        this.pos++;
      }
    }
    return { raw: this.src.slice(start, this.pos), value, dynamic, glob: hasGlob(unquoted) };
  }

  /** One character or expansion of double-quoted / here-doc text. */
  private readExpandablePiece(quote: '"' | null): { text: string; dynamic: boolean } {
    const c = this.peek();
    if (c === "\\") {
      const n = this.peek(1);
      this.pos += 2;
      if (n === "\n") return { text: "", dynamic: false };
      return { text: "$`\\".includes(n) || (quote !== null && n === quote) ? n : `\\${n}`, dynamic: false };
    }
    if (c === "`") {
      this.deeper(() => this.readBacktick(quote === '"'));
      return { text: "", dynamic: true };
    }
    if (c === "$") {
      const n = this.peek(1);
      if (n === "(") {
        if (isArithmeticAt(this.src, this.pos)) this.deeper(() => this.readArithmetic());
        else {
          this.pos += 2;
          this.deeper(() => this.parseList(")"));
        }
        return { text: "", dynamic: true };
      }
      if (n === "{") {
        this.pos += 2;
        this.deeper(() => this.skipBraced());
        return { text: "", dynamic: true };
      }
      if (/[A-Za-z0-9_@*#?$!-]/.test(n)) {
        this.pos += 2;
        if (/[A-Za-z_]/.test(n)) while (/[A-Za-z0-9_]/.test(this.peek())) this.pos++;
        return { text: "", dynamic: true };
      }
    }
    this.pos++;
    return { text: c, dynamic: false };
  }

  /** Reads a `$((…))` known to be arithmetic, parsing substitutions inside it. */
  private readArithmetic(): void {
    this.pos += 3;
    let depth = 0;
    for (;;) {
      const c = this.peek();
      if (c === "") throw new ParseError('missing "))"');
      if (c === ")" && depth === 0) {
        if (this.peek(1) !== ")") throw new ParseError("malformed arithmetic expansion");
        this.pos += 2;
        return;
      }
      if (c === "$" || c === "`" || c === "\\") {
        this.readExpandablePiece(null);
        continue;
      }
      if (c === "(") depth++;
      else if (c === ")") depth--;
      this.pos++;
    }
  }

  /** Runs `fn` one nesting level deeper, refusing absurd depths (no stack overflow). */
  private deeper<T>(fn: () => T): T {
    if (++this.level > MAX_LEVEL) throw new ParseError("nesting is too deep");
    try {
      return fn();
    } finally {
      this.level--;
    }
  }

  /** Skips a `${…}` body (after `${`), parsing substitutions inside it. */
  private skipBraced(): void {
    for (;;) {
      const c = this.peek();
      if (c === "") throw new ParseError('missing "}"');
      if (c === "}") {
        this.pos++;
        return;
      }
      if (c === "'") this.readSingleQuoted();
      else if (c === '"') this.readDoubleQuoted();
      else this.readExpandablePiece(null);
    }
  }

  /** `'…'`: its literal text. */
  private readSingleQuoted(): string {
    const end = this.src.indexOf("'", this.pos + 1);
    if (end === -1) throw new ParseError("unbalanced single quote");
    const text = this.src.slice(this.pos + 1, end);
    this.pos = end + 1;
    return text;
  }

  /** `"…"`: its text with escapes removed; dynamic when it holds an expansion. */
  private readDoubleQuoted(): { text: string; dynamic: boolean } {
    this.pos++;
    let text = "";
    let dynamic = false;
    while (this.peek() !== '"') {
      if (this.pos >= this.src.length) throw new ParseError("unbalanced double quote");
      const piece = this.readExpandablePiece('"');
      text += piece.text;
      dynamic ||= piece.dynamic;
    }
    this.pos++;
    return { text, dynamic };
  }

  /** A backtick substitution: its unescaped body is parsed as a command list. */
  private readBacktick(inDouble: boolean): void {
    const bt = backtickBody(this.src, this.pos, inDouble);
    if (!bt) throw new ParseError("unbalanced backtick");
    this.pos = bt.end;
    new Parser(bt.body, this.out, this.level + 1).parseList("");
  }
}

/** Parses a command line into its simple commands (nested ones included). */
export function parseCommandLine(source: string, depth = 0): ParseResult {
  const commands: RawCommand[] = [];
  if (source.length > MAX_LENGTH) return { ok: false, error: "the command is too long to analyse", commands };
  try {
    new Parser(source, commands, depth).parseList("");
    return { ok: true, commands };
  } catch (e) {
    if (e instanceof ParseError) return { ok: false, error: e.message, commands };
    throw e;
  }
}
