/**
 * Local sandbox costs in Node (real just-bash, in-memory store):
 *   npx vitest bench --run bench/sandbox.bench.ts
 */
import { bench, describe } from "vitest";
import { createLocalSandboxForTests } from "../src/adapters/sandbox/local/testing";
import type { LocalSandbox } from "../src/adapters/sandbox/local/local-sandbox";
import { grepTool } from "../src/core/tools/grep";
import { makeToolContext } from "../src/testing/workspace-tool-context";

async function workspace(files: number): Promise<LocalSandbox> {
  const seed: Record<string, string> = {};
  for (let i = 0; i < files; i++) seed[`pkg${i % 20}/mod${i}.ts`] = `export const value${i} = ${i};\n// TODO item ${i}\n`;
  return createLocalSandboxForTests({ files: seed });
}

const ready = workspace(1000);
let round = 0;

describe("local sandbox, 1,000-file workspace", () => {
  bench(
    "snapshot + 3 changed files + snapshot + changed()",
    async () => {
      const sb = await ready;
      const a = await sb.snapshot();
      round++;
      for (const i of [3, 500, 999]) await sb.fs.writeFile(`/workspace/pkg${i % 20}/mod${i}.ts`, `export const v = ${round};\n`);
      const b = await sb.snapshot();
      const changed = await sb.changed(a, b);
      if (changed.length !== 3) throw new Error(`expected 3 changed files, got ${changed.length}`);
    },
    { iterations: 20 },
  );

  bench(
    "grep tool over 1,000 files",
    async () => {
      const sb = await ready;
      const r = await grepTool.run({ pattern: "TODO item 9\\d\\d" }, makeToolContext({ sandbox: sb }));
      if (!r.ok) throw new Error(r.error);
    },
    { iterations: 20 },
  );

  bench(
    "1,000 small bash commands",
    async () => {
      const sb = await ready;
      for (let i = 0; i < 1000; i++) await sb.exec(`echo ${i} > /tmp/n.txt`);
    },
    { iterations: 3 },
  );
});
