import { beforeEach, describe, expect, it } from "vitest";
import { createLocalSandboxForTests } from "../../adapters/sandbox/local/testing";
import { makeToolContext, type RecordingToolContext, runTool, runToolError } from "../../testing/workspace-tool-context";
import type { Sandbox } from "../ports/sandbox";
import { BASH_CWD_KEY, bashTool, stripCwdMarker, withCwdMarker } from "./bash";

let sb: Sandbox;
let ctx: RecordingToolContext;
beforeEach(async () => {
  sb = await createLocalSandboxForTests({ files: { "src/a.txt": "apple\nbanana\ncherry\n", "src/lib/b.txt": "b\n" } });
  ctx = makeToolContext({ sandbox: sb });
});

const bash = (command: string, extra: Record<string, unknown> = {}) => runTool(bashTool, { command, description: "test command", ...extra }, ctx);

describe("bash", () => {
  it("returns output and exit code, and asks with the command as pattern", async () => {
    const r = await bash("echo hello");
    expect(r.output).toBe("hello\n\nExit code: 0");
    expect(r.title).toBe("test command");
    expect(r.metadata).toMatchObject({ output: "hello\n", exit: 0, description: "test command", cwd: "/workspace" });
    expect(ctx.asks).toEqual([{ permission: "bash", patterns: ["echo hello"], always: ["echo *"], metadata: { command: "echo hello" } }]);
  });

  it("runs pipelines", async () => {
    const r = await bash("cat src/a.txt | grep an | tr a-z A-Z | sort -r");
    expect(r.output).toBe("BANANA\n\nExit code: 0");
  });

  it("tracks the working directory across calls", async () => {
    expect((await bash("cd src && pwd")).output).toBe("/workspace/src\n\nExit code: 0");
    expect(ctx.state.get(BASH_CWD_KEY)).toBe("/workspace/src");
    expect((await bash("cd lib; ls")).output).toBe("b.txt\n\nExit code: 0");
    expect((await bash("pwd")).output).toBe("/workspace/src/lib\n\nExit code: 0");
    expect((await bash("cd ../..")).metadata?.cwd).toBe("/workspace");
  });

  it("does not track a cd outside the workspace, and says so in one line", async () => {
    await bash("cd src");
    const left = await bash("cd /tmp && pwd");
    expect(left.output).toBe("/tmp\nnote: the working directory is not kept outside /workspace; the next command starts in /workspace/src\n\nExit code: 0");
    expect(left.metadata).toMatchObject({ output: "/tmp\nnote: the working directory is not kept outside /workspace; the next command starts in /workspace/src\n", cwd: "/workspace/src" });
    expect((await bash("pwd")).output).toBe("/workspace/src\n\nExit code: 0");
    // Silent output, a failing command: the note still comes, the exit code stays the command's.
    expect((await bash("cd / ; false")).output).toBe("note: the working directory is not kept outside /workspace; the next command starts in /workspace/src\n\nExit code: 1");
    // A cd out and back within one call changes nothing: no note.
    expect((await bash("cd /tmp && cd /workspace/src/lib && pwd")).output).toBe("/workspace/src/lib\n\nExit code: 0");
    // A workdir run never moves the tracked directory, and says nothing about it.
    expect((await bash("cd /tmp; pwd", { workdir: "src" })).output).toBe("/tmp\n\nExit code: 0");
  });

  it("says when the tracked directory was removed and the command ran at the root", async () => {
    await bash("mkdir gone && cd gone");
    await bash("rm -r ../gone");
    expect((await bash("pwd")).output).toBe("/workspace\nnote: /workspace/gone no longer exists; the command ran in /workspace\n\nExit code: 0");
    expect((await bash("pwd")).output).toBe("/workspace\n\nExit code: 0");
  });

  it("runs once in workdir without moving the tracked directory", async () => {
    expect((await bash("pwd", { workdir: "src/lib" })).output).toBe("/workspace/src/lib\n\nExit code: 0");
    expect((await bash("pwd")).output).toBe("/workspace\n\nExit code: 0");
    expect(await runToolError(bashTool, { command: "pwd", description: "d", workdir: "missing" }, ctx)).toBe(
      "The working directory does not exist: /workspace/missing",
    );
    expect(await runToolError(bashTool, { command: "pwd", description: "d", workdir: "../.." }, ctx)).toMatch(/outside the workspace/);
  });

  it("falls back to the root when the tracked directory was removed", async () => {
    await bash("mkdir gone && cd gone");
    await bash("cd .. && rm -r gone");
    expect((await bash("pwd")).output).toBe("/workspace\n\nExit code: 0");
  });

  it("keeps the exit code of failing commands and stderr", async () => {
    const r = await bash("echo out; echo err >&2; exit 4");
    expect(r.output).toBe("out\nerr\n\nExit code: 4");
    expect(r.metadata?.exit).toBe(4);
    const f = await bash("false");
    expect(f.output).toBe("(no output)\n\nExit code: 1");
  });

  it("explains commands that need WebContainer", async () => {
    for (const cmd of ["node -v", "npm install", "npx vite"]) {
      const r = await bash(cmd);
      const name = cmd.split(" ")[0];
      expect(r.output).toBe(
        `${name}: the local sandbox has no Node.js (it has a built-in shell, python3, git, sqlite3 and a QuickJS node for plain scripts); the WebContainer backend (Settings → Sandbox) runs full Node.js and npm.\n\nExit code: 127`,
      );
    }
    // A sandbox built without its engines (this test's) says where they run.
    for (const cmd of ["git status", "python3 -c 1", "pip install x"]) {
      const r = await bash(cmd);
      const name = cmd.split(" ")[0];
      expect(r.output).toBe(
        `${name} needs the WebContainer backend (Settings → Sandbox); the local sandbox runs a built-in shell with common Unix commands only.\n\nExit code: 127`,
      );
    }
  });

  it("stops a runaway loop through the execution limits", async () => {
    const r = await bash("while true; do :; done");
    expect(r.metadata?.exit).not.toBe(0);
    expect(r.output).toMatch(/too many (commands|iterations)|exceeded/);
  });

  it("notes a timeout", async () => {
    const r = await bash("sleep 5", { timeout: 150 });
    expect(r.output).toContain("bash tool terminated the command after exceeding the timeout of 150 ms");
    expect(r.metadata?.timedOut).toBe(true);
  });

  it("notes an abort", async () => {
    const ac = new AbortController();
    const actx = makeToolContext({ sandbox: sb, signal: ac.signal });
    setTimeout(() => ac.abort(), 100);
    const r = await runTool(bashTool, { command: "sleep 5", description: "sleep" }, actx);
    expect(r.output).toContain("The user aborted the command");
    expect(r.metadata?.aborted).toBe(true);
  });

  it("streams output into the running part without the marker", async () => {
    await bash("echo streamed");
    const outputs = ctx.updates.map((u) => u.metadata?.output);
    expect(outputs).toContain("streamed\n");
    expect(outputs.some((o) => String(o).includes("__TABCODE"))).toBe(false);
  });

  it("caps the metadata output at 30,000 characters", async () => {
    const r = await bash("seq 1 5000 | sed 's/.*/line of some output text/'");
    expect(String(r.metadata?.output).length).toBeLessThanOrEqual(30_001);
  });

  it("rejects arguments that break the schema", async () => {
    expect(await runToolError(bashTool, { command: "ls" }, ctx)).toMatch(/invalid arguments[\s\S]*description/);
  });
});

