/**
 * just-bash's `ls -l` writes every row with a fixed mode (`-rw-r--r--` for a file, `drwxr-xr-x` for a directory),
 * follows symlinks (a link's row is its target's), writes a dangling link as an empty file dated `Jan  1 00:00`,
 * and dates `.` and `..` `Jan  1 00:00` too. The filesystem knows better: each row it can match to the entry it
 * names gets that entry's own mode (`chmod +x run.sh` → `-rwxr-xr-x`), a symlink is written as `ls` writes one
 * (`lrwxrwxrwx … link -> target`), and `.` and `..` get the times of the directories they name. A row whose entry
 * cannot be found, or that does not match what the filesystem says of it, stays as ls wrote it.
 *
 * just-bash also ignores `-t` (it lists by name) and sorts `-S` by the size of a link's target: under either, the
 * rows it can place (long rows as above, one-name rows by `lstat`) are put in GNU's order within their directory.
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
  /** `-t` (newest first) or `-S` (largest first), the later one given winning, as in GNU's ls. */
  sort: "time" | "size" | undefined;
  reverse: boolean;
  operands: string[];
}

/** What of an ls command line the rows depend on. */
function lsFlags(args: string[]): LsFlags {
  const f: LsFlags = {
    long: false,
    directory: false,
    recursive: false,
    classify: false,
    sort: undefined,
    reverse: false,
    operands: [],
  };
  let options = true;
  for (const a of args) {
    if (options && a === "--") options = false;
    else if (!options || !a.startsWith("-") || a === "-") f.operands.push(a);
    else if (a.startsWith("--")) {
      if (a === "--directory") f.directory = true;
      else if (a === "--recursive") f.recursive = true;
      else if (a === "--classify") f.classify = true;
      else if (a === "--reverse") f.reverse = true;
    } else {
      f.long ||= a.includes("l");
      f.directory ||= a.includes("d");
      f.recursive ||= a.includes("R");
      f.classify ||= a.includes("F");
      f.reverse ||= a.includes("r");
      for (const c of a) if (c === "t" || c === "S") f.sort = c === "t" ? "time" : "size";
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

/** The entry a row names (its name as listed and its own stat, a link's not its target's) and the row as it should read. */
interface Placed {
  line: string;
  name: string;
  lst: FsStat;
}

/** The long row as it should read, or undefined when the entry it names is not clearly the one found in `dir`. */
async function fixRow(ctx: LsContext, dir: string, row: RegExpExecArray, flags: LsFlags): Promise<Placed | undefined> {
  const [line, mode, size, time, text] = row as unknown as [string, string, string, string, string];
  if ((text === "." || text === "..") && mode === "drwxr-xr-x" && size === "0" && time === NO_TIME) {
    const st = await statOf(ctx, ctx.fs.resolvePath(dir, text), true);
    return st?.isDirectory
      ? {
          line: `${modeString("d", st.mode)} 1 user user     0 ${lsTime(st.mtime)} ${text}`,
          name: text,
          lst: st,
        }
      : undefined;
  }
  const names = /[/*@]$/.test(text) ? [text, text.slice(0, -1)] : [text];
  const found = new Map<string, Placed>();
  for (const name of names) {
    if (name === "") continue;
    const path = ctx.fs.resolvePath(dir, name);
    const lst = await statOf(ctx, path, false);
    if (!lst) continue;
    const st = await statOf(ctx, path, true);
    if (!st) {
      // A dangling link: just-bash could not stat it and wrote an empty file with no time.
      if (lst.isSymbolicLink && name === text && line === `-rw-r--r-- 1 user user     0 ${NO_TIME} ${text}`) {
        found.set(name, {
          line: await linkRow(ctx, path, lst, name),
          name,
          lst,
        });
      }
      continue;
    }
    const same =
      mode[0] === (st.isDirectory ? "d" : "-") &&
      name + indicator(st, lst, flags.classify) === text &&
      time === lsTime(st.mtime) &&
      (!/^\d+$/.test(size) || size === String(st.size ?? 0));
    if (!same) continue;
    if (lst.isSymbolicLink) found.set(name, { line: await linkRow(ctx, path, lst, name), name, lst });
    else
      found.set(name, {
        line: `${modeString(st.isDirectory ? "d" : "-", st.mode)}${line.slice(10)}`,
        name,
        lst,
      });
  }
  // Two entries could have written this row (`a*` and an executable `a` under -F): leave it.
  return found.size === 1 ? [...found.values()][0] : undefined;
}

/** The entry a short row (a name, with its indicator under -F) names in `dir`, when exactly one fits. */
async function placeName(ctx: LsContext, dir: string, text: string, flags: LsFlags): Promise<Placed | undefined> {
  const names = flags.classify && /[/*@]$/.test(text) ? [text, text.slice(0, -1)] : [text];
  const found: Placed[] = [];
  for (const name of names) {
    if (name === "") continue;
    const lst = await statOf(ctx, ctx.fs.resolvePath(dir, name), false);
    if (lst && (flags.classify ? name + indicator(lst, lst, true) : name) === text) found.push({ line: text, name, lst });
  }
  return found.length === 1 ? found[0] : undefined;
}

/** A symlink's row as `ls -l` writes it: its own mode, size and time, and where it points. */
async function linkRow(ctx: LsContext, path: string, lst: FsStat, name: string): Promise<string> {
  const target = await ctx.fs.readlink(path);
  return `lrwxrwxrwx 1 user user ${String(lst.size ?? target.length).padStart(5)} ${lsTime(lst.mtime)} ${name} -> ${target}`;
}

/** GNU ls's order under -t / -S (-r reversing all of it): newest or largest first, then by name. */
function compare(flags: LsFlags, a: Placed, b: Placed): number {
  const key = flags.sort === "time" ? b.lst.mtime.getTime() - a.lst.mtime.getTime() : (b.lst.size ?? 0) - (a.lst.size ?? 0);
  const order = key !== 0 ? key : a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
  return flags.reverse ? -order : order;
}

/**
 * `ls`'s result with its long rows showing each entry's own mode (and `.`/`..` their own times), and, under -t or
 * -S, each directory's rows (and the operands listed as rows) in GNU's order: just-bash lists them by name under
 * -t, and under -S by the size of a link's target. A group with a row that cannot be placed keeps its order.
 */
export async function longListing(args: string[], ctx: LsContext, result: ExecResult): Promise<ExecResult> {
  const flags = lsFlags(args);
  if ((!flags.long && !flags.sort) || result.stdout === "") return result;
  const named = flags.operands.length ? flags.operands : ["."];
  // Rows name entries of the directory being listed, or operands as typed (relative to the working directory).
  // One directory listed without -d or -R: its rows come without a header. Otherwise each directory's rows come
  // after a `name:` line, and a blank line starts the next operand or section.
  let dir = ctx.cwd;
  // Rows are sorted within their group: a directory's section, or (-1) the operands listed as rows.
  let group = -1;
  if (!flags.directory && !flags.recursive && named.length === 1) {
    const only = ctx.fs.resolvePath(ctx.cwd, named[0] as string);
    if ((await statOf(ctx, only, true))?.isDirectory) [dir, group] = [only, 0];
  }
  const sections = !flags.directory && (flags.recursive || named.length > 1);
  const lines = result.stdout.split("\n");
  const rows = new Map<number, { index: number; placed: Placed | undefined }[]>();
  const headers = new Set<number>();
  let changed = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    const row = flags.long ? ROW.exec(line) : null;
    const header = row
      ? false
      : flags.long
        ? !flags.directory && line.endsWith(":") && lines[i + 1]?.startsWith("total ")
        : sections && line.endsWith(":") && (i === 0 || lines[i - 1] === "");
    if (line === "") [dir, group] = [ctx.cwd, -1];
    else if (header) {
      [dir, group] = [ctx.fs.resolvePath(ctx.cwd, line.slice(0, -1)), i];
      headers.add(i);
    } else if (!row && flags.long && line.startsWith("total ")) continue;
    else {
      const placed = row ? await fixRow(ctx, dir, row, flags) : flags.long ? undefined : await placeName(ctx, dir, line, flags);
      if (placed && placed.line !== line) {
        lines[i] = placed.line;
        changed = true;
      }
      const inGroup = rows.get(group);
      if (inGroup) inGroup.push({ index: i, placed });
      else rows.set(group, [{ index: i, placed }]);
    }
  }
  if (!flags.sort) return changed ? { ...result, stdout: lines.join("\n") } : result;
  // Each directory's entries in the new order, by the index of its header line (what -R sections follow).
  const order = new Map<number, string[]>();
  for (const [id, group] of rows) {
    const placed = group.map((r) => r.placed);
    if (!placed.every((p): p is Placed => p !== undefined)) continue;
    const sorted = [...placed].sort((a, b) => compare(flags, a, b));
    sorted.forEach((p, k) => {
      const index = (group[k] as { index: number }).index;
      if (lines[index] !== p.line) [lines[index], changed] = [p.line, true];
    });
    order.set(id, sorted.map((p) => p.name));
  }
  const out = lines.join("\n");
  const reordered = flags.recursive && !flags.directory ? sectionsInOrder(out, headers, order) : out;
  return changed || reordered !== out ? { ...result, stdout: reordered } : result;
}

interface Section {
  /** The header's path as ls wrote it (`./d/e`), or undefined for an operand's row. */
  path: string | undefined;
  /** Index of the header line in the output. */
  at: number;
  text: string;
  children: Section[];
}

/**
 * Under -R, GNU's ls lists a directory's subdirectories in the order of its own sorted rows (just-bash: by name).
 * Each section's subtree moves with it; a directory with a subsection not among its sorted rows keeps its order.
 */
function sectionsInOrder(out: string, headers: Set<number>, order: Map<number, string[]>): string {
  const body = out.endsWith("\n") ? out.slice(0, -1) : out;
  const roots: Section[] = [];
  const stack: Section[] = [];
  let at = 0;
  for (const text of body.split("\n\n")) {
    const first = text.split("\n", 1)[0] as string;
    const path = headers.has(at) ? first.slice(0, -1) : undefined;
    const section: Section = { path, at, text, children: [] };
    at += text.split("\n").length + 1;
    if (path === undefined) {
      roots.push(section);
      stack.length = 0;
      continue;
    }
    while (stack.length && !isChild(stack[stack.length - 1] as Section, path)) stack.pop();
    const parent = stack[stack.length - 1];
    (parent ? parent.children : roots).push(section);
    stack.push(section);
  }
  const flat: string[] = [];
  const visit = (s: Section) => {
    flat.push(s.text);
    const names = order.get(s.at);
    const rank = (c: Section) => names?.indexOf((c.path as string).slice((s.path as string).length + 1)) ?? -1;
    const children = names && s.children.every((c) => rank(c) >= 0) ? [...s.children].sort((a, b) => rank(a) - rank(b)) : s.children;
    for (const c of children) visit(c);
  };
  for (const r of roots) visit(r);
  return flat.join("\n\n") + (out.endsWith("\n") ? "\n" : "");
}

/** Whether the section at `path` is a subdirectory of `parent`'s (ls names it `parent/name`). */
function isChild(parent: Section, path: string): boolean {
  const p = parent.path as string;
  return path.startsWith(`${p}/`) && path.length > p.length + 1 && !path.slice(p.length + 1).includes("/");
}
