/**
 * One `sqlite3 …` invocation over a loaded sqlite-wasm: the database file's
 * bytes are opened in memory, the SQL and dot-commands run like the real
 * shell runs them (statement by statement, its error words and exit codes),
 * and the database comes back only when its bytes changed. Pure over the
 * sqlite-wasm instance, so Node tests and the browser Worker share it.
 */
import type { Oo1DB, Sqlite3 } from "@sqlite.org/sqlite-wasm";
import type { EngineRequest, EngineResult } from "./engine-protocol";
import { inMemory, parseSqliteArgs, SQLITE_HELP, type SqliteArgs } from "./sqlite-args";
import { type Cell, formatReal, formatRow, formatTable, streamsRows } from "./sqlite-format";
import { runDotCommand } from "./sqlite-dot";
import { engineBudget } from "./engine-host";
import { sameBytes } from "../../../../core/util/bytes";

/** sqlite-wasm's C API, as far as the shell uses it. */
export type ShellSqlite = Sqlite3 & {
  capi: Sqlite3["capi"] & {
    sqlite3_prepare_v2(db: number, sql: number, len: number, ppStmt: number, pzTail: number): number;
    sqlite3_step(stmt: number): number;
    sqlite3_finalize(stmt: number): number;
    sqlite3_column_count(stmt: number): number;
    sqlite3_column_name(stmt: number, i: number): string;
    sqlite3_column_type(stmt: number, i: number): number;
    sqlite3_column_text(stmt: number, i: number): string | null;
    sqlite3_column_double(stmt: number, i: number): number;
    sqlite3_errmsg(db: number): string;
    sqlite3_error_offset?(db: number): number;
    sqlite3_complete(sql: string): number;
    sqlite3_progress_handler(db: number, n: number, handler: ((arg: number) => number) | null, arg: number): void;
  };
  wasm: Sqlite3["wasm"] & {
    peekPtr(ptr: number): number;
    dealloc(ptr: number): void;
    pstack: { pointer: number; alloc(n: number): number; restore(ptr: number): void };
  };
};

export const MAX_SQL_OUTPUT = 4 * 1024 * 1024;
/** Heap the database may use (a runaway query gets "out of memory", not a dead tab). */
const HEAP_LIMIT = 256 * 1024 * 1024;
const SQLITE_ROW = 100;
const SQLITE_DONE = 101;
const SQLITE_INTERRUPT = 9;

class Stopped extends Error {}

export class SqliteShell {
  stdout = "";
  stderr = "";
  failed = false;
  exitCode: number | undefined;
  private dropped = false;
  interrupted = false;

  constructor(
    readonly sqlite3: ShellSqlite,
    readonly db: Oo1DB,
    readonly args: SqliteArgs,
  ) {}

  print(text: string): void {
    if (this.stdout.length + text.length <= MAX_SQL_OUTPUT) this.stdout += text;
    else this.dropped = true;
  }
  error(text: string): void {
    if (this.stderr.length < MAX_SQL_OUTPUT) this.stderr += `${text}\n`;
  }
  get truncated(): boolean {
    return this.dropped;
  }

  /** Runs every statement of `sql`; false after an error. */
  runSql(sql: string, fromArg: boolean, firstLine: number): boolean {
    const { capi, wasm } = this.sqlite3;
    const pSql = wasm.allocCString(sql);
    const stack = wasm.pstack.pointer;
    const bytes = new TextEncoder().encode(sql);
    try {
      const ppStmt = wasm.pstack.alloc(8);
      const ppTail = wasm.pstack.alloc(8);
      let cur = pSql;
      const end = pSql + bytes.length;
      while (cur < end) {
        const rc = capi.sqlite3_prepare_v2(this.db.pointer, cur, -1, ppStmt, ppTail);
        const pStmt = wasm.peekPtr(ppStmt);
        const tail = wasm.peekPtr(ppTail) || end;
        const line = firstLine + countLines(bytes, 0, cur - pSql + leadingBlank(bytes, cur - pSql));
        if (rc !== 0) {
          this.reportPrepare(bytes, cur - pSql, bytes.length, fromArg, line);
          return false;
        }
        if (pStmt) {
          const stepRc = this.step(pStmt);
          capi.sqlite3_finalize(pStmt);
          if (stepRc !== SQLITE_DONE) {
            this.reportStep(stepRc, fromArg, line);
            return false;
          }
        }
        if (tail <= cur) break;
        cur = tail;
      }
      return true;
    } finally {
      wasm.pstack.restore(stack);
      wasm.dealloc(pSql);
    }
  }