describe("cwd marker", () => {
  it("strips the marker with or without a trailing newline in the output", () => {
    expect(stripCwdMarker("hi\n\n__TABCODE_CWD__/w\n")).toEqual({ text: "hi\n", cwd: "/w" });
    expect(stripCwdMarker("hi\n__TABCODE_CWD__/w\n")).toEqual({ text: "hi", cwd: "/w" });
    expect(stripCwdMarker("\n__TABCODE_CWD__/w\nerr\n")).toEqual({ text: "err\n", cwd: "/w" });
    expect(stripCwdMarker("no marker")).toEqual({ text: "no marker" });
  });

  it("keeps the command on its own lines", () => {
    expect(withCwdMarker("ls")).toMatch(/^ls\n__tabcode_status=\$\?; echo; echo "__TABCODE_CWD__\$PWD"; exit \$__tabcode_status$/);
  });

});

describe("bash permission patterns", () => {
  it("asks for every simple command of a line, with arity prefixes for always", async () => {
    const sandbox = await createLocalSandboxForTests();
    const c = makeToolContext({ sandbox });
    await runTool(bashTool, { command: "git checkout main && npm run dev --port 3", description: "two commands" }, c);
    expect(c.asks[0]).toMatchObject({ permission: "bash", patterns: ["git checkout main", "npm run dev --port 3"], always: ["git checkout *", "npm run dev *"] });
  });
});

describe("bash and .env protection", () => {
  it("asks to read the files that cat, head, grep… are given, relative to the workspace", async () => {
    await sb.fs.writeFile("/workspace/.env", "API_TOKEN=secret-value\n");
    await bash("cat .env && head -n 1 src/a.txt && grep -n apple src/a.txt");
    expect(ctx.asks.find((a) => a.permission === "read")).toEqual({
      permission: "read",
      patterns: [".env", "src/a.txt"],
      always: ["*"],
      metadata: { command: "cat .env && head -n 1 src/a.txt && grep -n apple src/a.txt" },
    });
  });

  it("resolves paths against the tracked directory", async () => {
    await bash("cd src");
    await bash("cat lib/b.txt ../.env");
    expect(ctx.asks.filter((a) => a.permission === "read").at(-1)?.patterns).toEqual(["src/lib/b.txt", ".env"]);
  });

  it("does not run `cat .env` when reading .env is denied", async () => {
    await sb.fs.writeFile("/workspace/.env", "API_TOKEN=secret-value\n");
    const denied = makeToolContext({ sandbox: sb, rules: [{ permission: "read", pattern: "*.env", action: "deny" }] });
    const err = await runToolError(bashTool, { command: "cat .env", description: "show env" }, denied);
    expect(err).toMatch(/read ".env" is denied/);
    expect(err).not.toContain("secret-value");
  });
});
