import { afterEach, describe, expect, it, vi } from "vitest";
import { fakeLocks } from "../testing/fake-locks";
import { assertNoShellCommand, holdShellLocks, shellCommandRunning, shellCommandsDone, shellCommandStarted, stopShellCommand } from "./shell-runs";
import { terminalLogKey } from "./terminal-log-key";

afterEach(() => {
  vi.unstubAllGlobals();
});

const tick = (ms = 0) => new Promise((r) => setTimeout(r, ms));

describe("shell runs", () => {
  it("waits for the person's command in that session only, and for one started while waiting", async () => {
    await shellCommandsDone("ses_none");
    const first = shellCommandStarted("ses_a", () => {}, "make");
    let done = false;
    const wait = shellCommandsDone("ses_a").then(() => {
      done = true;
    });
    await shellCommandsDone("ses_b");
    await new Promise((r) => setTimeout(r, 10));
    expect(done).toBe(false);
    const second = shellCommandStarted("ses_a", () => {}, "make");
    first();
    await new Promise((r) => setTimeout(r, 10));
    expect(done).toBe(false);
    second();
    await wait;
    expect(done).toBe(true);
  });

  it("refuses a change to the files while a command runs, in that session only", async () => {
    const end = shellCommandStarted("ses_c", () => {}, "make");
    expect(shellCommandRunning("ses_c")).toBe(true);
    await expect(assertNoShellCommand("ses_c", undefined)).rejects.toThrow("a command of yours is still running in the terminal");
    await expect(assertNoShellCommand("ses_d", undefined)).resolves.toBeUndefined();
    end();
    await expect(assertNoShellCommand("ses_c", undefined)).resolves.toBeUndefined();
  });

  it("stops the command running in that session only, through the stop it was started with", () => {
    const stopped: string[] = [];
    const endE = shellCommandStarted("ses_e", () => stopped.push("e"), "sleep 9");
    const endF = shellCommandStarted("ses_f", () => stopped.push("f"), "sleep 9");
    stopShellCommand("ses_e");
    stopShellCommand("ses_none");
    expect(stopped).toEqual(["e"]);
    endE();
    stopShellCommand("ses_e");
    expect(stopped).toEqual(["e"]);
    expect(shellCommandRunning("ses_e")).toBe(false);
    expect(shellCommandRunning("ses_f")).toBe(true);
    endF();
  });
});

