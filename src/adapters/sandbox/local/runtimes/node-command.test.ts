import { describe, expect, it } from "vitest";
import { DEFAULT_RULES } from "../../../../core/permission/evaluate";
import { pathPolicy } from "../../../../core/permission/path-policy";
import type { ExecGuard } from "../../../../core/ports/sandbox";
import type { Ruleset } from "../../../../core/schema";
import { createLocalSandboxForTests } from "../testing";
import { InProcessEngineHost } from "./engine-host";
import { runNode } from "./node-driver";
import { loadQuickJS } from "./node-host";

// One real QuickJS module for the file; every run gets a fresh runtime.
const node = new InProcessEngineHost(loadQuickJS, runNode);
const sandbox = (files: Record<string, string> = {}) => createLocalSandboxForTests({ files, runtimes: { node } });

describe("node in the local sandbox (real QuickJS)", () => {
  it("runs a script with argv, require of workspace CommonJS and JSON, console formatting and its exit code", async () => {
    const sb = await sandbox({
      "app.js":
        "const { add } = require('./lib');\nconst cfg = require('./cfg.json');\nconsole.log('sum', add(2, 3), process.argv.slice(2));\nconsole.log({ a: 1, b: [1, 2], c: 'x' }, cfg.name);\nconsole.error('warn %d', 7);\nprocess.exitCode = 4;\n",
      "lib.js": "exports.add = (a, b) => a + b;\n",
      "cfg.json": '{ "name": "demo" }',
    });
    const r = await sb.exec("node app.js one two");
    expect(r.stdout).toBe("sum 5 [ 'one', 'two' ]\n{ a: 1, b: [ 1, 2 ], c: 'x' } demo\n");
    expect(r.stderr).toBe("warn 7\n");
    expect(r.exitCode).toBe(4);
  });

  it("-e, -p, stdin from a pipe, process.exit, env and cwd", async () => {
    const sb = await sandbox({ "sub/x.txt": "" });
    expect((await sb.exec("node -p '[1,2,3].map(x => x * 2)'")).stdout).toBe("[ 2, 4, 6 ]\n");
    expect((await sb.exec("echo 'console.log(6 * 7)' | node")).stdout).toBe("42\n");
    expect((await sb.exec("node -e 'process.stdout.write(\"a\"); process.exit(3); console.log(\"never\")'"))).toMatchObject({ stdout: "a", exitCode: 3 });
    expect((await sb.exec("cd sub && FOO=bar node -p 'process.cwd() + \" \" + process.env.FOO'")).stdout).toBe("/workspace/sub bar\n");
  });

  it("fs over the workspace: written and deleted files come back through the sandbox", async () => {
    const sb = await sandbox({ "old.txt": "x", "data/in.txt": "hello" });
    const script = [
      "const fs = require('fs'), path = require('path');",
      "fs.mkdirSync('out/deep', { recursive: true });",
      "fs.writeFileSync(path.join('out', 'deep', 'a.txt'), fs.readFileSync('data/in.txt', 'utf8').toUpperCase());",
      "fs.appendFileSync('out/log.txt', 'one\\n'); fs.appendFileSync('out/log.txt', 'two\\n');",
      "fs.unlinkSync('old.txt');",
      "console.log(fs.existsSync('old.txt'), fs.readdirSync('.').join(','), fs.statSync('data').isDirectory(), fs.statSync('data/in.txt').size);",
      "fs.promises.readFile('out/deep/a.txt', 'utf8').then((t) => console.log('async', t));",
    ].join("\n");
    await sb.fs.writeFile("/workspace/s.js", script);
    const r = await sb.exec("node s.js");
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe("false data,out,s.js true 5\nasync HELLO\n");
    expect(await sb.fs.readText("/workspace/out/deep/a.txt")).toBe("HELLO");
    expect(await sb.fs.readText("/workspace/out/log.txt")).toBe("one\ntwo\n");
    expect(await sb.fs.exists("/workspace/old.txt")).toBe(false);
  });

  it("ES modules import workspace files, JSON and node: core modules; timers run in order", async () => {
    const sb = await sandbox({
      "main.mjs":
        "import { readFileSync } from 'node:fs';\nimport path from 'path';\nimport { twice } from './util.js';\nimport data from './d.json';\nimport cjs from './c.cjs';\nsetTimeout(() => console.log('later'), 20);\nsetTimeout(() => console.log('sooner'), 5);\nawait Promise.resolve();\nconsole.log(twice(data.n), path.basename('/a/b.txt'), readFileSync('d.json', 'utf8').length, cjs.k);\n",
      "util.js": "export const twice = (n) => n * 2;\n",
      "d.json": '{"n": 21}',
      "c.cjs": "module.exports = { k: 'cjs' };\n",
    });
    const r = await sb.exec("node main.mjs");
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe("42 b.txt 9 cjs\nsooner\nlater\n");
  });

  it("an uncaught error prints its stack and exits 1; assert fails like Node's", async () => {
    const sb = await sandbox({ "t.js": "const assert = require('assert');\nassert.strictEqual(1 + 1, 3);\n" });
    const boom = await sb.exec(`node -e 'function f() { throw new TypeError("boom") } f()'`);
    expect(boom.exitCode).toBe(1);
    expect(boom.stderr).toMatch(/^TypeError: boom\n {4}at f \(\[eval\]/);
    const a = await sb.exec("node t.js");
    expect(a.exitCode).toBe(1);
    expect(a.stderr).toContain("AssertionError: Expected values to be strictly equal:\n\n2 !== 3");
  });

  it("missing modules, network, child_process, npm and npx say what is missing and where full Node.js runs", async () => {
    const sb = await sandbox({ "m.mjs": "import _ from 'lodash';\n" });
    const pkg = await sb.exec("node -e 'require(\"lodash\")'");
    expect(pkg.exitCode).toBe(1);
    expect(pkg.stderr).toContain("Cannot find module 'lodash'");
    expect(pkg.stderr).toContain("the WebContainer backend (Settings → Sandbox) runs full Node.js and npm");
    expect((await sb.exec("node m.mjs")).stderr).toContain("Cannot find package 'lodash' imported from /workspace/m.mjs");
    for (const mod of ["child_process", "http", "node:https"]) {
      const r = await sb.exec(`node -e 'require("${mod}")'`);
      expect(r.stderr).toContain(`The '${mod.replace("node:", "")}' module is not available in the local sandbox's node`);
    }
    expect((await sb.exec("node -e 'fetch(\"http://example.com\").catch(e => console.log(e.message))'")).stdout).toContain("fetch (the network) is not available");
    for (const cmd of ["npm install", "npx vitest"]) {
      const r = await sb.exec(cmd);
      expect(r.exitCode).toBe(1);
      expect(r.stderr).toContain("runs full Node.js and npm");
    }
  });

  it("a runaway loop is interrupted at the command timeout and the next run works", async () => {
    const sb = await sandbox({ "keep.txt": "safe" });
    const started = Date.now();
    const r = await sb.exec("node -e 'require(\"fs\").writeFileSync(\"keep.txt\", \"lost\"); while (true) {}'", { timeoutMs: 2000 });
    expect(r.exitCode).toBe(124);
    expect(r.stderr).toContain("node: stopped after 2 s (the command timeout); the script was interrupted.");
    expect(Date.now() - started).toBeLessThan(10_000);
    expect((await sb.exec("node -p 40+2")).stdout).toBe("42\n");
    const interval = await sb.exec("node -e 'setInterval(() => {}, 1)'", { timeoutMs: 2000 });
    expect(interval.exitCode).toBe(124);
  });

  it("deep recursion is a RangeError, memory exhaustion a clear error, huge output is cut", async () => {
    const sb = await sandbox({ "keep.txt": "safe" });
    const deep = await sb.exec("node -e 'function f(n) { return f(n + 1) + 1 } f(0)'");
    expect(deep.exitCode).toBe(1);
    expect(deep.stderr).toContain("RangeError: Maximum call stack size exceeded");
    const mem = await sb.exec("node -e 'const a = []; for (;;) a.push(new ArrayBuffer(16 * 1024 * 1024))'");
    expect(mem.stderr).toContain("node: the script ran out of memory (the local sandbox allows 128 MB).");
    expect(mem.exitCode).toBe(134);
    const big = await sb.exec("node -e 'const s = \"x\".repeat(1 << 20); for (let i = 0; i < 6; i++) console.log(s)'");
    expect(big.stderr).toContain("node: output truncated (more than 4 MB)");
    expect(big.stdout.length).toBeLessThanOrEqual(4 * 1024 * 1024);
    expect(await sb.fs.readText("/workspace/keep.txt")).toBe("safe");
    expect((await sb.exec("node -p 1+1")).stdout).toBe("2\n");
  });

  it("sees and writes only the workspace and /tmp; a protect rule stops a write", async () => {
    const sb = await sandbox({ "config/app.json": '{"v":1}' });
    const r = await sb.exec(
      "node -e 'const fs = require(\"fs\"); console.log(fs.existsSync(\"/etc/passwd\"), fs.readdirSync(\"/\").join(\",\")); try { fs.writeFileSync(\"/etc/x\", \"1\") } catch (e) { console.log(e.code) } fs.writeFileSync(\"/tmp/t\", \"1\"); console.log(fs.readFileSync(\"/tmp/t\", \"utf8\"))'",
    );
    expect(r.stdout).toBe("false tmp,workspace\nEACCES\n1\n");
    expect(await sb.fs.exists("/tmp/t")).toBe(false);
    const rules: Ruleset = [...DEFAULT_RULES, { permission: "protect", pattern: "config/**", action: "deny" }];
    const refusals: string[] = [];
    const guard: ExecGuard = { policy: pathPolicy("/workspace", [rules]), pathRefused: (x) => refusals.push(x.message) };
    const w = await sb.exec("node -e 'const fs = require(\"fs\"); fs.writeFileSync(\"config/app.json\", \"{}\"); fs.writeFileSync(\"ok.txt\", \"fine\")'", { guard });
    expect(w.exitCode).toBe(1);
    expect(w.stderr).toContain('protected by your rule "protect config/**"');
    expect(await sb.fs.readText("/workspace/config/app.json")).toBe('{"v":1}');
    expect(await sb.fs.readText("/workspace/ok.txt")).toBe("fine");
    expect(refusals).toHaveLength(1);
  });
});
