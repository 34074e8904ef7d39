/**
 * just-bash's `ls -l` writes every row with a fixed mode (`-rw-r--r--` for a file, `drwxr-xr-x` for a directory),
 * follows symlinks (a link's row is its target's), writes a dangling link as an empty file dated `Jan  1 00:00`,
 * and dates `.` and `..` `Jan  1 00:00` too. The filesystem knows better: each row it can match to the entry it
 * names gets that entry's own mode (`chmod +x run.sh` → `-rwxr-xr-x`), a symlink is written as `ls` writes one
 * (`lrwxrwxrwx … link -> target`), and `.` and `..` get the times of the directories they name. A row whose entry
 * cannot be found, or that does not match what the filesystem says of it, stays as ls wrote it.
 */
import type { CommandContext, ExecResult, FsStat } from "just-bash";

type LsContext = Pick<CommandContext, "fs" | "cwd">;

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
/** ls shows the time of day for entries newer than this, the year for older ones. */
const RECENT_MS = 180 * 24 * 60 * 60 * 1000;
/** A row of just-bash's long listing: mode, size (padded), time, and the name with its indicator, if any. */
const ROW = /^([-dl][-rwxsStT]{9}) 1 user user +(\S+) ([A-Z][a-z]{2} [ \d]\d (?:\d\d:\d\d| \d{4})) (.*)$/;
/** The time just-bash gives what it could not stat (`.`, `..`, a dangling link). */
const NO_TIME = "Jan  1 00:00";

/** A time as `ls -l` writes it: `Dec  7 14:01` within the last six months, `Mar  4  2020` before. */
export function lsTime(d: Date, now: number = Date.now()): string {
  const day = `${MONTHS[d.getMonth()]} ${String(d.getDate()).padStart(2, " ")}`;
  if (d.getTime() > now - RECENT_MS) return `${day} ${String(d.getHours()).padStart(2, "0")}:${String(d.getMinutes()).padStart(2, "0")}`;
  return `${day}  ${d.getFullYear()}`;
}

/** A mode as `ls -l` writes it (`-rwxr-x---`, `drwxrwxrwt`), set-id and sticky bits included. */
export function modeString(type: "-" | "d" | "l", mode: number): string {
  const triple = (shift: number, special: number, on: string, off: string) => {
    const bits = (mode >> shift) & 7;
    const x = bits & 1 ? (mode & special ? on : "x") : mode & special ? off : "-";
    return `${bits & 4 ? "r" : "-"}${bits & 2 ? "w" : "-"}${x}`;
  };
  return `${type}${triple(6, 0o4000, "s", "S")}${triple(3, 0o2000, "s", "S")}${triple(0, 0o1000, "t", "T")}`;
}

interface LsFlags {
  long: boolean;
  directory: boolean;
  recursive: boolean;
  classify: boolean;
  operands: string[];
}

/** What of an ls command line the rows depend on. */
function lsFlags(args: string[]): LsFlags {
  const f: LsFlags = { long: false, directory: false, recursive: false, classify: false, operands: [] };
  let options = true;
  for (const a of args) {
    if (options && a === "--") options = false;
    else if (!options || !a.startsWith("-") || a === "-") f.operands.push(a);
    else if (a.startsWith("--")) {
      if (a === "--directory") f.directory = true;
      else if (a === "--recursive") f.recursive = true;
      else if (a === "--classify") f.classify = true;
    } else {
      f.long ||= a.includes("l");
      f.directory ||= a.includes("d");
      f.recursive ||= a.includes("R");
      f.classify ||= a.includes("F");
    }
  }
  return f;
}

/** The indicator just-bash writes after a name (`-F`: its `*`, `@`, `/`; else `/` after a directory). */
function indicator(st: FsStat, lst: FsStat, classify: boolean): string {
  if (!classify) return st.isDirectory ? "/" : "";
  return lst.isDirectory ? "/" : lst.isSymbolicLink ? "@" : lst.mode & 0o111 ? "*" : "";
}

