import { describe, expect, it } from "vitest";
import { type EngineWorkerReply, type EngineWorkerRequest, InProcessEngineHost, type PortLike, WorkerEngineHost } from "./engine-host";
import type { EngineRequest, EngineResult } from "./engine-protocol";

const req: EngineRequest = { files: {}, cwd: "/workspace", args: [], stdin: "", env: {} };
const done = (extra: Partial<EngineResult> = {}): EngineResult => ({ stdout: "ok\n", stderr: "", exitCode: 0, writes: {}, removes: [], ...extra });

class Port implements PortLike {
  onmessage: ((e: MessageEvent<EngineWorkerReply>) => void) | null = null;
  onerror: ((e: ErrorEvent) => void) | null = null;
  postMessage(m: EngineWorkerRequest): void {
    setTimeout(() => this.onmessage?.({ data: { id: m.id, type: "result", ok: true, result: done() } } as MessageEvent<EngineWorkerReply>), 1);
  }
  terminate(): void {}
}

describe("engine hosts", () => {
  it("the Worker host says which engine loads and how big it is, once", async () => {
    const lines: string[] = [];
    const host = new WorkerEngineHost(() => new Port(), { command: "sqlite3", label: "SQLite", megabytes: 1.3 });
    await host.run(req, { timeoutMs: 1000, onProgress: (t) => lines.push(t) });
    await host.run(req, { timeoutMs: 1000, onProgress: (t) => lines.push(t) });
    expect(lines).toEqual(["Loading SQLite… 1.3 MB\n"]);
  });

  it("the in-process host passes the timeout and loads a fresh engine after a run that asks for it", async () => {
    let loads = 0;
    const seen: (number | undefined)[] = [];
    const host = new InProcessEngineHost(
      async () => ++loads,
      (_engine, r) => {
        seen.push(r.timeoutMs);
        return done({ restart: seen.length === 1 });
      },
    );
    await host.run(req, { timeoutMs: 1234 });
    await host.run(req, { timeoutMs: 1234 });
    await host.run(req, { timeoutMs: 1234 });
    expect(seen).toEqual([1234, 1234, 1234]);
    expect(loads).toBe(2);
  });
});
