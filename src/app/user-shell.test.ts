import { describe, expect, it } from "vitest";
import { createLocalSandboxForTests } from "../adapters/sandbox/local/testing";
import { PermissionBroker } from "../core/permission/broker";
import type { Ruleset } from "../core/schema";
import type { AppServices } from "./bootstrap";
import { forgetTerminalLog, terminalLogKey, terminalSessionDeleted } from "./terminal-log";
import { type ShellEntry, UserShell } from "./user-shell";

const rules: Ruleset = [
  { permission: "read", pattern: "*", action: "allow" },
  { permission: "bash", pattern: "*", action: "allow" },
];

function memo() {
  const m = new Map<string, string>();
  return { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v), removeItem: (k: string) => void m.delete(k), m };
}

async function setup(storage = memo()) {
  const sandbox = await createLocalSandboxForTests({ files: { "a.txt": "hello\n" } });
  const app = {
    sandbox: { sandboxFor: async () => sandbox },
    permissions: new PermissionBroker(() => [rules]),
    wiring: { tools: async () => [] },
    store: { getSession: async () => undefined },
    settings: { get: () => ({ permissions: rules }) },
  } as unknown as AppServices;
  return { sandbox, storage, app, shell: new UserShell(app, () => storage) };
}

const storedLog = (storage: ReturnType<typeof memo>, id: string): ShellEntry[] => JSON.parse(storage.getItem(terminalLogKey(id)) ?? "[]");

describe("UserShell (the terminal's own commands)", () => {
  it("keeps a long output's start and end in the log, the whole of it in memory only, and writes no file", async () => {
    const { shell, storage, sandbox } = await setup();
    await shell.run("s", "seq 1 5000");
    const [e] = shell.entries("s");
    expect(e?.status).toBe("done");
    expect(e?.head?.split("\n")).toHaveLength(200);
    expect(e?.output.split("\n").at(-1)).toBe("5000");
    expect(e?.output.split("\n")[0]).toBe("3201");
    expect(e?.omitted?.lines).toBe(3000);
    expect(shell.fullOutput(e?.id ?? "")?.text.split("\n")).toHaveLength(5000);
    expect(shell.fullOutput(e?.id ?? "")?.whole).toBe(true);
    // Stored: the cut, not the whole (no line from the middle), and no advice written for the model.
    const raw = storage.getItem(terminalLogKey("s")) ?? "";
    expect(raw).not.toContain("\\n1000\\n");
    expect(raw).not.toMatch(/truncated|saved to/);
    expect(await sandbox.fs.exists("/workspace/.tabcode/tool-output")).toBe(false);
    // A short output is whole: nothing kept aside.
    await shell.run("s", "echo hi");
    const hi = shell.entries("s")[1];
    expect(hi?.output).toBe("hi");
    expect(hi?.head).toBeUndefined();
    expect(shell.fullOutput(hi?.id ?? "")).toBeUndefined();
  });

  it("keeps the directory between commands as the bash tool does, and says when a cd outside the workspace is not kept", async () => {
    const { shell } = await setup();
    await shell.run("s", "mkdir -p sub && cd sub");
    await shell.run("s", "pwd");
    await shell.run("s", "cd /tmp && pwd");
    await shell.run("s", "pwd");
    expect(shell.entries("s").map((e) => e.output)).toEqual([
      "",
      "/workspace/sub",
      "/tmp\nnote: the working directory is not kept outside /workspace; the next command starts in /workspace/sub",
      "/workspace/sub",
    ]);
  });

  it("a running command is stored as stopped by a reload; Stop says stopped, not exit 124", async () => {
    const { shell, storage } = await setup();
    const run = shell.run("s", "sleep 30");
    expect(shell.running("s")).toBe(true);
    expect(storedLog(storage, "s")).toMatchObject([{ command: "sleep 30", status: "stopped", message: "stopped by a reload" }]);
    // After a reload (a new page's shell on the same storage) it is there, cut short.
    const again = new UserShell({} as AppServices, () => storage);
    expect(again.entries("s")).toMatchObject([{ command: "sleep 30", status: "stopped", message: "stopped by a reload" }]);
    shell.stop("s");
    await run;
    const [e] = shell.entries("s");
    expect(e).toMatchObject({ status: "stopped", output: "" });
    expect(e?.exitCode).toBeUndefined();
    expect(e?.message).toBeUndefined();
    expect(storedLog(storage, "s")).toMatchObject([{ status: "stopped" }]);
  });

  it("Clear empties the log (and storage); Undo puts it back", async () => {
    const { shell, storage } = await setup();
    await shell.run("s", "echo one");
    await shell.run("s", "echo two");
    const removed = shell.clear("s");
    expect(shell.entries("s")).toEqual([]);
    expect(storage.getItem(terminalLogKey("s"))).toBeNull();
    await shell.run("s", "echo three");
    shell.restore("s", removed);
    expect(shell.entries("s").map((e) => e.command)).toEqual(["echo one", "echo two", "echo three"]);
    expect(storedLog(storage, "s")).toHaveLength(3);
  });

  it("a deleted session's command stops; once the delete is final its log is gone from this page too, and is not written again", async () => {
    const { shell, storage } = await setup();
    await shell.run("s", "seq 1 5000");
    const cut = shell.entries("s")[0]?.id ?? "";
    const run = shell.run("s", "sleep 30");
    terminalSessionDeleted("s");
    await run;
    expect(shell.entries("s").at(-1)?.status).toBe("stopped");
    expect(storedLog(storage, "s")).toHaveLength(2);
    forgetTerminalLog("s", storage);
    expect(storage.getItem(terminalLogKey("s"))).toBeNull();
    expect(shell.entries("s")).toEqual([]);
    expect(shell.fullOutput(cut)).toBeUndefined();
    expect(storage.getItem(terminalLogKey("s"))).toBeNull();
  });
});

