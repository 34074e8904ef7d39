/**
 * The sqlite3 shell's dot-commands that make sense over a workspace file:
 * .tables, .schema, .indexes, .headers, .mode, .separator, .nullvalue, .bail,
 * .help, .quit/.exit. Anything else fails with the shell's own words.
 */
import type { Oo1DB } from "@sqlite.org/sqlite-wasm";
import { DOT_HELP, SQLITE_MODES, type SqliteArgs, type SqliteMode, setMode } from "./sqlite-args";
import { formatNames } from "./sqlite-format";

/** What a dot-command reads and changes in the running shell. */
export interface DotShell {
  readonly db: Oo1DB;
  readonly args: SqliteArgs;
  failed: boolean;
  exitCode: number | undefined;
  print(text: string): void;
  error(text: string): void;
}

/** Splits a dot-command into words (quotes group, as in the shell). */
function words(line: string): string[] {
  const out: string[] = [];
  const re = /"((?:[^"\\]|\\.)*)"|'([^']*)'|(\S+)/g;
  for (const m of line.matchAll(re)) out.push(m[1] ?? m[2] ?? m[3] ?? "");
  return out;
}

function onOff(v: string | undefined): boolean | undefined {
  if (v === undefined) return undefined;
  if (/^(on|yes|true|1)$/i.test(v)) return true;
  if (/^(off|no|false|0)$/i.test(v)) return false;
  return undefined;
}

function names(shell: DotShell, sql: string, bind: string[]): string[] {
  return shell.db.selectObjects(sql, bind).map((r) => String(Object.values(r)[0] ?? ""));
}

/** Runs one dot-command; false when it failed. */
export function runDotCommand(shell: DotShell, line: string): boolean {
  const [cmd = "", ...rest] = words(line.slice(1));
  const out = shell.args.out;
  const usage = (text: string) => {
    shell.error(`Usage: ${text}`);
    return false;
  };
  switch (cmd) {
    case "tables": {
      const like = rest[0] ?? "%";
      shell.print(
        formatNames(
          names(shell, "SELECT name FROM sqlite_schema WHERE type IN ('table','view') AND name NOT LIKE 'sqlite_%' AND name LIKE ? ORDER BY 1", [like]),
        ),
      );
      return true;
    }
    case "schema": {
      const like = rest[0] ?? "%";
      const sql = names(shell, "SELECT sql FROM sqlite_schema WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%' AND tbl_name LIKE ? ORDER BY rowid", [like]);
      for (const s of sql) shell.print(`${s};\n`);
      return true;
    }
    case "indexes":
    case "indices": {
      const like = rest[0] ?? "%";
      shell.print(formatNames(names(shell, "SELECT name FROM sqlite_schema WHERE type='index' AND tbl_name LIKE ? ORDER BY 1", [like])));
      return true;
    }
    case "header":
    case "headers": {
      const v = onOff(rest[0]);
      if (v === undefined) return usage(".headers on|off");
      out.headers = v;
      out.headersSet = true;
      return true;
    }
    case "bail": {
      const v = onOff(rest[0]);
      if (v === undefined) return usage(".bail on|off");
      shell.args.bail = v;
      return true;
    }
    case "mode": {
      const m = rest[0];
      if (m === undefined) {
        shell.print(`current output mode: ${out.mode}\n`);
        return true;
      }
      if (!(SQLITE_MODES as readonly string[]).includes(m)) {
        shell.error(`Error: mode should be one of: ${SQLITE_MODES.join(" ")}`);
        return false;
      }
      setMode(out, m as SqliteMode, true);
      return true;
    }
    case "separator": {
      if (rest[0] === undefined) return usage(".separator COL ?ROW?");
      out.separator = rest[0].replace(/\\t/g, "\t");
      return true;
    }
    case "nullvalue": {
      if (rest[0] === undefined) return usage(".nullvalue STRING");
      out.nullValue = rest[0];
      return true;
    }
    case "help":
      shell.print(DOT_HELP);
      return true;
    case "quit":
      shell.exitCode = shell.exitCode ?? (shell.failed ? 1 : 0);
      return true;
    case "exit": {
      const code = Number(rest[0] ?? "0");
      shell.exitCode = Number.isInteger(code) ? code & 0xff : 0;
      return true;
    }
    default:
      if (["read", "import", "dump", "open", "output", "once", "backup", "save", "restore", "load", "shell", "system"].includes(cmd)) {
        shell.error(`Error: .${cmd} is not available in the local sandbox's sqlite3 (it runs SQL and the display commands; see .help).`);
        return false;
      }
      shell.error(`Error: unknown command or invalid arguments:  "${cmd}". Enter ".help" for help`);
      return false;
  }
}
