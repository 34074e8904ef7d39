import { describe, expect, it, vi } from "vitest";
import { createLocalSandboxForTests } from "../adapters/sandbox/local/testing";
import { PermissionBroker } from "../core/permission/broker";
import type { Ruleset } from "../core/schema";
import { fakeLocks } from "../testing/fake-locks";
import { type FakeStorage, fakeStorage } from "../testing/fake-storage";
import type { AppServices } from "./bootstrap";
import { fromEntry } from "../ui/components/terminal/terminal-lines";
import { shellLockName } from "./shell-runs";
import { fitLog, forgetTerminalLog, freeTerminalSpace, LOG_CHARS, TOTAL_CHARS, terminalSessionDeleted } from "./terminal-log";
import { terminalLogKey } from "./terminal-log-key";
import { omittedWords } from "./terminal-output";
import { type ShellEntry, UserShell } from "./user-shell";

const rules: Ruleset = [
  { permission: "read", pattern: "*", action: "allow" },
  { permission: "bash", pattern: "*", action: "allow" },
];

async function setup(storage = fakeStorage()) {
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

const tick = () => new Promise((r) => setTimeout(r, 0));

const storedLog = (storage: FakeStorage, id: string): ShellEntry[] => JSON.parse(storage.getItem(terminalLogKey(id)) ?? "[]");

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

  it("a running command is stored as running, read after a reload (its tab gone) as stopped by a reload; Stop says stopped, not exit 124", async () => {
    const { shell, storage } = await setup();
    const run = shell.run("s", "sleep 30");
    expect(shell.running("s")).toBe(true);
    await vi.waitFor(() => expect(storedLog(storage, "s")).toMatchObject([{ command: "sleep 30", status: "running" }]));
    // After a reload (a new page's shell on the same storage, no tab holding the command's lock) it is there, cut short.
    const again = new UserShell({} as AppServices, () => storage, undefined, { locks: fakeLocks().tab() });
    expect(again.entries("s")).toMatchObject([{ command: "sleep 30" }]);
    await vi.waitFor(() => expect(again.entries("s")).toMatchObject([{ command: "sleep 30", status: "stopped", message: "stopped by a reload" }]));
    // A browser without Web Locks cannot tell: as before, stopped by a reload at once.
    expect(new UserShell({} as AppServices, () => storage, undefined, {}).entries("s")).toMatchObject([{ status: "stopped", message: "stopped by a reload" }]);
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
  const shared = fakeStorage();
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
    const shared = fakeStorage();
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
    await vi.waitFor(() => expect(commands(b)).toEqual(["echo before", "sleep 30"]));
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

describe("UserShell: another tab's running command", () => {
  /** Two tabs on one storage and one lock manager; tab A's command is the one that runs. */
  async function open() {
    const { app } = await setup();
    const { shared, tab } = twoTabs();
    const locks = fakeLocks();
    const lockA = locks.tab();
    const lockB = locks.tab();
    const ta = tab(1);
    const tb = tab(2);
    return {
      shared,
      locks,
      lockA,
      lockB,
      a: new UserShell(app, () => ta.storage, ta.watch, { locks: lockA, settleMs: 0 }),
      b: new UserShell(app, () => tb.storage, tb.watch, { locks: lockB, settleMs: 0 }),
    };
  }

  it("is shown as running in another tab while that tab runs it, then as it really ended", async () => {
    const { a, b } = await open();
    expect(b.entries("s")).toEqual([]);
    const run = a.run("s", "sleep 30");
    await vi.waitFor(() => expect(b.entries("s")).toMatchObject([{ command: "sleep 30", status: "running", elsewhere: true }]));
    // Still so once the lock manager has answered: not "stopped by a reload".
    await tick();
    expect(b.entries("s")).toMatchObject([{ status: "running", elsewhere: true }]);
    expect(b.runningElsewhere("s")).toBe(true);
    expect(a.runningElsewhere("s")).toBe(false);
    expect(fromEntry(b.entries("s")[0] as ShellEntry).status).toBe("running in another tab…");
    // A Stop in B reaches A (both shells share this process's record of commands, so B's stop is A's here).
    b.stop("s");
    await run;
    await vi.waitFor(() => expect(b.entries("s")).toMatchObject([{ command: "sleep 30", status: "stopped" }]));
    expect(b.entries("s")[0]?.message).toBeUndefined();
    expect(b.runningElsewhere("s")).toBe(false);
  });

  it("whose tab is gone is shown as stopped by a reload", async () => {
    const { shared, a, locks, lockA } = await open();
    const run = a.run("s", "sleep 30");
    await vi.waitFor(() => expect(storedLog(shared, "s")).toMatchObject([{ status: "running" }]));
    // A third tab opened now sees it running in A.
    const c = new UserShell({} as AppServices, () => shared, undefined, { locks: locks.tab(), settleMs: 0 });
    expect(c.entries("s")).toMatchObject([{ elsewhere: true }]);
    await tick();
    expect(c.entries("s")).toMatchObject([{ status: "running", elsewhere: true }]);
    // A closes (its command's end is never written): its locks go with it.
    locks.close(lockA);
    await vi.waitFor(() => expect(c.entries("s")).toMatchObject([{ status: "stopped", message: "stopped by a reload" }]));
    expect(c.runningElsewhere("s")).toBe(false);
    // And stored so, by the tab that found it: left as running, every tab opened later would take it for a live
    // command for a moment, a waiting turn could name it, and the caps never drop a running entry.
    expect(storedLog(shared, "s")).toMatchObject([{ command: "sleep 30", status: "stopped", message: "stopped by a reload" }]);
    const d = new UserShell({} as AppServices, () => shared, undefined, { locks: locks.tab(), settleMs: 0 });
    expect(d.entries("s")).toMatchObject([{ status: "stopped", message: "stopped by a reload" }]);
    expect(d.runningElsewhere("s")).toBe(false);
    a.stop("s");
    await run;
  });

  it("refuses a command of its own in the session while another tab's runs there", async () => {
    const { b, locks } = await open();
    // Another tab holds the session's lock (its command runs).
    let free = () => {};
    const other = locks.tab();
    void other.request(shellLockName("s"), () => new Promise<void>((r) => (free = r)));
    await tick();
    await b.run("s", "echo hi");
    expect(b.entries("s")).toMatchObject([{ command: "echo hi", status: "refused", message: expect.stringContaining("another tab") }]);
    free();
    await tick();
    await b.run("s", "echo hi");
    expect(b.entries("s").at(-1)).toMatchObject({ status: "done", output: "hi" });
  });
});

/** A session's stored log of `n` finished commands, each with `lines` lines of output, the newest at `last`. */
function oldLog(session: string, n: number, lines: number, last: number): ShellEntry[] {
  return Array.from({ length: n }, (_, i) => ({
    id: `cmd_${session}_${i}`,
    command: `seq ${lines}`,
    start: last - n + i,
    end: last - n + i,
    status: "done" as const,
    output: Array.from({ length: lines }, (_, j) => `${session} output line ${j}`).join("\n"),
  }));
}

describe("UserShell: the logs' size", () => {
  it("keeps each log within its cap: older outputs trimmed with a marker, then the oldest entries dropped", async () => {
    const { shell, storage } = await setup();
    storage.setItem(terminalLogKey("s"), JSON.stringify(oldLog("s", 60, 300, 1_000)));
    expect(storage.getItem(terminalLogKey("s"))?.length).toBeGreaterThan(LOG_CHARS);
    await shell.run("s", "echo newest");
    const log = storedLog(storage, "s");
    expect(JSON.stringify(log).length).toBeLessThanOrEqual(LOG_CHARS);
    expect(log.at(-1)).toMatchObject({ command: "echo newest", output: "newest" });
    // The oldest kept entry's output is its last lines, said in words.
    expect(log[0]?.omitted).toMatchObject({ trimmed: true, lines: 290 });
    expect(log[0]?.output.split("\n")).toHaveLength(10);
    expect(omittedWords(log[0]?.omitted ?? { lines: 0, chars: 0 })).toBe("… 290 lines trimmed to save storage …");
    // What the screen shows is what is kept.
    expect(shell.entries("s")).toEqual(log);
  });

  it("keeps all logs within a total: the sessions used longest ago give way first", async () => {
    const { shell, storage } = await setup();
    // Four sessions' logs of ~240k characters each, used at times 1,000 (oldest) … 4,000.
    for (const [i, id] of ["old", "older2", "mid", "new"].entries()) storage.setItem(terminalLogKey(id), JSON.stringify(fitLog(oldLog(id, 100, 120, (i + 1) * 1_000), LOG_CHARS)));
    const before = Object.fromEntries(["old", "older2", "mid", "new"].map((id) => [id, storage.getItem(terminalLogKey(id))]));
    await shell.run("s", "seq 1 3000");
    let total = 0;
    for (const k of storage.m.keys()) if (k.startsWith("tabcode.terminal.")) total += storage.getItem(k)?.length ?? 0;
    expect(total).toBeLessThanOrEqual(TOTAL_CHARS);
    // The oldest session's log gave the room; the newer ones are untouched.
    expect(storage.getItem(terminalLogKey("old"))?.length ?? 0).toBeLessThan(before.old?.length ?? 0);
    for (const id of ["older2", "mid", "new"]) expect(storage.getItem(terminalLogKey(id))).toBe(before[id]);
    expect(storedLog(storage, "s")).toMatchObject([{ command: "seq 1 3000", status: "done" }]);
  });

  it("a full storage: older logs make room and the newest entry is written; if even that fails, the Terminal says so", async () => {
    const storage = fakeStorage(100_000);
    const { shell } = await setup(storage);
    storage.setItem(terminalLogKey("ses_old"), JSON.stringify(oldLog("ses_old", 40, 50, 1_000)));
    storage.setItem("tabcode:glance", JSON.stringify(["ses_old"]));
    storage.setItem("tabcode:glance:ses_old", "x".repeat(10_000));
    storage.setItem("tabcode.settings.other", "y".repeat(33_000));
    const oldSize = storage.getItem(terminalLogKey("ses_old"))?.length ?? 0;
    // Less room than the command's output (~10k characters as kept) needs.
    expect(() => storage.setItem("probe", "z".repeat(8_000))).toThrow(/quota/);
    await shell.run("s", "seq 1 3000");
    expect(storedLog(storage, "s")).toMatchObject([{ command: "seq 1 3000", status: "done" }]);
    expect(shell.unsaved("s")).toBe(false);
    // Room came from the cache of pictures and the old session's log (its newest entries kept); nothing else was touched.
    expect(storage.getItem("tabcode:glance:ses_old")).toBeNull();
    expect(storage.getItem(terminalLogKey("ses_old"))?.length ?? 0).toBeLessThan(oldSize);
    expect(storedLog(storage, "ses_old").at(-1)?.id).toBe("cmd_ses_old_39");
    expect(storage.getItem("tabcode.settings.other")).toBe("y".repeat(33_000));

    // Now something else fills storage: nothing of the terminal's is left to give way, no room even for the newest
    // entry with its output trimmed to its last lines.
    storage.removeItem(terminalLogKey("ses_old"));
    storage.removeItem(terminalLogKey("s"));
    storage.setItem("tabcode.settings.big", "w".repeat(100_000 - storage.used() - 50));
    await shell.run("s", "seq 1 2000");
    expect(shell.unsaved("s")).toBe(true);
    // The entry is not lost from the page: it is shown, and the pane says it is not saved.
    expect(shell.entries("s").map((e) => e.command)).toContain("seq 1 2000");
    // Not even when another write trims this log for room: what never reached storage stays on the page.
    storage.m.set(terminalLogKey("s"), "[]");
    expect(freeTerminalSpace(1, storage)).toBeGreaterThan(0);
    expect(shell.entries("s").map((e) => e.command)).toContain("seq 1 2000");
    storage.removeItem("tabcode.settings.big");
    await shell.run("s", "echo room");
    expect(shell.unsaved("s")).toBe(false);
    expect(storedLog(storage, "s").map((e) => e.command)).toContain("seq 1 2000");
  });
});
