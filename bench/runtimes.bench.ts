/**
 * Local sandbox engines in Node (real Pyodide, real isomorphic-git, real just-bash):
 *   npx vitest bench --run bench/runtimes.bench.ts
 * "cold" loads a fresh interpreter each iteration; "warm" reuses one (as the browser's Python Worker does).
 */
import { bench, describe } from "vitest";
import type { LocalSandbox } from "../src/adapters/sandbox/local/local-sandbox";
import { InProcessPythonHost } from "../src/adapters/sandbox/local/runtimes/python-host";
import { createLocalSandboxForTests } from "../src/adapters/sandbox/local/testing";

const python = new InProcessPythonHost();

function check(r: { exitCode: number; stderr: string }, what: string): void {
  if (r.exitCode !== 0) throw new Error(`${what} failed: ${r.stderr}`);
}

const tests = Array.from({ length: 20 }, (_, i) => `    def test_${i}(self):\n        self.assertEqual(add(${i}, 1), ${i + 1})\n`).join("\n");
const small = createLocalSandboxForTests({
  files: {
    "calc.py": "def add(a, b):\n    return a + b\n",
    "test_calc.py": `import unittest\nfrom calc import add\n\n\nclass T(unittest.TestCase):\n${tests}`,
    "script.js": "console.log(1)\n",
  },
  runtimes: { python, git: true },
});

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
