/**
 * just-bash's `ls -la` prints `.` and `..` with a fixed date (`Jan  1 00:00`) where every other row shows the
 * entry's own time: their rows get the times of the listed directory and of its parent, in ls's own format.
 */
import type { ExecResult, IFileSystem } from "just-bash";
import { dirname } from "../../../core/sandbox-path";

const DOT_ROW = /^(drwxr-xr-x 1 user user {5}0 )Jan {2}1 00:00 (\.\.?)$/;
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
/** ls shows the time of day for entries newer than this, the year for older ones. */
const RECENT_MS = 180 * 24 * 60 * 60 * 1000;

/** A time as `ls -l` writes it: `Dec  7 14:01` within the last six months, `Mar  4  2020` before. */
export function lsTime(d: Date, now: number = Date.now()): string {
  const day = `${MONTHS[d.getMonth()]} ${String(d.getDate()).padStart(2, " ")}`;
  if (d.getTime() > now - RECENT_MS) return `${day} ${String(d.getHours()).padStart(2, "0")}:${String(d.getMinutes()).padStart(2, "0")}`;
  return `${day}  ${d.getFullYear()}`;
}

/** The operands of an ls command line (what is not an option). */
function operands(args: string[]): string[] {
  const out: string[] = [];
  let options = true;
  for (const a of args) {
    if (options && a === "--") options = false;
    else if (!options || !a.startsWith("-") || a === "-") out.push(a);
  }
  return out;
}

/** `ls`'s result with its `.` and `..` rows dated as the directories they name. */
export async function datedDots(args: string[], ctx: { fs: IFileSystem; cwd: string }, result: ExecResult): Promise<ExecResult> {
  if (!result.stdout.includes(" Jan  1 00:00 .")) return result;
  const lines = result.stdout.split("\n");
  const named = operands(args);
  // One directory listed: its rows come without a header. Several (or -R): each section starts with `name:`.
  let dir = ctx.fs.resolvePath(ctx.cwd, named.length === 1 ? (named[0] as string) : ".");
  let changed = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    if (line.endsWith(":") && lines[i + 1]?.startsWith("total ")) {
      dir = ctx.fs.resolvePath(ctx.cwd, line.slice(0, -1));
      continue;
    }
    const m = DOT_ROW.exec(line);
    if (!m) continue;
    try {
      const st = await ctx.fs.stat(m[2] === "." ? dir : dirname(dir));
      lines[i] = `${m[1]}${lsTime(st.mtime)} ${m[2]}`;
      changed = true;
    } catch {
      // Gone meanwhile: the row stays as ls wrote it.
    }
  }
  return changed ? { ...result, stdout: lines.join("\n") } : result;
}
