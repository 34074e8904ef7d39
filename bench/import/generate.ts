/**
 * A large opencode.db for the import benchmarks: the exact 1.2 DDL of the
 * test fixture, then sessions of realistic records (user prompt, assistant
 * steps with reasoning, a bash call with ~2 KB of output, text, step-finish)
 * until the file reaches the asked size. Written through the system `sqlite3`
 * command (file-backed, fast); reused when a file of that size exists.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

const DDL = readFileSync(new URL("../../src/core/import/__fixtures__/opencode-1.2.sql", import.meta.url), "utf8").split("\nINSERT INTO")[0] ?? "";
const PROJECT = "4b0ea68d7af9a6031a7ffda7ad66e0cb83315750";
const OUTPUT = Array.from({ length: 40 }, (_, i) => `src/module-${i}.ts:${i * 3 + 1}: export function handler${i}(req, res) { return res.json({ ok: true }) }`).join("\n");

const q = (s: string) => `'${s.replace(/'/g, "''")}'`;

function* statements(targetBytes: number): Generator<string> {
  yield "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;";
  yield DDL;
  yield `INSERT INTO project VALUES (${q(PROJECT)}, '/home/dev/big', 'git', 'big', NULL, NULL, 1700000000000, 1700000000000, NULL, '[]');`;
  let bytes = 0;
  let t = 1_700_000_000_000;
  for (let s = 0; bytes < targetBytes; s++) {
    const sid = `ses_bench${String(s).padStart(8, "0")}ffe0000000000`;
    const steps = 8 + (s % 10);
    yield "BEGIN;";
    yield `INSERT INTO session VALUES (${q(sid)}, ${q(PROJECT)}, NULL, 'slug-${s}', '/home/dev/big', ${q(`Bench session ${s}: refactor module ${s % 40}`)}, '1.2.6', NULL, NULL, NULL, NULL, NULL, NULL, NULL, ${t}, ${t + steps * 10_000}, NULL, NULL);`;
    const uid = `msg_bench${String(s).padStart(8, "0")}u0000000000`;
    yield `INSERT INTO message VALUES (${q(uid)}, ${q(sid)}, ${t}, ${t}, ${q(JSON.stringify({ role: "user", time: { created: t }, agent: "build", model: { providerID: "anthropic", modelID: "claude-sonnet-4-5" } }))});`;
    yield `INSERT INTO part VALUES (${q(`prt_bench${String(s).padStart(8, "0")}u000000000`)}, ${q(uid)}, ${q(sid)}, ${t}, ${t}, ${q(JSON.stringify({ type: "text", text: `Refactor module ${s % 40} so that handlers share one error path.` }))});`;
    for (let k = 0; k < steps; k++) {
      const at = t + 1000 + k * 10_000;
      const mid = `msg_bench${String(s).padStart(8, "0")}a${String(k).padStart(3, "0")}000000`;
      const tokens = { input: 20 + k, output: 300, reasoning: 0, cache: { read: 12_000 + k * 500, write: 400 } };
      yield `INSERT INTO message VALUES (${q(mid)}, ${q(sid)}, ${at}, ${at + 9000}, ${q(JSON.stringify({ role: "assistant", time: { created: at, completed: at + 9000 }, parentID: uid, modelID: "claude-sonnet-4-5", providerID: "anthropic", mode: "build", agent: "build", path: { cwd: "/home/dev/big", root: "/home/dev/big" }, cost: 0.012, tokens, finish: k === steps - 1 ? "stop" : "tool-calls" }))});`;
      const parts = [
        { type: "step-start", snapshot: "7c1f0e0c2a3b4d5e6f708192a3b4c5d6e7f80912" },
        { type: "reasoning", text: `Step ${k}: look at the handlers in module ${s % 40} and find the duplicated error branches before editing.`, time: { start: at, end: at + 500 } },
        { type: "tool", callID: `toolu_${s}_${k}`, tool: "bash", state: { status: "completed", input: { command: `rg -n handler src/module-${k}.ts`, description: "Find handlers" }, output: OUTPUT, title: "Find handlers", metadata: { exit: 0 }, time: { start: at + 600, end: at + 900 } } },
        { type: "text", text: `Module ${s % 40}, step ${k}: the handlers now share one error path; tests pass.` },
        { type: "step-finish", reason: "stop", cost: 0.012, tokens },
      ];
      for (const [j, p] of parts.entries()) {
        const data = JSON.stringify(p);
        // Rows plus their share of b-tree pages and indexes: about twice the JSON on disk.
        bytes += 2 * (data.length + 120);
        yield `INSERT INTO part VALUES (${q(`prt_bench${String(s).padStart(8, "0")}a${String(k).padStart(3, "0")}${j}0000`)}, ${q(mid)}, ${q(sid)}, ${at + j}, ${at + j}, ${q(data)});`;
      }
    }
    yield "COMMIT;";
    t += steps * 10_000 + 60_000;
  }
}

/** Path of a generated database of about `mb` MB (made once, then reused). */
export async function generatedDb(mb: number): Promise<string> {
  const dir = join(process.cwd(), ".tmp", "bench-import");
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `opencode-${mb}mb.db`);
  if (existsSync(path) && statSync(path).size > mb * 1024 * 1024 * 0.8) return path;
  const child = spawn("sqlite3", [path], { stdio: ["pipe", "inherit", "inherit"] });
  const done = new Promise<void>((resolve, reject) => {
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`sqlite3 exited with ${code}`))));
  });
  let buf = "";
  for (const st of statements(mb * 1024 * 1024)) {
    buf += `${st}\n`;
    if (buf.length > 1 << 20) {
      if (!child.stdin.write(buf)) await new Promise((r) => child.stdin.once("drain", r));
      buf = "";
    }
  }
  child.stdin.end(buf);
  await done;
  return path;
}
