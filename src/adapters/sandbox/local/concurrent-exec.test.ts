/**
 * Two bash tool calls of one step run at once: each exec keeps its own guard, asks, path refusals, refusal words,
 * timeout and progress sink, and a slow one does not hold a quick one. Real just-bash; the engine behind `node` is a
 * stand-in that waits, says a progress line and reports the timeout it was given.
 */
import { describe, expect, it } from "vitest";
import { DEFAULT_RULES } from "../../../core/permission/evaluate";
import { type PathRefusal, pathPolicy } from "../../../core/permission/path-policy";
import type { ExecGuard, ExecResult } from "../../../core/ports/sandbox";
import type { Ruleset } from "../../../core/schema";
import type { EngineHost } from "./runtimes/engine-protocol";
import { createLocalSandboxForTests } from "./testing";

const PROTECT: Ruleset = [...DEFAULT_RULES, { permission: "protect", pattern: "config/**", action: "deny" }];
const RULE = 'refused — protected by your rule "protect config/**"';
const FILES = { "config/app.json": '{"v":1}\n', "victim.txt": "v\n" };

function guarded(rules: Ruleset[]): { guard: ExecGuard; paths: PathRefusal[] } {
  const paths: PathRefusal[] = [];
  return { guard: { policy: pathPolicy("/workspace", rules), pathRefused: (p) => paths.push(p) }, paths };
}

/** Resolves each call's result and records the order they ended in. */
function tracked(order: string[], name: string, run: Promise<ExecResult>): Promise<ExecResult> {
  return run.then((r) => {
    order.push(name);
    return r;
  });
}

describe("concurrent execs", () => {
  it("a slow call keeps its protect rule while a quick call without it runs and ends", async () => {
    const sb = await createLocalSandboxForTests({ files: FILES });
    const slow = guarded([PROTECT]);
    const quick = guarded([DEFAULT_RULES]);
    const order: string[] = [];
    const a = tracked(order, "slow", sb.exec("sleep 0.2; sed -i s/1/2/ config/app.json", { guard: slow.guard }));
    const b = tracked(order, "quick", sb.exec("sed -i s/v/w/ victim.txt; echo quick", { guard: quick.guard }));
    const [ra, rb] = await Promise.all([a, b]);
    expect(order).toEqual(["quick", "slow"]);
    expect(ra.combined).toContain(`sed: config/app.json: write ${RULE}`);
    expect(ra.exitCode).not.toBe(0);
    expect(await sb.fs.readText("/workspace/config/app.json")).toBe('{"v":1}\n');
    expect(slow.paths.map((p) => p.path)).toEqual(["/workspace/config/app.json"]);
    expect(rb).toMatchObject({ combined: "quick\n", exitCode: 0 });
    expect(quick.paths).toEqual([]);
    expect(await sb.fs.readText("/workspace/victim.txt")).toBe("w\n");
  });

  it("a quick call's protect rule and refusal stay its own while a slow call without it writes", async () => {
    const sb = await createLocalSandboxForTests({ files: FILES });
    const slow = guarded([DEFAULT_RULES]);
    const quick = guarded([PROTECT]);
    const a = sb.exec("sleep 0.2; echo new > config/app.json; cat config/app.json", { guard: slow.guard });
    const b = sb.exec("echo x | tee config/app.json", { guard: quick.guard });
    const [ra, rb] = await Promise.all([a, b]);
    expect(ra).toMatchObject({ combined: "new\n", exitCode: 0 });
    expect(slow.paths).toEqual([]);
    expect(rb.combined).toBe(`x\ntee: config/app.json: write ${RULE}\n`);
    expect(quick.paths.map((p) => p.path)).toEqual(["/workspace/config/app.json"]);
  });

  it("each call's asks are its own: an answer given to one is not taken for the other", async () => {
    const sb = await createLocalSandboxForTests({ files: FILES });
    const ASK: Ruleset = [...DEFAULT_RULES, { permission: "bash", pattern: "touch *", action: "ask" }];
    const asked: string[] = [];
    const ask = (who: string, answer: string | undefined, wait: number) => async (command: string) => {
      asked.push(`${who}: ${command}`);
      await new Promise((r) => setTimeout(r, wait));
      return answer;
    };
    const a = sb.exec("touch a.txt", { guard: { policy: pathPolicy("/workspace", [ASK]), ask: ask("a", "tabcode: refused by the person", 150) } });
    const b = sb.exec("touch a.txt; touch b.txt", { guard: { policy: pathPolicy("/workspace", [ASK]), ask: ask("b", undefined, 10) } });
    const [ra, rb] = await Promise.all([a, b]);
    expect(asked.sort()).toEqual(["a: touch a.txt", "b: touch a.txt", "b: touch b.txt"]);
    expect(ra.exitCode).toBe(126);
    expect(ra.combined).toBe("tabcode: refused by the person\n");
    expect(rb).toMatchObject({ combined: "", exitCode: 0 });
  });

  it("each call's progress and timeout reach its own engine commands and caller", async () => {
    const given: string[] = [];
    const host: EngineHost = {
      async run(req, opts) {
        const [wait, name] = req.args;
        given.push(`${name} ${opts.timeoutMs}`);
        await new Promise((r) => setTimeout(r, Number(wait)));
        opts.onProgress?.(`loading for ${name}\n`);
        return { stdout: `${name} done\n`, stderr: "", exitCode: 0, writes: {}, removes: [] };
      },
    };
    const sb = await createLocalSandboxForTests({ runtimes: { node: host } });
    const seenA: string[] = [];
    const seenB: string[] = [];
    const a = sb.exec("node 200 A", { timeoutMs: 5_000, onOutput: (t) => seenA.push(t) });
    const b = sb.exec("node 10 B", { timeoutMs: 7_000, onOutput: (t) => seenB.push(t) });
    const [ra, rb] = await Promise.all([a, b]);
    expect(ra.combined).toBe("A done\n");
    expect(rb.combined).toBe("B done\n");
    expect(seenA).toEqual(["loading for A\n", "A done\n"]);
    expect(seenB).toEqual(["loading for B\n", "B done\n"]);
    expect(given.sort()).toEqual(["A 5000", "B 7000"]);
  });

  it("many calls at once each get their own answer, and later calls still run", async () => {
    const sb = await createLocalSandboxForTests({ files: FILES });
    const runs = Array.from({ length: 10 }, (_, i) => {
      const g = guarded(i % 2 ? [PROTECT] : [DEFAULT_RULES]);
      return { g, r: sb.exec(`sleep 0.0${i % 3}; echo ${i} > config/out${i}.txt && cat config/out${i}.txt`, { guard: g.guard }) };
    });
    const results = await Promise.all(runs.map((x) => x.r));
    results.forEach((r, i) => {
      if (i % 2) {
        expect(r.combined).toContain(`config/out${i}.txt: truncate ${RULE}`);
        expect(runs[i]?.g.paths).toHaveLength(1);
      } else {
        expect(r).toMatchObject({ combined: `${i}\n`, exitCode: 0 });
        expect(runs[i]?.g.paths).toEqual([]);
      }
    });
    expect((await sb.exec("ls config | wc -l")).stdout.trim()).toBe("6");
  });
});
