/**
 * Splits a shell command line into the simple commands it would run, for
 * permission checks. Leading environment assignments, reserved words and
 * redirections are dropped; wrappers that run another command (`sudo`, `env`,
 * `nice`, `time`, `nohup`, `xargs`, `command`, `exec`, `timeout`…) are
 * recognised, and scripts handed to `bash -c`, `sh -c`, `su -c`, `eval`,
 * `watch` and `find -exec` are analysed too. Anything that cannot be analysed
 * safely sets `unsafe`, which means: ask the user, never allow silently.
 */
import { basename } from "../sandbox-path";
import { parseCommandLine, type RawCommand, type Word } from "./bash-parse";

export type { Word } from "./bash-parse";

/** One command that would run. */
export interface SimpleCommand {
  /** Its words without leading assignments, reserved words and redirections; wrappers (`sudo …`) kept. */
  words: Word[];
  /** Index in `words` of the program actually run once wrappers are peeled off. */
  start: number;
  /** Targets of redirections that write files (`> f`, `>> f`, `&> f`). */
  writes: Word[];
}

export interface SplitResult {
  commands: SimpleCommand[];
  /** Why the line cannot be analysed safely (unbalanced quotes, a computed command name…); the caller must ask. */
  unsafe?: string;
}

const MAX_DEPTH = 8;
const RESERVED = new Set(["{", "}", "!", "if", "then", "else", "elif", "fi", "do", "done", "while", "until", "coproc"]);
const SHELLS = new Set(["bash", "sh", "zsh", "dash", "ksh", "ash", "mksh", "fish"]);
const WRITE_OPS = /^\d*(>|>>|>\||&>|&>>|<>)$/;

interface Acc {
  commands: SimpleCommand[];
  unsafe: string[];
}

/** The program a command word names: the last path segment (`/bin/rm` → `rm`). */
export function programName(word: string): string {
  return word.includes("/") ? basename(word) : word;
}

/** A word that is text only (no expansion, no glob). */
function isStatic(w: Word): boolean {
  return !w.dynamic && !w.glob;
}

function isAssignment(w: Word): boolean {
  return /^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=/.test(w.raw);
}

interface OptionSpec {
  /** Short options that take an argument (`u` for `-u root`). */
  short?: string;
  /** Long options that take an argument when not written with `=`. */
  long?: string[];
}

/** Skips options from `i`; returns the index of the first operand. */
function skipOptions(words: Word[], i: number, spec: OptionSpec): number {
  while (i < words.length) {
    const v = words[i]?.value ?? "";
    if (v === "--") return i + 1;
    if (!v.startsWith("-") || v === "-") return i;
    if (v.startsWith("--")) {
      i += !v.includes("=") && spec.long?.includes(v.slice(2)) ? 2 : 1;
      continue;
    }
    const cluster = v.slice(1);
    const at = [...cluster].findIndex((ch) => spec.short?.includes(ch));
    i += at !== -1 && at === cluster.length - 1 ? 2 : 1;
  }
  return i;
}

/** Index of the wrapped command, or undefined when the wrapper runs nothing (`command -v x`). */
type Wrapper = (words: Word[], i: number, acc: Acc) => number | undefined;

const opts =
  (spec: OptionSpec, positional = 0): Wrapper =>
  (words, i) =>
    skipOptions(words, i, spec) + positional;

