import { describe, expect, it } from "vitest";
import { createLocalSandboxForTests } from "../../adapters/sandbox/local/testing";
import { PermissionBroker } from "../permission/broker";
import type { Ruleset } from "../schema";
import { runUserCommand } from "./user-command";

const rules: Ruleset = [
  { permission: "read", pattern: "*", action: "allow" },
  { permission: "bash", pattern: "*", action: "allow" },
  { permission: "bash", pattern: "rm *", action: "deny" },
  { permission: "bash", pattern: "git push *", action: "ask" },
  { permission: "protect", pattern: "config/**", action: "deny" },
];

async function setup() {
  const sandbox = await createLocalSandboxForTests({ files: { "a.txt": "hello\n", "config/app.json": "{}\n" } });
  const broker = new PermissionBroker(() => [rules]);
  const deps = { sandbox, permissions: broker, rules: [rules], state: new Map<string, unknown>() };
  return { sandbox, broker, deps };
}

describe("runUserCommand (the terminal pane)", () => {
  it("runs in the sandbox, streams output, reports the exit code and keeps its own working directory", async () => {
    const { deps } = await setup();
    const seen: string[] = [];
    const r = await runUserCommand(deps, { sessionID: "s", command: "cat a.txt; mkdir -p sub && cd sub", signal: new AbortController().signal, onOutput: (t) => seen.push(t) });
    expect(r).toEqual({ status: "done", output: "hello", exitCode: 0 });
    expect(seen.join("")).toContain("hello");
    const pwd = await runUserCommand(deps, { sessionID: "s", command: "pwd; exit 3", signal: new AbortController().signal });
    expect(pwd).toEqual({ status: "done", output: "/workspace/sub", exitCode: 3 });
  });

  it("meets the same rules as the model: a deny refuses in words, logged; protect rules stop file changes", async () => {
    const { deps, broker, sandbox } = await setup();
    const rm = await runUserCommand(deps, { sessionID: "s", command: "rm a.txt", signal: new AbortController().signal });
    expect(rm).toEqual({ status: "refused", message: 'Not run: bash "rm a.txt" is denied by the rule "rm *".' });
    expect(await sandbox.fs.exists("/workspace/a.txt")).toBe(true);
    expect(broker.decisions("s").at(-1)).toMatchObject({ permission: "bash", pattern: "rm a.txt", action: "deny" });
    const w = await runUserCommand(deps, { sessionID: "s", command: "echo x > config/app.json", signal: new AbortController().signal });
    expect(w.status).toBe("done");
    expect(w.status === "done" ? w.output : "").toContain('protected by your rule "protect config/**"');
    expect(await sandbox.fs.readText("/workspace/config/app.json")).toBe("{}\n");
  });

  it("sed -i on a protected file says it is protected, in the words a redirection uses (not just-bash's \"No such file\")", async () => {
    const { deps, sandbox } = await setup();
    const r = await runUserCommand(deps, { sessionID: "s", command: "sed -i s/a/b/ config/app.json", signal: new AbortController().signal });
    expect(r).toEqual({ status: "done", output: 'sed: config/app.json: write refused — protected by your rule "protect config/**"', exitCode: 1 });
    expect(await sandbox.fs.readText("/workspace/config/app.json")).toBe("{}\n");
  });

  it("an ask rule waits for the person's answer in the permission dialog", async () => {
    const { deps, broker } = await setup();
    const run = runUserCommand(deps, { sessionID: "s", command: "git push origin main", signal: new AbortController().signal });
    await expect.poll(() => broker.pending().length).toBe(1);
    const pending = broker.pending()[0];
    expect(pending?.patterns).toEqual(["git push origin main"]);
    broker.reply(pending?.id ?? "", { type: "reject" });
    expect(await run).toEqual({ status: "refused", message: "Not run: you rejected it." });
  });

  it("returns a long output whole, and saves nothing in the workspace (the cut and the saved file are the model's)", async () => {
    const { deps, sandbox } = await setup();
    const r = await runUserCommand(deps, { sessionID: "s", command: "seq 1 5000", signal: new AbortController().signal });
    expect(r.status).toBe("done");
    const lines = r.status === "done" ? r.output.split("\n") : [];
    expect(lines).toHaveLength(5000);
    expect(lines.at(-1)).toBe("5000");
    expect(r.status === "done" ? r.output : "").not.toMatch(/truncated|saved to|Exit code/);
    expect(await sandbox.fs.exists("/workspace/.tabcode/tool-output")).toBe(false);
  });

  it("stopped by the person: said as stopped, in the command's own words (no notes for the model, no 124)", async () => {
    const { deps } = await setup();
    const stop = new AbortController();
    const run = runUserCommand(deps, { sessionID: "s", command: "echo started; sleep 30; echo never", signal: stop.signal });
    setTimeout(() => stop.abort(), 200);
    const r = await run;
    // just-bash in process drops what the line printed before the abort, and says "bash: execution aborted":
    // the shell's note of the stop is left out (the terminal says "stopped"), as are the model's notes and 124.
    expect(r).toEqual({ status: "stopped", output: "" });
  });
});
