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