  private step(pStmt: number): number {
    const { capi } = this.sqlite3;
    const n = capi.sqlite3_column_count(pStmt);
    const cols = Array.from({ length: n }, (_, i) => capi.sqlite3_column_name(pStmt, i));
    const streaming = streamsRows(this.args.out);
    const rows: Cell[][] = [];
    let first = true;
    let buffered = 0;
    let rc = capi.sqlite3_step(pStmt);
    for (; rc === SQLITE_ROW; rc = capi.sqlite3_step(pStmt)) {
      const row = Array.from({ length: n }, (_, i) => this.cell(pStmt, i));
      if (streaming) this.print(formatRow(cols, row, this.args.out, first));
      else if (buffered < MAX_SQL_OUTPUT) {
        rows.push(row);
        buffered += row.reduce((s, c) => s + (c.kind === "null" ? 4 : c.text.length + 3), 0);
      } else this.dropped = true;
      first = false;
    }
    if (!streaming) this.print(formatTable(cols, rows, this.args.out));
    return rc;
  }

  private cell(pStmt: number, i: number): Cell {
    const { capi } = this.sqlite3;
    switch (capi.sqlite3_column_type(pStmt, i)) {
      case 1:
        return { kind: "int", text: capi.sqlite3_column_text(pStmt, i) ?? "" };
      case 2:
        return { kind: "real", text: formatReal(capi.sqlite3_column_double(pStmt, i)) };
      case 5:
        return { kind: "null" };
      case 4:
        return { kind: "blob", text: capi.sqlite3_column_text(pStmt, i) ?? "" };
      default:
        return { kind: "text", text: capi.sqlite3_column_text(pStmt, i) ?? "" };
    }
  }

  private message(): string {
    return this.sqlite3.capi.sqlite3_errmsg(this.db.pointer);
  }

  private reportPrepare(bytes: Uint8Array, from: number, to: number, fromArg: boolean, line: number): void {
    const msg = this.message();
    const offset = this.sqlite3.capi.sqlite3_error_offset?.(this.db.pointer) ?? -1;
    const context = offset >= 0 ? errorContext(bytes, from, to, offset) : "";
    this.error(`${fromArg ? "Error: in prepare, " : `Parse error near line ${line}: `}${msg}${context}`);
  }

  private reportStep(rc: number, fromArg: boolean, line: number): void {
    if ((rc & 0xff) === SQLITE_INTERRUPT && this.interrupted) throw new Stopped();
    const msg = this.message();
    this.error(fromArg ? `Error: stepping, ${msg} (${rc & 0xff})` : `Runtime error near line ${line}: ${msg} (${rc & 0xff})`);
    if (fromArg) this.exitCode ??= rc & 0xff;
  }

  /** Standard input: dot-commands on their own lines, SQL up to each complete statement. */
  runInput(text: string): void {
    const lines = text.split("\n");
    let buf = "";
    let start = 1;
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i] ?? "";
      if (!buf.trim() && line.trimStart().startsWith(".")) {
        buf = "";
        if (!runDotCommand(this, line.trim())) this.failed = true;
        if (this.exitCode !== undefined || (this.failed && this.args.bail)) return;
        continue;
      }
      if (!buf.trim()) start = i + 1;
      buf += `${line}\n`;
      if (this.sqlite3.capi.sqlite3_complete(buf)) {
        if (!this.runSql(buf, false, start)) this.failed = true;
        buf = "";
        if (this.failed && this.args.bail) return;
      }
    }
    if (buf.trim() && !this.runSql(buf, false, start)) this.failed = true;
  }

  /** Arguments after the database: each SQL text or dot-command in turn; stops at the first error. */
  runArgs(commands: string[]): boolean {
    for (const c of commands) {
      const ok = c.trimStart().startsWith(".") ? runDotCommand(this, c.trim()) : this.runSql(c, true, 1);
      if (!ok) {
        this.failed = true;
        return false;
      }
      if (this.exitCode !== undefined) return false;
    }
    return true;
  }
}

function leadingBlank(bytes: Uint8Array, at: number): number {
  let n = 0;
  while (at + n < bytes.length && (bytes[at + n] === 32 || bytes[at + n] === 10 || bytes[at + n] === 9 || bytes[at + n] === 13)) n++;
  return n;
}

