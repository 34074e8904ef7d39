import { describe, expect, it } from "vitest";
import type { EngineWorkerReply, EngineWorkerRequest, PortLike } from "./engine-host";
import { PYTHON_RESTART_NOTE, WorkerPythonHost } from "./python-host";
import type { EngineRequest } from "./engine-protocol";

const req: EngineRequest = {
  files: {},
  cwd: "/workspace",
  args: ["-c", "pass"],
  stdin: "",
  env: {},
};

/** A Worker stand-in: answers with `reply`, or never (a stuck interpreter). */
class FakePort implements PortLike {
  onmessage: ((e: MessageEvent<EngineWorkerReply>) => void) | null = null;
  onerror: ((e: ErrorEvent) => void) | null = null;
  terminated = false;
  constructor(private readonly reply?: (m: EngineWorkerRequest) => EngineWorkerReply[]) {}
  postMessage(m: EngineWorkerRequest): void {
    const replies = this.reply?.(m) ?? [];
    setTimeout(() => {
      for (const r of replies) this.onmessage?.({ data: r } as MessageEvent<EngineWorkerReply>);
    }, 1);
  }
  terminate(): void {
    this.terminated = true;
  }
}

const ok = (m: EngineWorkerRequest): EngineWorkerReply[] => [
  {
    id: m.id,
    type: "result",
    ok: true,
    result: {
      stdout: "ok\n",
      stderr: "",
      exitCode: 0,
      writes: {},
      removes: [],
    },
  },
];

describe("WorkerPythonHost", () => {
  it("a stuck interpreter is terminated at the timeout and the next run gets a fresh one", async () => {
    const ports: FakePort[] = [];
    let n = 0;
    const host = new WorkerPythonHost(() => {
      const p = new FakePort(n++ === 0 ? undefined : ok);
      ports.push(p);
      return p;
    });
    const stuck = await host.run(req, { timeoutMs: 20 });
    expect(stuck.exitCode).toBe(124);
    expect(stuck.stderr).toContain("stopped after");
    expect(ports[0]?.terminated).toBe(true);
    const next = await host.run(req, { timeoutMs: 1000 });
    expect(next.stdout).toBe("ok\n");
    expect(ports).toHaveLength(2);
  });

  it("abort terminates the interpreter with exit 130", async () => {
    const port = new FakePort();
    const host = new WorkerPythonHost(() => port);
    const ac = new AbortController();
    const run = host.run(req, { timeoutMs: 10_000, signal: ac.signal });
    await new Promise((r) => setTimeout(r, 5));
    ac.abort();
    const r = await run;
    expect(r.exitCode).toBe(130);
    expect(port.terminated).toBe(true);
  });

  it("says it is loading only before the first answer, and forwards progress", async () => {
    const seen: string[] = [];
    const host = new WorkerPythonHost(() => new FakePort((m) => [{ id: m.id, type: "progress", text: "50%" }, ...ok(m)]));
    await host.run(req, { timeoutMs: 1000, onProgress: (t) => seen.push(t) });
    await host.run(req, { timeoutMs: 1000, onProgress: (t) => seen.push(t) });
    expect(seen).toEqual(["Loading Python… 12 MB\n", "50%", "50%"]);
  });

  it("a crashed Worker becomes a clear error and is replaced", async () => {
    const ports: FakePort[] = [];
    const host = new WorkerPythonHost(() => {
      const p = new FakePort();
      ports.push(p);
      p.postMessage = () => setTimeout(() => p.onerror?.({ message: "Out of memory" } as ErrorEvent), 1);
      return p;
    });
    const r = await host.run(req, { timeoutMs: 1000 });
    expect(r.stderr).toContain("the interpreter crashed (Out of memory)");
    await host.run(req, { timeoutMs: 1000 });
    expect(ports).toHaveLength(2);
  });
  it("a run that grew the interpreter's memory a lot returns its result, then the Worker is replaced", async () => {
    const ports: FakePort[] = [];
    const host = new WorkerPythonHost(() => {
      const p = new FakePort((m) =>
        ok(m).map((r) => (r.type === "result" && r.ok && ports.length === 1 ? { ...r, result: { ...r.result, stderr: PYTHON_RESTART_NOTE, restart: true } } : r)),
      );
      ports.push(p);
      return p;
    });
    const big = await host.run(req, { timeoutMs: 1000 });
    expect(big.stdout).toBe("ok\n");
    expect(big.stderr).toBe(PYTHON_RESTART_NOTE);
    expect(ports[0]?.terminated).toBe(true);
    expect((await host.run(req, { timeoutMs: 1000 })).stderr).toBe("");
    expect(ports).toHaveLength(2);
  });
});

describe("python3 through the sandbox with a Worker host", () => {
  it("streams the loading text into the running command's output, then returns only the script's output", async () => {
    const { createLocalSandboxForTests } = await import("../testing");
    const host = new WorkerPythonHost(() => new FakePort(ok));
    const sb = await createLocalSandboxForTests({ runtimes: { python: host } });
    const chunks: string[] = [];
    const r = await sb.exec("python3 -c pass", { onOutput: (c) => chunks.push(c) });
    expect(chunks[0]).toBe("Loading Python… 12 MB\n");
    expect(r.stdout).toBe("ok\n");
  });
});
