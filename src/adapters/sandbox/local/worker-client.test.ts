import { describe, expect, it } from "vitest";
import { editTool } from "../../../core/tools/edit";
import { readTool } from "../../../core/tools/read";
import { NOT_FOUND_ERROR } from "../../../core/tools/replacers";
import { makeToolContext, runTool } from "../../../testing/workspace-tool-context";
import { sandboxContract } from "../sandbox-contract";
import { LocalSandbox } from "./local-sandbox";
import { type WorkerLike, WorkerSandbox } from "./worker-client";
import { WorkerHost } from "./worker-host";
import type { WorkerRequest, WorkerResponse } from "./worker-protocol";
import { MemoryWorkspaceStore } from "./workspace-store";

/** A Worker stand-in running the real host in this thread, with structured-clone message passing. */
class InProcessWorker implements WorkerLike {
  onmessage: ((e: MessageEvent<WorkerResponse>) => void) | null = null;
  onerror: ((e: ErrorEvent) => void) | null = null;
  terminated = false;
  /** When set, the "Worker" stops answering (as one whose event loop is starved). */
  frozen = false;
  /** Every request op, in order. */
  readonly ops: string[] = [];
  private readonly host: WorkerHost;

  constructor(store: MemoryWorkspaceStore) {
    this.host = new WorkerHost(
      (msg) => {
        if (this.terminated || this.frozen) return;
        const data = structuredClone(msg);
        setTimeout(() => this.onmessage?.({ data } as MessageEvent<WorkerResponse>), 0);
      },
      (workspace) => LocalSandbox.open({ workspace, store }),
    );
  }
  postMessage(message: WorkerRequest): void {
    if (this.terminated) return;
    this.ops.push(message.op);
    const data = structuredClone(message);
    setTimeout(() => void this.host.handle(data), 0);
  }
  terminate(): void {
    this.terminated = true;
  }
}

function setup(graceMs = 100) {
  const store = new MemoryWorkspaceStore();
  const workers: InProcessWorker[] = [];
  const sandbox = new WorkerSandbox(
    "ses_w",
    () => {
      const w = new InProcessWorker(store);
      workers.push(w);
      return w;
    },
    { graceMs },
  );
  return { store, workers, sandbox };
}

sandboxContract("local via worker messages", async () => {
  const { store, sandbox } = setup(2000);
  return { sandbox, countBlobs: () => store.countBlobs() };
});

describe("worker sandbox watchdog", () => {
  it("kills a Worker that overruns its deadline, then reloads the workspace in a new one", async () => {
    const { sandbox, workers } = setup(100);
    await sandbox.fs.writeFile("/workspace/kept.txt", "persisted\n");
    const first = workers[0];
    if (!first) throw new Error("no worker");
    first.frozen = true;
    const started = Date.now();
    const r = await sandbox.exec("sleep 1", { timeoutMs: 100 });
    expect(r.timedOut).toBe(true);
    expect(r.exitCode).toBe(124);
    expect(r.stderr).toMatch(/sandbox was restarted/);
    expect(Date.now() - started).toBeLessThan(900);
    expect(first.terminated).toBe(true);
    expect(sandbox.restarts).toBe(1);
    expect((await sandbox.exec("cat kept.txt")).stdout).toBe("persisted\n");
    expect(workers).toHaveLength(2);
  });

  it("kills a Worker that ignores an abort", async () => {
    const { sandbox, workers } = setup(100);
    await sandbox.ready();
    const w = workers[0];
    if (!w) throw new Error("no worker");
    w.frozen = true;
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 50);
    const r = await sandbox.exec("sleep 1", { signal: ac.signal });
    expect(r.aborted).toBe(true);
    expect(w.terminated).toBe(true);
  });

  it("stops a command aborted while the Worker still starts, without killing it", async () => {
    const { sandbox, workers } = setup(5_000);
    const ac = new AbortController();
    const started = Date.now();
    const r = sandbox.exec("sleep 5", { signal: ac.signal });
    ac.abort();
    expect((await r).aborted).toBe(true);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(workers[0]?.terminated).toBe(false);
  });

  it("fails other pending calls when the Worker is killed, and recovers", async () => {
    const { sandbox, workers } = setup(50);
    await sandbox.ready();
    const w = workers[0];
    if (!w) throw new Error("no worker");
    w.frozen = true;
    const pendingRead = sandbox.fs.readText("/workspace/none");
    const r = await sandbox.exec("sleep 1", { timeoutMs: 50 });
    expect(r.timedOut).toBe(true);
    await expect(pendingRead).rejects.toThrow(/restarted/);
    expect(await sandbox.fs.exists("/workspace")).toBe(true);
  });

  it("runs the edit tool's replacer cascade in the Worker", async () => {
    const { sandbox, workers } = setup();
    await sandbox.fs.writeFile("/workspace/a.ts", "const a = 1;\n");
    const ctx = makeToolContext({ sandbox });
    await runTool(readTool, { filePath: "a.ts" }, ctx);
    await runTool(editTool, { filePath: "a.ts", oldString: "  const a = 1;", newString: "const a = 2;" }, ctx);
    expect(await sandbox.fs.readText("/workspace/a.ts")).toBe("const a = 2;\n");
    expect(workers.flatMap((w) => w.ops)).toContain("replace");
    expect(await sandbox.replaceText("x y", "q", "z", false)).toEqual({ ok: false, error: NOT_FOUND_ERROR });
  });

  it("carries error names across the boundary", async () => {
    const { sandbox } = setup();
    const err = await sandbox.fs.readFile("/workspace/missing").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect(String((err as Error).message)).toMatch(/ENOENT/);
  });
});