const WRAPPERS: Record<string, Wrapper> = {
  sudo: opts({ short: "ugpCDrtUTh", long: ["user", "group", "host", "prompt", "close-from", "chdir", "role", "type", "other-user", "command-timeout"] }),
  doas: opts({ short: "uC" }),
  nice: opts({ short: "n", long: ["adjustment"] }),
  time: opts({ short: "fo", long: ["format", "output"] }),
  nohup: opts({}),
  setsid: opts({}),
  builtin: opts({}),
  busybox: opts({}),
  fakeroot: opts({}),
  unbuffer: opts({}),
  chronic: opts({}),
  strace: opts({ short: "abeEIoOpPsSuUX" }),
  ltrace: opts({ short: "aeEloOpnsSuUX" }),
  valgrind: opts({}),
  exec: opts({ short: "a" }),
  stdbuf: opts({ short: "ioe", long: ["input", "output", "error"] }),
  ionice: opts({ short: "cnpPu", long: ["class", "classdata", "pid", "pgid", "uid"] }),
  timeout: opts({ short: "sk", long: ["signal", "kill-after"] }, 1),
  chroot: opts({ long: ["userspec", "groups"] }, 1),
  xargs: opts({ short: "adEILnPs", long: ["arg-file", "delimiter", "max-lines", "max-args", "max-procs", "max-chars", "process-slot-var"] }),
  command: (words, i) => {
    const j = skipOptions(words, i, {});
    const flags = words.slice(i, j).map((w) => w.value);
    return flags.some((f) => /^-[a-zA-Z]*[vV]/.test(f)) ? undefined : j;
  },
  env: (words, i, acc) => {
    const j = skipOptions(words, i, { short: "uCS", long: ["unset", "chdir", "split-string"] });
    if (words.slice(i, j).some((w) => /^(-[a-zA-Z]*S|--split-string)/.test(w.value))) acc.unsafe.push("env -S is not analysed");
    return j;
  },
};

/** What a shell invocation runs: a `-c` script, a script file, or commands from stdin. */
function shellInput(words: Word[], i: number): { script?: Word; file?: Word } {
  let dashC = false;
  let stdin = false;
  while (i < words.length) {
    const v = words[i]?.value ?? "";
    if (v === "--" || v === "-") {
      i++;
      break;
    }
    if (v.startsWith("--")) i += ["rcfile", "init-file"].includes(v.slice(2)) ? 2 : 1;
    else if (/^[-+][a-zA-Z]+$/.test(v)) {
      if (v.startsWith("-") && v.includes("c")) dashC = true;
      if (v.startsWith("-") && v.includes("s")) stdin = true;
      i += /[oO]$/.test(v) ? 2 : 1;
    } else break;
  }
  const operand = words[i];
  if (dashC) return { script: operand };
  return stdin ? {} : { file: operand };
}

/** Analyses what a shell runs; stdin and computed scripts cannot be analysed. */
function shell(words: Word[], i: number, depth: number, acc: Acc): void {
  const input = shellInput(words, i);
  if (input.script) nested(input.script, depth, acc);
  else if (!input.file) acc.unsafe.push("a shell reading commands from standard input cannot be analysed");
  else if (!isStatic(input.file)) acc.unsafe.push(`the script ${input.file.raw} is only known at run time`);
}

/** The script of `su … -c SCRIPT`. */
function suScript(words: Word[], i: number): Word | undefined {
  for (let j = i; j < words.length; j++) {
    const v = words[j]?.value ?? "";
    if (v === "-c" || v === "--command") return words[j + 1];
    if (v.startsWith("--command=")) return { ...(words[j] as Word), value: v.slice("--command=".length) };
  }
  return undefined;
}

/** Analyses `script` as a nested command line. */
function nested(script: Word | string | undefined, depth: number, acc: Acc): void {
  if (script === undefined) return;
  if (typeof script !== "string" && !isStatic(script)) {
    acc.unsafe.push("a shell script built at run time cannot be analysed");
    return;
  }
  collect(typeof script === "string" ? script : script.value, depth + 1, acc);
}

/** Joins operands the way `eval` and `watch` do, when they are all static. */
function joined(words: Word[], depth: number, acc: Acc): void {
  if (words.some((w) => w.dynamic)) acc.unsafe.push("a command built at run time cannot be analysed");
  else collect(words.map((w) => w.value).join(" "), depth + 1, acc);
}

/** `find … -exec cmd {} ;` runs `cmd`: record each such command. */
function findExecs(words: Word[], i: number, depth: number, acc: Acc): void {
  for (let j = i; j < words.length; j++) {
    if (!["-exec", "-execdir", "-ok", "-okdir"].includes(words[j]?.value ?? "")) continue;
    let end = j + 1;
    while (end < words.length && !([";", "+"].includes(words[end]?.value ?? "") && isStatic(words[end] as Word))) end++;
    analyse(words.slice(j + 1, end), [], depth + 1, acc);
    j = end;
  }
}

