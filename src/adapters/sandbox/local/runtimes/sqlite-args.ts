/**
 * The `sqlite3` command line, as the real shell reads it: options, then the
 * database file, then SQL or dot-commands (each argument run in turn).
 */

export type SqliteMode = "list" | "csv" | "json" | "line" | "column" | "box" | "table" | "markdown" | "tabs" | "quote";

export const SQLITE_MODES: readonly SqliteMode[] = ["box", "column", "csv", "json", "line", "list", "markdown", "quote", "table", "tabs"];

export interface SqliteOutput {
  mode: SqliteMode;
  headers: boolean;
  /** Set explicitly (then `.mode column` does not switch headers on). */
  headersSet: boolean;
  separator: string;
  nullValue: string;
}

export interface SqliteArgs {
  /** The database as written (undefined or ":memory:": in memory only). */
  db?: string;
  /** SQL or dot-commands given after the database. */
  commands: string[];
  /** `-cmd` commands, run before the rest. */
  init: string[];
  out: SqliteOutput;
  bail: boolean;
  readonly: boolean;
  version: boolean;
  help: boolean;
}

export type ParsedArgs = { ok: true; value: SqliteArgs } | { ok: false; message: string };

export function defaultOutput(): SqliteOutput {
  return { mode: "list", headers: false, headersSet: false, separator: "|", nullValue: "" };
}

/** Switches the output mode the way `.mode X` / `-X` do. */
export function setMode(out: SqliteOutput, mode: SqliteMode, fromDotCommand: boolean): void {
  out.mode = mode;
  if (mode === "csv") out.separator = ",";
  else if (mode === "tabs") out.separator = "\t";
  else if (mode === "list" && (out.separator === "," || out.separator === "\t")) out.separator = "|";
  // The shell's `.mode column/box/table/markdown` show headers unless .headers was set.
  if (fromDotCommand && mode === "column" && !out.headersSet) out.headers = true;
}

const VALUE_OPTIONS = new Set(["-separator", "-nullvalue", "-cmd", "-newline"]);
const FLAG_OPTIONS = new Set(["-batch", "-interactive", "-echo", "-init"]);

export function parseSqliteArgs(args: readonly string[]): ParsedArgs {
  const out = defaultOutput();
  const v: SqliteArgs = { commands: [], init: [], out, bail: false, readonly: false, version: false, help: false };
  let i = 0;
  for (; i < args.length; i++) {
    const raw = args[i] ?? "";
    if (!raw.startsWith("-") || raw === "-") break;
    const a = raw.replace(/^--/, "-");
    if (VALUE_OPTIONS.has(a)) {
      const val = args[++i];
      if (val === undefined) return { ok: false, message: `sqlite3: Error: missing argument to ${raw}` };
      if (a === "-separator") out.separator = val;
      else if (a === "-nullvalue") out.nullValue = val;
      else if (a === "-cmd") v.init.push(val);
    } else if ((SQLITE_MODES as readonly string[]).includes(a.slice(1))) setMode(out, a.slice(1) as SqliteMode, false);
    else if (a === "-header" || a === "-headers") {
      out.headers = true;
      out.headersSet = true;
    } else if (a === "-noheader" || a === "-noheaders") {
      out.headers = false;
      out.headersSet = true;
    } else if (a === "-bail") v.bail = true;
    else if (a === "-readonly") v.readonly = true;
    else if (a === "-version") v.version = true;
    else if (a === "-help") v.help = true;
    else if (!FLAG_OPTIONS.has(a)) return { ok: false, message: `sqlite3: Error: unknown option: ${raw}\nUse -help for a list of options.` };
  }
  v.db = args[i];
  v.commands = args.slice(i + 1);
  return { ok: true, value: v };
}

/** True when the database lives in memory only. */
export function inMemory(db: string | undefined): boolean {
  return db === undefined || db === "" || db === ":memory:";
}

export const SQLITE_HELP = `Usage: sqlite3 [OPTIONS] FILENAME [SQL...]
FILENAME is the name of an SQLite database (in the workspace). A new database
is created if the file does not exist; ":memory:" or no name keeps it in memory.
OPTIONS include:
   -box -column -csv -json -line -list -markdown -quote -table -tabs   output mode
   -header / -noheader   turn headers on or off
   -separator SEP        field separator for list mode
   -nullvalue TEXT       text for NULL values
   -cmd COMMAND          run COMMAND before reading input
   -bail                 stop after hitting an error
   -readonly             open the database read-only
   -version              show the SQLite version
`;

export const DOT_HELP = `.bail on|off             Stop after hitting an error
.exit ?CODE?             Exit this program with return-code CODE
.headers on|off          Turn display of headers on or off
.help                    Show this message
.indexes ?TABLE?         Show names of indexes
.mode MODE               Set output mode (box column csv json line list markdown quote table tabs)
.nullvalue STRING        Use STRING in place of NULL values
.quit                    Exit this program
.schema ?PATTERN?        Show the CREATE statements matching PATTERN
.separator SEP           Change the column separator
.tables ?PATTERN?        List names of tables matching a LIKE pattern
`;
