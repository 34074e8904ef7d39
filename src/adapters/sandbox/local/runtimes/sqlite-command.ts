/**
 * `sqlite3` as a just-bash command: the database file is read through the
 * sandbox fs, the shell runs in sqlite-wasm (its own Worker in the browser),
 * and a changed database is written back through the sandbox fs, so
 * tracking, persistence and protect rules apply.
 */
import type { CustomCommand, defineCommand as DefineCommand } from "just-bash";
import type { IFileSystem } from "just-bash";
import { PathRefused, SCRATCH_DIR } from "../../../../core/permission/path-policy";
import { dirname, isInside } from "../../../../core/sandbox-path";
import type { EngineHost } from "./engine-protocol";
import { decodeStdin } from "./python-command";
import { inMemory, parseSqliteArgs } from "./sqlite-args";

export interface SqliteCommandDeps {
  host: EngineHost;
  root: string;
  timeoutMs: () => number;
  progress?: (text: string) => void;
}

/** Largest database file the command opens (it is copied into memory). */
export const MAX_DB_BYTES = 256 * 1024 * 1024;

export function sqliteCommand(defineCommand: typeof DefineCommand, deps: SqliteCommandDeps): CustomCommand {
  return defineCommand("sqlite3", async (args, ctx) => {
    const fail = (text: string, exitCode = 1) => ({ stdout: "", stderr: `${text}\n`, exitCode });
    const parsed = parseSqliteArgs(args);
    const db = parsed.ok ? parsed.value.db : undefined;
    const files: Record<string, Uint8Array> = {};
    let abs: string | undefined;
    if (parsed.ok && db !== undefined && !inMemory(db)) {
      abs = ctx.fs.resolvePath(ctx.cwd, db);
      if (!isInside(deps.root, abs) && !isInside(SCRATCH_DIR, abs))
        return fail(`Error: unable to open database "${db}": sqlite3 opens database files inside the workspace (${deps.root}) or ${SCRATCH_DIR} only`);
      if (!(await ctx.fs.exists(abs))) {
        if (!(await ctx.fs.exists(dirname(abs)))) return fail(`Error: unable to open database "${db}": unable to open database file`);
      } else {
        const st = await ctx.fs.stat(abs);
        if (!st.isFile) return fail(`Error: unable to open database "${db}": unable to open database file`);
        if (st.size > MAX_DB_BYTES) return fail(`Error: unable to open database "${db}": the file is larger than ${MAX_DB_BYTES >> 20} MB`);
        files[db] = await ctx.fs.readFileBuffer(abs);
      }
    }
    const env = Object.fromEntries(ctx.exportedEnv ? Object.entries(ctx.exportedEnv) : ctx.env.entries());
    const r = await deps.host.run(
      { files, cwd: ctx.cwd, args, stdin: decodeStdin(ctx.stdin), env, timeoutMs: deps.timeoutMs() },
      { timeoutMs: deps.timeoutMs(), signal: ctx.signal, onProgress: deps.progress },
    );
    const data = db === undefined ? undefined : r.writes[db];
    const refused = abs && data ? await writeDb(ctx.fs, abs, data) : undefined;
    if (refused) return { stdout: r.stdout, stderr: `${r.stderr}sqlite3: ${refused}; the database was not changed\n`, exitCode: r.exitCode || 1 };
    return { stdout: r.stdout, stderr: r.stderr, exitCode: r.exitCode };
  });
}

/** Writes the changed database through the sandbox fs; the refusal's words when a path rule stops it. */
async function writeDb(fs: IFileSystem, abs: string, data: Uint8Array): Promise<string | undefined> {
  try {
    await fs.writeFile(abs, data);
    return undefined;
  } catch (e) {
    if (e instanceof PathRefused) return e.message;
    throw e;
  }
}