/** Peels wrappers off `words` from `i`; returns the index of the program run. */
function unwrap(words: Word[], i: number, depth: number, acc: Acc): number {
  let wrapperAt = i;
  for (;;) {
    while (i < words.length && isAssignment(words[i] as Word)) i++;
    const w = words[i];
    if (!w) return wrapperAt;
    if (!isStatic(w)) {
      acc.unsafe.push(`the command name ${w.raw} is only known at run time`);
      return i;
    }
    const name = programName(w.value);
    const wrapper = WRAPPERS[name];
    if (wrapper) {
      const next = wrapper(words, i + 1, acc);
      if (next === undefined || next >= words.length) return i;
      wrapperAt = i;
      i = next;
      continue;
    }
    if (SHELLS.has(name)) shell(words, i + 1, depth, acc);
    else if (name === "source" || name === ".") {
      const file = words[i + 1];
      if (file && !isStatic(file)) acc.unsafe.push(`the script ${file.raw} is only known at run time`);
    } else if (name === "shopt" && words.some((x) => x.value === "expand_aliases")) acc.unsafe.push("aliases cannot be analysed");
    else if (name === "su") nested(suScript(words, i + 1), depth, acc);
    else if (name === "eval") joined(words.slice(i + 1), depth, acc);
    else if (name === "watch") joined(words.slice(skipOptions(words, i + 1, { short: "nqd", long: ["interval", "differences"] })), depth, acc);
    else if (name === "find") findExecs(words, i + 1, depth, acc);
    return i;
  }
}

function analyse(all: Word[], writes: Word[], depth: number, acc: Acc): void {
  let i = 0;
  while (i < all.length && (RESERVED.has(all[i]?.raw ?? "") || isAssignment(all[i] as Word))) i++;
  const words = all.slice(i);
  const head = words[0]?.raw;
  if (head === "for" || head === "select") return;
  if (head === "case" || head === "function") {
    acc.unsafe.push(`"${head}" is not supported by the command analyser`);
    return;
  }
  if (words.length === 0 && writes.length === 0) return;
  const start = words.length ? unwrap(words, 0, depth, acc) : 0;
  acc.commands.push({ words, start, writes });
}

function fromRaw(raw: RawCommand, depth: number, acc: Acc): void {
  const writes = raw.redirects.filter((r) => WRITE_OPS.test(r.op) || (/^\d*>&$/.test(r.op) && !/^\d*-?$/.test(r.target.value))).map((r) => r.target);
  analyse(raw.words, writes, depth, acc);
}

function collect(source: string, depth: number, acc: Acc): void {
  if (depth > MAX_DEPTH) {
    acc.unsafe.push("the command nests shells too deeply");
    return;
  }
  const r = parseCommandLine(source, depth);
  if (!r.ok) acc.unsafe.push(`the command cannot be parsed: ${r.error}`);
  for (const raw of r.commands) fromRaw(raw, depth, acc);
}

/** Splits a command line into the simple commands it would run. */
export function splitCommands(command: string): SplitResult {
  const acc: Acc = { commands: [], unsafe: [] };
  collect(command, 0, acc);
  return acc.unsafe.length ? { commands: acc.commands, unsafe: acc.unsafe[0] } : { commands: acc.commands };
}

const SAFE_WORD = /^[A-Za-z0-9_@%+=:,./~^{}-]+$/;

/** A word as it appears in a normalised pattern: quoted only when needed, expansions as written. */
export function renderWord(w: Word): string {
  if (!isStatic(w)) return w.raw;
  if (SAFE_WORD.test(w.value)) return w.value;
  if (w.value.includes("'") && !/["$`\\!]/.test(w.value)) return `"${w.value}"`;
  return `'${w.value.replaceAll("'", "'\\''")}'`;
}

/** Normalised text of words: single spaces, minimal quoting. */
export function renderWords(words: Word[]): string {
  return words.map(renderWord).join(" ");
}
