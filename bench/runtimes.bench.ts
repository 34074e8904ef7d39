/**
 * Local sandbox engines in Node (real Pyodide, real isomorphic-git, real just-bash):
 *   npx vitest bench --run bench/runtimes.bench.ts
 * "cold" loads a fresh interpreter each iteration; "warm" reuses one (as the browser's Python Worker does).
 */
import { bench, describe } from "vitest";
import type { LocalSandbox } from "../src/adapters/sandbox/local/local-sandbox";
import { InProcessEngineHost } from "../src/adapters/sandbox/local/runtimes/engine-host";
import { runNode } from "../src/adapters/sandbox/local/runtimes/node-driver";
import { loadQuickJS } from "../src/adapters/sandbox/local/runtimes/node-host";
import { InProcessPythonHost } from "../src/adapters/sandbox/local/runtimes/python-host";
import { runSqlite } from "../src/adapters/sandbox/local/runtimes/sqlite-driver";
import { createLocalSandboxForTests } from "../src/adapters/sandbox/local/testing";
import { nodeSqlite } from "../src/testing/sqlite-node";

const python = new InProcessPythonHost();
const node = new InProcessEngineHost(loadQuickJS, runNode);
const sqlite = new InProcessEngineHost(nodeSqlite, runSqlite);

function check(r: { exitCode: number; stderr: string }, what: string): void {
  if (r.exitCode !== 0) throw new Error(`${what} failed: ${r.stderr}`);
}

const tests = Array.from({ length: 20 }, (_, i) => `    def test_${i}(self):\n        self.assertEqual(add(${i}, 1), ${i + 1})\n`).join("\n");
const small = createLocalSandboxForTests({
  files: {
    "calc.py": "def add(a, b):\n    return a + b\n",
    "test_calc.py": `import unittest\nfrom calc import add\n\n\nclass T(unittest.TestCase):\n${tests}`,
    "script.js": "console.log(1)\n",
    "work.js": "const fs = require('fs');\nconst rows = [];\nfor (let i = 0; i < 1000; i++) rows.push({ i, sq: i * i });\nfs.writeFileSync('rows.json', JSON.stringify(rows));\nconsole.log(rows.length);\n",
  },
  runtimes: { python, git: true, node, sqlite },
});
const db = small.then(async (sb) => {
  const rows = Array.from({ length: 1000 }, (_, i) => `(${i}, 'name ${i}')`).join(",");
  check(await sb.exec(`sqlite3 app.db "create table t(id integer primary key, name text); insert into t values ${rows};"`), "seed db");
  return sb;
});
let inserted = 0;

async function bigRepo(): Promise<LocalSandbox> {
  const files: Record<string, string> = {};
  for (let i = 0; i < 1000; i++) files[`pkg${i % 20}/mod${i}.py`] = `VALUE_${i} = ${i}\n`;
  const sb = await createLocalSandboxForTests({ files, runtimes: { git: true } });
  check(await sb.exec("git init -q && git add -A && git commit -qm base"), "seed commit");
  return sb;
}
const big = bigRepo();
let round = 0;

describe("python3 (Pyodide)", () => {
  bench(
    'cold: new interpreter + python3 -c "print(1)"',
    async () => {
      const sb = await createLocalSandboxForTests({ runtimes: { python: new InProcessPythonHost() } });
      check(await sb.exec('python3 -c "print(1)"'), "cold print");
    },
    { iterations: 3, warmupIterations: 0 },
  );
  bench('warm: python3 -c "print(1)"', async () => check(await (await small).exec('python3 -c "print(1)"'), "print"), { iterations: 30 });
  bench("warm: python3 -m unittest (20 tests)", async () => check(await (await small).exec("python3 -m unittest -q"), "unittest"), { iterations: 15 });
  bench("baseline: just-bash echo 1 | cat", async () => check(await (await small).exec("echo 1 | cat"), "echo"), { iterations: 30 });
  bench("baseline: just-bash grep -c add calc.py", async () => check(await (await small).exec("grep -c add calc.py"), "grep"), { iterations: 30 });
});

describe("node (QuickJS)", () => {
  bench(
    "cold: load QuickJS + node script.js",
    async () => {
      const sb = await createLocalSandboxForTests({ files: { "script.js": "console.log(1)\n" }, runtimes: { node: new InProcessEngineHost(loadQuickJS, runNode) } });
      check(await sb.exec("node script.js"), "cold node");
    },
    { iterations: 5, warmupIterations: 0 },
  );
  bench("warm: node script.js (console.log)", async () => check(await (await small).exec("node script.js"), "node"), { iterations: 30 });
  bench("warm: node work.js (1,000 rows → fs.writeFileSync)", async () => check(await (await small).exec("node work.js"), "node work"), { iterations: 15 });
});

describe("sqlite3 (sqlite-wasm), 1,000-row table", () => {
  bench("warm: sqlite3 app.db \"select count(*) …\"", async () => check(await (await db).exec('sqlite3 app.db "select count(*) from t where name like \'%5%\'"'), "query"), {
    iterations: 30,
  });
  bench("warm: sqlite3 -json app.db (100 rows)", async () => check(await (await db).exec('sqlite3 -json app.db "select * from t limit 100"'), "json"), { iterations: 30 });
  bench(
    "warm: sqlite3 insert (database written back)",
    async () => {
      inserted++;
      check(await (await db).exec(`sqlite3 app.db "insert into t(name) values ('bench ${inserted}')"`), "insert");
    },
    { iterations: 15 },
  );
});

describe("git (isomorphic-git), 1,000-file workspace", () => {
  bench("git status (clean)", async () => check(await (await big).exec("git status --short"), "status"), { iterations: 10 });
  bench(
    "edit 3 files + git commit -am",
    async () => {
      const sb = await big;
      round++;
      for (const i of [3, 500, 999]) await sb.fs.writeFile(`/workspace/pkg${i % 20}/mod${i}.py`, `VALUE = ${round}\n`);
      check(await sb.exec(`git commit -qam "round ${round}"`), "commit");
    },
    { iterations: 10 },
  );
});
