/**
 * Files a shell line reads through common reading commands (`cat .env`,
 * `head -n 5 a.txt`, `grep KEY .env`), so the bash tool can ask the `read`
 * permission for them: a rule protecting `.env` from `read` then covers the
 * shell too. Best effort by design: it sees literal operands of known
 * readers, not every way a program can open a file.
 */
import { programName, renderWord, splitCommands, type Word } from "./bash-split";

/** Commands whose operands are files they print or summarise. */
const READERS = new Set([
  "cat", "tac", "nl", "head", "tail", "less", "more", "wc", "sort", "uniq", "cut", "paste", "strings", "od", "xxd",
  "hexdump", "base64", "md5sum", "sha1sum", "sha256sum", "diff", "cmp", "comm", "file", "column", "fold", "fmt",
  "grep", "egrep", "fgrep", "rg", "sed", "awk", "jq", "source", ".",
]);

/** Readers whose first operand is a pattern or program, not a file (unless `-e`/`-f` gives it). */
const PATTERN_FIRST = new Set(["grep", "egrep", "fgrep", "rg", "sed", "awk", "jq"]);

/** Options that supply the pattern or program themselves. */
const PATTERN_FLAGS = new Set(["-e", "-f", "--regexp", "--file"]);

/** Options that take the next word as their value, per command. */
const GREP_VALUES = ["-e", "-f", "-A", "-B", "-C", "-m"];
const VALUE_FLAGS: Readonly<Record<string, readonly string[]>> = {
  head: ["-n", "-c"],
  tail: ["-n", "-c"],
  grep: GREP_VALUES,
  egrep: GREP_VALUES,
  fgrep: GREP_VALUES,
  rg: [...GREP_VALUES, "-g", "-t"],
  sed: ["-e", "-f"],
  awk: ["-f", "-v", "-F"],
  sort: ["-k", "-t", "-o"],
  cut: ["-d", "-f", "-c", "-b"],
  od: ["-t", "-N", "-j"],
  xxd: ["-l", "-s", "-c"],
};

function operands(name: string, words: Word[]): string[] {
  const out: string[] = [];
  const valued = VALUE_FLAGS[name] ?? [];
  let patternGiven = !PATTERN_FIRST.has(name);
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    if (!w) continue;
    const text = renderWord(w);
    if (text === "--") continue;
    if (text.startsWith("-") && text !== "-") {
      if (PATTERN_FIRST.has(name) && PATTERN_FLAGS.has(text.split("=")[0] ?? "")) patternGiven = true;
      if (valued.includes(text)) i++;
      continue;
    }
    if (!patternGiven) {
      patternGiven = true;
      continue;
    }
    if (text !== "-") out.push(text);
  }
  return out;
}

/** File operands (as written) of every reading command on the line, in order, without repeats. */
export function bashReadOperands(command: string): string[] {
  const found: string[] = [];
  for (const c of splitCommands(command).commands) {
    const inner = c.words.slice(c.start);
    const head = inner[0];
    if (!head) continue;
    const name = programName(renderWord(head));
    if (!READERS.has(name)) continue;
    for (const op of operands(name, inner.slice(1))) if (!found.includes(op)) found.push(op);
  }
  return found;
}