describe("shell runs across tabs", () => {
  it("a revert (or unrevert) is refused while another tab's command runs in the session, naming its line, and allowed once it ends", async () => {
    const locks = fakeLocks();
    const a = locks.tab();
    const b = locks.tab();
    const m = new Map<string, string>([[terminalLogKey("ses_r"), JSON.stringify([{ id: "cmd_1", command: "npm run build", start: 1, status: "running", output: "" }])]]);
    vi.stubGlobal("localStorage", { getItem: (k: string) => m.get(k) ?? null });
    const release = await holdShellLocks(a, "ses_r", "cmd_1");
    if (!release) throw new Error("the locks were free");
    await expect(assertNoShellCommand("ses_r", b)).rejects.toThrow("a command of yours is still running in the terminal in another tab (npm run build)");
    // Another session's files are free to change.
    await expect(assertNoShellCommand("ses_other", b)).resolves.toBeUndefined();
    release();
    await tick(10);
    await expect(assertNoShellCommand("ses_r", b)).resolves.toBeUndefined();
  });

  it("a turn waits for another tab's command (its session lock), naming its line, and goes on when that tab's command ends", async () => {
    const locks = fakeLocks();
    const a = locks.tab();
    const b = locks.tab();
    const m = new Map<string, string>([[terminalLogKey("ses_x"), JSON.stringify([{ id: "cmd_1", command: "make all", start: 1, status: "running", output: "" }])]]);
    vi.stubGlobal("localStorage", { getItem: (k: string) => m.get(k) ?? null });
    const release = await holdShellLocks(a, "ses_x", "cmd_1");
    if (!release) throw new Error("the locks were free");
    // The same session's lock is refused to a second tab's command while this one runs.
    expect(await holdShellLocks(b, "ses_x", "cmd_2")).toBeUndefined();
    const heard: string[] = [];
    let done = false;
    const wait = shellCommandsDone("ses_x", (line) => heard.push(line), b).then(() => {
      done = true;
    });
    await tick(10);
    expect(heard).toEqual(["make all"]);
    expect(done).toBe(false);
    // Another session is not held up.
    await shellCommandsDone("ses_y", (line) => heard.push(line), b);
    release();
    await wait;
    expect(heard).toEqual(["make all"]);
    expect(locks.held()).toEqual([]);
  });

  it("a closed tab's command holds nothing up: the browser frees its locks", async () => {
    const locks = fakeLocks();
    const a = locks.tab();
    const b = locks.tab();
    await holdShellLocks(a, "ses_z", "cmd_1");
    let done = false;
    const wait = shellCommandsDone("ses_z", undefined, b).then(() => {
      done = true;
    });
    await tick(10);
    expect(done).toBe(false);
    locks.close(a);
    await wait;
    expect(await holdShellLocks(b, "ses_z", "cmd_2")).toBeTypeOf("function");
  });

  it("Stop from a tab that does not run the command asks the other tabs, and the one running it stops", async () => {
    const other = new BroadcastChannel("tabcode-shell-stop");
    const asked: unknown[] = [];
    other.onmessage = (e) => asked.push(e.data);
    try {
      stopShellCommand("ses_elsewhere");
      await vi.waitFor(() => expect(asked).toEqual([{ stop: "ses_elsewhere" }]));
      const stopped: string[] = [];
      const end = shellCommandStarted("ses_here", () => stopped.push("here"), "sleep 9");
      other.postMessage({ stop: "ses_here" });
      other.postMessage({ stop: "ses_none" });
      await vi.waitFor(() => expect(stopped).toEqual(["here"]));
      end();
    } finally {
      other.close();
    }
  });

  it("a Stop aimed at one command stops that one only: the tab may have started another since", async () => {
    const other = new BroadcastChannel("tabcode-shell-stop");
    const asked: unknown[] = [];
    other.onmessage = (e) => asked.push(e.data);
    try {
      stopShellCommand("ses_gone", "cmd_old");
      await vi.waitFor(() => expect(asked).toEqual([{ stop: "ses_gone", entry: "cmd_old" }]));
      const stopped: string[] = [];
      const end = shellCommandStarted("ses_next", () => stopped.push("next"), "npm test", "cmd_new");
      // The other tab still showed the earlier command: its Stop must not end the one started since.
      other.postMessage({ stop: "ses_next", entry: "cmd_old" });
      await tick(20);
      expect(stopped).toEqual([]);
      stopShellCommand("ses_next", "cmd_old");
      expect(stopped).toEqual([]);
      other.postMessage({ stop: "ses_next", entry: "cmd_new" });
      await vi.waitFor(() => expect(stopped).toEqual(["next"]));
      // The waiting turn's bar stops whatever runs in the session.
      other.postMessage({ stop: "ses_next" });
      await vi.waitFor(() => expect(stopped).toEqual(["next", "next"]));
      end();
    } finally {
      other.close();
    }
  });

  it("a command this tab starts while the lock query is out is waited for, though its lock was not held when asked", async () => {
    const locks = fakeLocks();
    const b = locks.tab();
    // The first query answers only when told to; later ones at once.
    let answer: (() => void) | undefined;
    let first = true;
    const slow = {
      ...b,
      query: () => {
        if (!first) return b.query();
        first = false;
        return new Promise<Awaited<ReturnType<typeof b.query>>>((resolve) => {
          answer = () => void b.query().then(resolve);
        });
      },
    };
    let done = false;
    const wait = shellCommandsDone("ses_q", undefined, slow).then(() => {
      done = true;
    });
    await tick(0);
    const end = shellCommandStarted("ses_q", () => {}, "make", "cmd_q");
    answer?.();
    await tick(10);
    expect(done).toBe(false);
    end();
    await wait;
  });
});