/**
 * Two tabs on one origin: one storage, and a write in one tab fires `storage` in the others (never in the writer),
 * as the browser does.
 */
function twoTabs() {
  const shared = memo();
  const watchers: Array<{ tab: number; changed: (key: string | null) => void }> = [];
  const tab = (n: number) => {
    const notify = (key: string) => {
      for (const w of watchers) if (w.tab !== n) w.changed(key);
    };
    const storage = {
      getItem: shared.getItem,
      setItem: (k: string, v: string) => {
        shared.setItem(k, v);
        notify(k);
      },
      removeItem: (k: string) => {
        shared.removeItem(k);
        notify(k);
      },
    };
    const watch = (changed: (key: string | null) => void) => {
      const w = { tab: n, changed };
      watchers.push(w);
      return () => void watchers.splice(watchers.indexOf(w), 1);
    };
    return { storage, watch };
  };
  return { shared, tab };
}

describe("UserShell in two tabs on one session", () => {
  async function open() {
    const { app } = await setup();
    const { shared, tab } = twoTabs();
    const a = tab(1);
    const b = tab(2);
    const shells = { shared, a: new UserShell(app, () => a.storage, a.watch), b: Object.assign(new UserShell(app, () => b.storage, b.watch), { tab: b }) };
    return shells;
  }
  const commands = (shell: UserShell) => shell.entries("s").map((e) => e.command);

  it("neither tab's write loses the other's entries, and each shows both", async () => {
    const { shared, a, b } = await open();
    // Both tabs have the (empty) log open before either runs anything.
    expect(a.entries("s")).toEqual([]);
    expect(b.entries("s")).toEqual([]);
    await a.run("s", "echo from-a");
    await b.run("s", "echo from-b");
    await a.run("s", "echo a-again");
    expect(storedLog(shared, "s").map((e) => e.command)).toEqual(["echo from-a", "echo from-b", "echo a-again"]);
    expect(commands(a)).toEqual(["echo from-a", "echo from-b", "echo a-again"]);
    expect(commands(b)).toEqual(["echo from-a", "echo from-b", "echo a-again"]);
    expect(b.entries("s")[2]).toMatchObject({ status: "done", output: "a-again" });
  });

  it("merges at write time even when the other tab's change was not heard (no storage event)", async () => {
    const { app } = await setup();
    const shared = memo();
    const deaf = () => () => {};
    const a = new UserShell(app, () => shared, deaf);
    const b = new UserShell(app, () => shared, deaf);
    expect(a.entries("s")).toEqual([]);
    expect(b.entries("s")).toEqual([]);
    await a.run("s", "echo one");
    await b.run("s", "echo two");
    expect(storedLog(shared, "s").map((e) => e.command)).toEqual(["echo one", "echo two"]);
    // The writer took the other's entry into its own copy too.
    expect(commands(b)).toEqual(["echo one", "echo two"]);
  });

  it("a command running in one tab is updated there and followed by the other", async () => {
    const { a, b } = await open();
    await b.run("s", "echo before");
    // (Both shells share this process's record of running commands, so only one runs here at a time.)
    const run = a.run("s", "sleep 30");
    expect(commands(b)).toEqual(["echo before", "sleep 30"]);
    a.stop("s");
    await run;
    expect(commands(a)).toEqual(["echo before", "sleep 30"]);
    expect(a.entries("s")[1]).toMatchObject({ status: "stopped" });
    expect(a.entries("s")[1]?.message).toBeUndefined();
    expect(b.entries("s")[1]).toMatchObject({ command: "sleep 30", status: "stopped" });
    expect(b.entries("s")[1]?.message).toBeUndefined();
    expect(b.entries("s")[0]).toMatchObject({ command: "echo before", status: "done", output: "before" });
  });

  it("Clear in one tab clears the session's log in both; its Undo brings it back in both", async () => {
    const { shared, a, b } = await open();
    await a.run("s", "echo one");
    await b.run("s", "echo two");
    const removed = a.clear("s");
    expect(removed.map((e) => e.command)).toEqual(["echo one", "echo two"]);
    expect(shared.getItem(terminalLogKey("s"))).toBeNull();
    expect(b.entries("s")).toEqual([]);
    // The other tab's next write does not bring the cleared entries back.
    await b.run("s", "echo three");
    expect(commands(a)).toEqual(["echo three"]);
    a.restore("s", removed);
    expect(commands(a)).toEqual(["echo one", "echo two", "echo three"]);
    expect(commands(b)).toEqual(["echo one", "echo two", "echo three"]);
    expect(storedLog(shared, "s")).toHaveLength(3);
  });

  it("an entry lost to a write from a stale copy (older entries still stored) is kept and written again, not taken for a Clear", async () => {
    const { shared, a, b } = await open();
    await a.run("s", "echo one");
    await a.run("s", "echo two");
    const [one] = storedLog(shared, "s");
    // Another tab's write from a copy that had not yet heard of "echo two".
    b.tab.storage.setItem(terminalLogKey("s"), JSON.stringify([one]));
    expect(commands(a)).toEqual(["echo one", "echo two"]);
    await a.run("s", "echo three");
    expect(storedLog(shared, "s").map((e) => e.command)).toEqual(["echo one", "echo two", "echo three"]);
  });

  it("keeps the newest 100 entries across both tabs", async () => {
    const { shared, a, b } = await open();
    const old = Array.from({ length: 100 }, (_, i) => ({ id: `cmd_old_${i}`, command: `old ${i}`, start: i, end: i, status: "done", output: "" }));
    shared.setItem(terminalLogKey("s"), JSON.stringify(old));
    expect(a.entries("s")).toHaveLength(100);
    expect(b.entries("s")).toHaveLength(100);
    await a.run("s", "echo a");
    await b.run("s", "echo b");
    expect(storedLog(shared, "s")).toHaveLength(100);
    expect(commands(a).slice(-2)).toEqual(["echo a", "echo b"]);
    expect(commands(b)).toEqual(commands(a));
    expect(commands(a)[0]).toBe("old 2");
  });
});