function countLines(bytes: Uint8Array, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) if (bytes[i] === 10) n++;
  return n;
}

/** The shell's "  selec 1\n  ^--- error here" under the statement's line. */
function errorContext(bytes: Uint8Array, from: number, to: number, offset: number): string {
  const text = new TextDecoder().decode(bytes.subarray(from, to));
  const before = new TextDecoder().decode(bytes.subarray(from, Math.min(to, from + offset)));
  const lineStart = before.lastIndexOf("\n") + 1;
  const lineEnd = text.indexOf("\n", before.length);
  const line = text.slice(lineStart, lineEnd < 0 ? undefined : lineEnd).replace(/;\s*$/, "");
  const trimmed = line.trimStart();
  const col = Math.max(0, before.length - lineStart - (line.length - trimmed.length));
  return `\n  ${trimmed}\n  ${" ".repeat(col)}^--- error here`;
}


function openDb(sqlite3: ShellSqlite, data: Uint8Array | undefined): Oo1DB {
  const db = new sqlite3.oo1.DB(":memory:", "c");
  if (data?.length) {
    const { capi, wasm } = sqlite3;
    const p = wasm.allocFromTypedArray(data);
    const rc = capi.sqlite3_deserialize(db.pointer, "main", p, data.length, data.length, capi.SQLITE_DESERIALIZE_FREEONCLOSE | capi.SQLITE_DESERIALIZE_RESIZEABLE);
    if (rc !== 0) {
      db.close();
      throw new Error("file is not a database");
    }
  }
  db.exec(`PRAGMA hard_heap_limit=${HEAP_LIMIT}`);
  return db;
}

function result(stdout: string, stderr: string, exitCode: number, writes: EngineResult["writes"] = {}): EngineResult {
  return { stdout, stderr, exitCode, writes, removes: [] };
}

/** Runs one command line; `req.files` holds the database file under its name as written (when it exists). */
export function runSqlite(sqlite: Sqlite3, req: EngineRequest): EngineResult {
  const sqlite3 = sqlite as ShellSqlite;
  const parsed = parseSqliteArgs(req.args);
  if (!parsed.ok) return result("", `${parsed.message}\n`, 1);
  const args = parsed.value;
  if (args.help) return result(SQLITE_HELP, "", 0);
  if (args.version) return result(`${sqlite3.version.libVersion}\n`, "", 0);
  const name = args.db;
  const before = name === undefined ? undefined : req.files[name];
  let db: Oo1DB;
  try {
    db = openDb(sqlite3, before);
  } catch {
    return result("", `Error: unable to open database "${name}": file is not a database\n`, 1);
  }
  const shell = new SqliteShell(sqlite3, db, args);
  const deadline = req.timeoutMs ? Date.now() + engineBudget(req.timeoutMs) : Number.POSITIVE_INFINITY;
  sqlite3.capi.sqlite3_progress_handler(
    db.pointer,
    10_000,
    () => {
      if (Date.now() <= deadline) return 0;
      shell.interrupted = true;
      return 1;
    },
    0,
  );
  try {
    shell.runArgs(args.init);
    if (shell.exitCode === undefined) {
      if (args.commands.length) shell.runArgs(args.commands);
      else shell.runInput(req.stdin);
    }
  } catch (e) {
    if (!(e instanceof Stopped)) throw e;
    db.close();
    const secs = Math.round((req.timeoutMs ?? 0) / 1000);
    return result(shell.stdout, `${shell.stderr}sqlite3: stopped after ${secs} s (the command timeout); the query was interrupted and the database left unchanged.\n`, 124);
  }
  if (shell.truncated) shell.error("sqlite3: output truncated (more than 4 MB)");
  const writes: EngineResult["writes"] = {};
  if (name !== undefined && !inMemory(name) && !args.readonly) {
    let after: Uint8Array | undefined;
    try {
      after = sqlite3.capi.sqlite3_js_db_export(db.pointer);
    } catch {
      after = undefined; // An empty database has nothing to export.
    }
    if (after?.length && !(before && sameBytes(before, after))) writes[name] = after;
  }
  db.close();
  return result(shell.stdout, shell.stderr, shell.exitCode ?? (shell.failed ? 1 : 0), writes);
}
