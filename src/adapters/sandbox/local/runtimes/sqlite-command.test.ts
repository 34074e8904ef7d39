import { describe, expect, it } from "vitest";
import { DEFAULT_RULES } from "../../../../core/permission/evaluate";
import { pathPolicy } from "../../../../core/permission/path-policy";
import type { ExecGuard } from "../../../../core/ports/sandbox";
import type { Ruleset } from "../../../../core/schema";
import { createLocalSandboxForTests } from "../testing";
import { nodeSqlite } from "../../../../testing/sqlite-node";
import { InProcessEngineHost } from "./engine-host";
import { runSqlite } from "./sqlite-driver";

// One real sqlite-wasm (the importer's build) for the file; expected outputs were taken from the real sqlite3 shell.
const sqlite = new InProcessEngineHost(nodeSqlite, runSqlite);
const SEED = "create table t(a,b); insert into t values(1,'x'),(2,'hello, \"w\"'),(null,3.5);";

async function sandbox(files: Record<string, string> = {}) {
  const sb = await createLocalSandboxForTests({ files, runtimes: { sqlite } });
  const r = await sb.exec(`sqlite3 t.db "${SEED.replace(/"/g, '\\"')}"`);
  expect(r.stderr).toBe("");
  return sb;
}

describe("sqlite3 in the local sandbox (real sqlite-wasm)", () => {
  it("creates the database file in the workspace and reads it back", async () => {
    const sb = await sandbox();
    const bytes = await sb.fs.readFile("/workspace/t.db");
    expect(new TextDecoder().decode(bytes.slice(0, 15))).toBe("SQLite format 3");
    const r = await sb.exec('sqlite3 t.db "select * from t"');
    expect(r).toMatchObject({ stdout: '1|x\n2|hello, "w"\n|3.5\n', exitCode: 0 });
  });

  it("prints list, csv, json, line, column, box, table and markdown like the real shell", async () => {
    const sb = await sandbox();
    const q = (opt: string) => sb.exec(`sqlite3 ${opt} t.db "select * from t"`).then((r) => r.stdout);
    expect(await q("-header")).toBe('a|b\n1|x\n2|hello, "w"\n|3.5\n');
    expect(await q("-csv")).toBe('1,x\n2,"hello, ""w"""\n,3.5\n');
    expect(await q("-json")).toBe('[{"a":1,"b":"x"},\n{"a":2,"b":"hello, \\"w\\""},\n{"a":null,"b":3.5}]\n');
    expect(await q("-line")).toBe('    a = 1\n    b = x\n\n    a = 2\n    b = hello, "w"\n\n    a = \n    b = 3.5\n');
    expect(await q("-column")).toBe('1  x         \n2  hello, "w"\n   3.5       \n');
    expect(await q("-table")).toBe(
      '+---+------------+\n| a |     b      |\n+---+------------+\n| 1 | x          |\n| 2 | hello, "w" |\n|   | 3.5        |\n+---+------------+\n',
    );
    expect(await q("-box")).toBe(
      "┌───┬────────────┐\n│ a │     b      │\n├───┼────────────┤\n│ 1 │ x          │\n│ 2 │ hello, \"w\" │\n│   │ 3.5        │\n└───┴────────────┘\n",
    );
    expect(await q("-markdown")).toBe('| a |     b      |\n|---|------------|\n| 1 | x          |\n| 2 | hello, "w" |\n|   | 3.5        |\n');
  });

  it("reads SQL and dot-commands from a heredoc: .mode column shows headers, .tables, .schema", async () => {
    const sb = await sandbox();
    await sb.exec('sqlite3 t.db "create table u(id integer primary key, name text not null unique); create index ix on t(a);"');
    const r = await sb.exec("sqlite3 t.db <<'EOF'\n.mode column\nselect * from t;\n.headers on\n.mode csv\nselect 1.0 as f, 1e20 as g, 2.5e-7 as h;\n.tables\n.schema u\nEOF");
    expect(r.stdout).toBe(
      'a  b         \n-  ----------\n1  x         \n2  hello, "w"\n   3.5       \nf,g,h\n1.0,1.0e+20,2.5e-07\nt  u\nCREATE TABLE u(id integer primary key, name text not null unique);\n',
    );
    expect(r.exitCode).toBe(0);
  });

  it("errors read like the real shell's, with its exit codes", async () => {
    const sb = await sandbox();
    await sb.exec('sqlite3 t.db "create table u(id integer primary key, name text not null unique)"');
    expect(await sb.exec('sqlite3 t.db "select * from x"')).toMatchObject({ stderr: "Error: in prepare, no such table: x\n", exitCode: 1 });
    const piped = await sb.exec("printf 'select 1;\\nselect * from nope;\\nselect 2;\\n' | sqlite3 t.db");
    expect(piped).toMatchObject({ stdout: "1\n2\n", stderr: "Parse error near line 2: no such table: nope\n", exitCode: 1 });
    expect((await sb.exec('sqlite3 t.db "selec 1"')).stderr).toBe('Error: in prepare, near "selec": syntax error\n  selec 1\n  ^--- error here\n');
    const unique = await sb.exec(`sqlite3 t.db "insert into u values(1,'a')" "insert into u values(2,'a')"`);
    expect(unique).toMatchObject({ stderr: "Error: stepping, UNIQUE constraint failed: u.name (19)\n", exitCode: 19 });
    expect(await sb.exec("sqlite3 t.db .bogus")).toMatchObject({ stderr: 'Error: unknown command or invalid arguments:  "bogus". Enter ".help" for help\n', exitCode: 1 });
    expect(await sb.exec("sqlite3 -bogus")).toMatchObject({ stderr: "sqlite3: Error: unknown option: -bogus\nUse -help for a list of options.\n", exitCode: 1 });
  });

  it(":memory: and a read-only query leave the workspace as it was", async () => {
    const sb = await sandbox();
    const before = await sb.snapshot();
    expect((await sb.exec('sqlite3 :memory: "create table m(x); insert into m values(7); select * from m"')).stdout).toBe("7\n");
    expect((await sb.exec('sqlite3 t.db "select count(*) from t"')).stdout).toBe("3\n");
    expect(await sb.snapshot()).toBe(before);
    expect((await sb.exec("ls")).stdout).toBe("t.db\n");
  });

  it("a runaway query is interrupted at the command timeout and the database is unchanged", async () => {
    const sb = await sandbox();
    const before = await sb.fs.readFile("/workspace/t.db");
    const r = await sb.exec('sqlite3 t.db "insert into t select 1, 2; with recursive c(x) as (select 1 union all select x+1 from c) select count(*) from c"', { timeoutMs: 2000 });
    expect(r.exitCode).toBe(124);
    expect(r.stderr).toContain("sqlite3: stopped after 2 s (the command timeout)");
    expect(await sb.fs.readFile("/workspace/t.db")).toEqual(before);
    expect((await sb.exec('sqlite3 t.db "select count(*) from t"')).stdout).toBe("3\n");
  });

  it("huge output is cut with a note; a memory-hungry query gets SQLite's out-of-memory error", async () => {
    const sb = await sandbox();
    const big = await sb.exec('sqlite3 :memory: "with recursive c(x) as (select 1 union all select x+1 from c limit 100000) select x, printf(\'%060d\', x) from c"', { timeoutMs: 60_000 });
    expect(big.stderr).toContain("sqlite3: output truncated (more than 4 MB)");
    expect(big.stdout.length).toBeLessThanOrEqual(4 * 1024 * 1024);
    const mem = await sb.exec('sqlite3 :memory: "select length(group_concat(randomblob(1000000))) from (with recursive c(x) as (select 1 union all select x+1 from c limit 400) select x from c)"', { timeoutMs: 60_000 });
    expect(mem.stderr).toMatch(/out of memory|string or blob too big/);
    expect(mem.exitCode).not.toBe(0);
  }, 90_000);

  it("opens files only inside the workspace or /tmp, and a protect rule stops the write-back", async () => {
    const sb = await sandbox();
    expect(await sb.exec('sqlite3 /etc/x.db "create table z(a)"')).toMatchObject({ exitCode: 1, stderr: expect.stringContaining("inside the workspace (/workspace) or /tmp only") });
    expect(await sb.exec('sqlite3 ../x.db "create table z(a)"')).toMatchObject({ exitCode: 1 });
    expect(await sb.fs.exists("/x.db")).toBe(false);
    expect((await sb.exec('sqlite3 /tmp/s.db "create table z(a)" && ls /tmp')).stdout).toBe("s.db\n");
    await sb.exec("mkdir config && cp t.db config/app.db");
    const before = await sb.fs.readFile("/workspace/config/app.db");
    const rules: Ruleset = [...DEFAULT_RULES, { permission: "protect", pattern: "config/**", action: "deny" }];
    const refusals: string[] = [];
    const guard: ExecGuard = { policy: pathPolicy("/workspace", [rules]), pathRefused: (r) => refusals.push(r.message) };
    const r = await sb.exec('sqlite3 config/app.db "delete from t"', { guard });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('protected by your rule "protect config/**"');
    expect(await sb.fs.readFile("/workspace/config/app.db")).toEqual(before);
    expect(refusals).toHaveLength(1);
  });
});
