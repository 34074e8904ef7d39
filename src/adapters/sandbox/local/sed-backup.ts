/**
 * GNU sed's in-place backup: `sed -i.bak …` / `--in-place=.bak` keeps each file's original as `file.bak`, and a
 * suffix with `*` names the backup whole, each `*` standing for the file's name as given (`-i'bak/*'` →
 * `bak/notes.txt`, in a directory that must exist). just-bash's sed drops the suffix (`-i.bak`), or refuses the
 * option (`--in-place=.bak`, `-Ei.bak`): here the suffix is taken off, just-bash edits one file at a time (`-i`
 * edits each file on its own anyway), and each edited file's original bytes are written to its backup through the
 * shell's filesystem: the path rules apply, the change is tracked and kept, and a byte copy is never refused as
 * text that is not UTF-8. When the backup cannot be written the file is put back as it was and sed fails, as
 * GNU's does (it renames the original to the backup before it puts the edited file in place).
 */
import type { CommandContext, ExecResult } from "just-bash";
import { PathRefused } from "../../../core/permission/path-policy";

type SedContext = Pick<CommandContext, "fs" | "cwd">;

/** sed's arguments with the in-place suffix taken off, and where the file operands are. */
export interface SedInPlace {
  /** The arguments without the file operands, `-i` plain. */
  args: string[];
  files: string[];
  /** The backup's name pattern: `*` is the file's name (`*.bak`); undefined: no backup. */
  backup: string | undefined;
}

/** Short options of GNU sed that take an argument (the rest of the word, or the next word). */
const WITH_ARGUMENT = new Set(["e", "f", "l"]);
/** Long options of GNU sed that take an argument (`--expression=X` or `--expression X`). */
const LONG_WITH_ARGUMENT = new Set(["--expression", "--file", "--line-length"]);

/** Reads a sed command line as GNU's does; undefined when it asks for no backup (nothing to change). */
export function sedInPlace(args: string[]): SedInPlace | undefined {
  const out: string[] = [];
  const files: string[] = [];
  let suffix: string | undefined;
  let rewritten = false;
  let script = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (a === "--in-place" || a.startsWith("--in-place=")) {
      suffix = a.slice("--in-place=".length);
      out.push("-i");
      rewritten = true;
    } else if (LONG_WITH_ARGUMENT.has(a)) {
      out.push(a, ...args.slice(i + 1, i + 2));
      i++;
      script ||= a !== "--line-length";
    } else if (a.startsWith("--")) {
      out.push(a);
      script ||= a.startsWith("--expression=") || a.startsWith("--file=");
    } else if (a.startsWith("-") && a !== "-") {
      // A cluster (`-ni.bak`): `i` takes the rest of the word as its suffix; `e`, `f`, `l` take their argument.
      let j = 1;
      while (j < a.length && a[j] !== "i" && !WITH_ARGUMENT.has(a[j] as string)) j++;
      if (a[j] === "i") {
        if (j > 1) out.push(a.slice(0, j));
        out.push("-i");
        suffix = a.slice(j + 1);
        rewritten ||= suffix !== "" || j > 1;
      } else {
        out.push(a);
        if (j < a.length) {
          script ||= a[j] !== "l";
          if (j === a.length - 1 && i + 1 < args.length) out.push(args[++i] as string);
        }
      }
    } else if (!script) {
      out.push(a);
      script = true;
    } else files.push(a);
  }
  if (!rewritten) return undefined;
  // No `*`: the suffix is added to the name; `*` alone (or nothing) means no backup.
  const pattern = suffix === undefined || suffix === "" ? undefined : suffix.includes("*") ? suffix : `*${suffix}`;
  return { args: out, files, backup: pattern === "*" ? undefined : pattern };
}

/** `sed` with GNU's in-place backups (see the top of this file); other command lines run as they are. */
export async function sedWithBackup(args: string[], ctx: SedContext, run: (args: string[]) => Promise<ExecResult>): Promise<ExecResult> {
  const parsed = sedInPlace(args);
  if (!parsed) return run(args);
  const { backup, files } = parsed;
  if (backup === undefined || files.length === 0) return run([...parsed.args, ...files]);
  let stdout = "";
  let stderr = "";
  const failed = (exitCode: number, line?: string): ExecResult => ({ stdout, stderr: line ? `${stderr}${line}\n` : stderr, exitCode });
  for (const file of files) {
    const abs = ctx.fs.resolvePath(ctx.cwd, file);
    const copy = ctx.fs.resolvePath(ctx.cwd, backup.replaceAll("*", file));
    const original = file === "-" || copy === abs ? undefined : await originalOf(ctx, abs);
    if (original) {
      const problem = await backupProblem(ctx, copy);
      if (problem) return failed(4, `sed: cannot rename ${file}: ${problem}`);
    }
    const r = await run([...parsed.args, file]);
    stdout += r.stdout;
    stderr += r.stderr;
    if (r.exitCode !== 0) return failed(r.exitCode);
    if (!original) continue;
    try {
      await ctx.fs.writeFile(copy, original.bytes);
      await ctx.fs.chmod(copy, original.mode);
      await ctx.fs.utimes(copy, original.mtime, original.mtime);
    } catch (e) {
      // GNU's sed leaves the file as it was when its original cannot become the backup.
      try {
        await ctx.fs.writeFile(abs, original.bytes);
        await ctx.fs.utimes(abs, original.mtime, original.mtime);
      } catch {
        // The edit stays; the failure below says the backup is missing.
      }
      return failed(4, e instanceof PathRefused ? `sed: ${e.message}` : `sed: cannot rename ${file}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  return { stdout, stderr, exitCode: 0 };
}

interface Original {
  bytes: Uint8Array;
  mode: number;
  mtime: Date;
}

/** A regular file's bytes, mode and time before the edit; undefined for what sed cannot edit (it says why). */
async function originalOf(ctx: SedContext, abs: string): Promise<Original | undefined> {
  try {
    const st = await ctx.fs.stat(abs);
    if (!st.isFile) return undefined;
    // A time of our own: the stat's object belongs to the running command (just-bash refuses it once the command ends).
    return { bytes: await ctx.fs.readFileBuffer(abs), mode: st.mode, mtime: new Date(st.mtime.getTime()) };
  } catch {
    return undefined;
  }
}

/** Why a backup could not be written at `path` (its directory missing, a directory in its place), or undefined. */
async function backupProblem(ctx: SedContext, path: string): Promise<string | undefined> {
  const parent = path.slice(0, path.lastIndexOf("/")) || "/";
  try {
    if (!(await ctx.fs.stat(parent)).isDirectory) return "Not a directory";
  } catch {
    return "No such file or directory";
  }
  try {
    if ((await ctx.fs.stat(path)).isDirectory) return "Is a directory";
  } catch {
    // Nothing there yet: the backup is new.
  }
  return undefined;
}