async function statOf(ctx: LsContext, path: string, follow: boolean): Promise<FsStat | undefined> {
  try {
    return await (follow ? ctx.fs.stat(path) : ctx.fs.lstat(path));
  } catch {
    return undefined;
  }
}

/** The row as it should read, or undefined when the entry it names is not clearly the one found in `dir`. */
async function fixRow(ctx: LsContext, dir: string, row: RegExpExecArray, flags: LsFlags): Promise<string | undefined> {
  const [line, mode, size, time, text] = row as unknown as [string, string, string, string, string];
  if ((text === "." || text === "..") && mode === "drwxr-xr-x" && size === "0" && time === NO_TIME) {
    const st = await statOf(ctx, ctx.fs.resolvePath(dir, text), true);
    return st?.isDirectory ? `${modeString("d", st.mode)} 1 user user     0 ${lsTime(st.mtime)} ${text}` : undefined;
  }
  const names = /[/*@]$/.test(text) ? [text, text.slice(0, -1)] : [text];
  const found = new Set<string>();
  for (const name of names) {
    if (name === "") continue;
    const path = ctx.fs.resolvePath(dir, name);
    const lst = await statOf(ctx, path, false);
    if (!lst) continue;
    const st = await statOf(ctx, path, true);
    if (!st) {
      // A dangling link: just-bash could not stat it and wrote an empty file with no time.
      if (lst.isSymbolicLink && name === text && line === `-rw-r--r-- 1 user user     0 ${NO_TIME} ${text}`) found.add(await linkRow(ctx, path, lst, name));
      continue;
    }
    const same =
      mode[0] === (st.isDirectory ? "d" : "-") &&
      name + indicator(st, lst, flags.classify) === text &&
      time === lsTime(st.mtime) &&
      (!/^\d+$/.test(size) || size === String(st.size ?? 0));
    if (!same) continue;
    if (lst.isSymbolicLink) found.add(await linkRow(ctx, path, lst, name));
    else found.add(`${modeString(st.isDirectory ? "d" : "-", st.mode)}${line.slice(10)}`);
  }
  // Two entries could have written this row (`a*` and an executable `a` under -F): leave it.
  return found.size === 1 ? [...found][0] : undefined;
}

/** A symlink's row as `ls -l` writes it: its own mode, size and time, and where it points. */
async function linkRow(ctx: LsContext, path: string, lst: FsStat, name: string): Promise<string> {
  const target = await ctx.fs.readlink(path);
  return `lrwxrwxrwx 1 user user ${String(lst.size ?? target.length).padStart(5)} ${lsTime(lst.mtime)} ${name} -> ${target}`;
}

/** `ls`'s result with its long rows showing each entry's own mode (and `.`/`..` their own times). */
export async function longListing(args: string[], ctx: LsContext, result: ExecResult): Promise<ExecResult> {
  const flags = lsFlags(args);
  if (!flags.long || result.stdout === "") return result;
  const named = flags.operands.length ? flags.operands : ["."];
  // Rows name entries of the directory being listed, or operands as typed (relative to the working directory).
  // One directory listed without -d or -R: its rows come without a header. Otherwise each directory's rows come
  // after a `name:` line, and a blank line starts the next operand or section.
  let dir = ctx.cwd;
  if (!flags.directory && !flags.recursive && named.length === 1) {
    const only = ctx.fs.resolvePath(ctx.cwd, named[0] as string);
    if ((await statOf(ctx, only, true))?.isDirectory) dir = only;
  }
  const lines = result.stdout.split("\n");
  let changed = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    const row = ROW.exec(line);
    if (row) {
      const fixed = await fixRow(ctx, dir, row, flags);
      if (fixed !== undefined && fixed !== line) {
        lines[i] = fixed;
        changed = true;
      }
    } else if (line === "") dir = ctx.cwd;
    else if (!flags.directory && line.endsWith(":") && lines[i + 1]?.startsWith("total ")) dir = ctx.fs.resolvePath(ctx.cwd, line.slice(0, -1));
  }
  return changed ? { ...result, stdout: lines.join("\n") } : result;
}
