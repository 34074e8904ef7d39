/**
 * Where Python runs. `InProcessPythonHost` loads Pyodide in the calling
 * thread (Node tests, benchmarks); `WorkerPythonHost` keeps it in its own
 * Worker so a runaway script can be stopped: on timeout or abort the Worker
 * is terminated and the next run starts a fresh interpreter.
 */
import type { PyodideAPI } from "pyodide";
import { runInPyodide } from "./python-driver";
import type { PythonHost, PythonRequest, PythonResult } from "./python-protocol";

/** Bytes the browser downloads on first use (interpreter + standard library), for the progress text. */
export const PYTHON_DOWNLOAD_MB = 12;

export class InProcessPythonHost implements PythonHost {
  private py?: Promise<PyodideAPI>;
  constructor(private readonly load: () => Promise<PyodideAPI> = defaultLoad) {}

  async run(req: PythonRequest): Promise<PythonResult> {
    this.py ??= this.load();
    return runInPyodide(await this.py, req);
  }
}

async function defaultLoad(): Promise<PyodideAPI> {
  const { loadPyodide } = await import("pyodide");
  return loadPyodide();
}

/** The most WebAssembly memory the Python Worker may use: beyond it, allocations fail as a MemoryError. */
export const PYTHON_MEMORY_LIMIT = 1024 * 1024 * 1024;
/** After a run that left the Worker's memory above this, it is replaced (memory never shrinks). */
export const PYTHON_RESTART_ABOVE = 256 * 1024 * 1024;

/** Messages to and from the Python Worker. */
export type PythonWorkerRequest = { id: number; req: PythonRequest };
export type PythonWorkerReply =
  | { id: number; type: "progress"; text: string }
  | { id: number; type: "result"; ok: true; result: PythonResult; restart?: boolean }
  | { id: number; type: "result"; ok: false; message: string };

/** The part of a Worker the host uses (a fake in tests). */
export interface PortLike {
  postMessage(msg: PythonWorkerRequest): void;
  onmessage: ((e: MessageEvent<PythonWorkerReply>) => void) | null;
  onerror: ((e: ErrorEvent) => void) | null;
  terminate(): void;
}

export function timeoutResult(timeoutMs: number, aborted: boolean): PythonResult {
  const why = aborted ? "python3: interrupted" : `python3: stopped after ${Math.round(timeoutMs / 1000)} s (the command timeout)`;
  return {
    stdout: "",
    stderr: `${why}; the interpreter was restarted.\n`,
    exitCode: aborted ? 130 : 124,
    writes: {},
    removes: [],
  };
}

export class WorkerPythonHost implements PythonHost {
  private port?: PortLike;
  private nextId = 1;
  private warm = false;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly spawn: () => PortLike) {}

  run(
    req: PythonRequest,
    opts: {
      timeoutMs: number;
      signal?: AbortSignal;
      onProgress?: (text: string) => void;
    },
  ): Promise<PythonResult> {
    const go = () => this.runNow(req, opts);
    const p = this.queue.then(go, go);
    this.queue = p.catch(() => undefined);
    return p;
  }

  private kill(): void {
    this.port?.terminate();
    this.port = undefined;
    this.warm = false;
  }

  private runNow(
    req: PythonRequest,
    opts: {
      timeoutMs: number;
      signal?: AbortSignal;
      onProgress?: (text: string) => void;
    },
  ): Promise<PythonResult> {
    if (opts.signal?.aborted) return Promise.resolve(timeoutResult(opts.timeoutMs, true));
    this.port ??= this.spawn();
    const port = this.port;
    const id = this.nextId++;
    if (!this.warm) opts.onProgress?.(`Loading Python… ${PYTHON_DOWNLOAD_MB} MB\n`);
    return new Promise<PythonResult>((resolve) => {
      const done = (r: PythonResult) => {
        clearTimeout(timer);
        opts.signal?.removeEventListener("abort", onAbort);
        port.onmessage = null;
        port.onerror = null;
        resolve(r);
      };
      const onAbort = () => {
        this.kill();
        done(timeoutResult(opts.timeoutMs, true));
      };
      const timer = setTimeout(() => {
        this.kill();
        done(timeoutResult(opts.timeoutMs, false));
      }, opts.timeoutMs);
      opts.signal?.addEventListener("abort", onAbort, { once: true });
      port.onerror = (e) => {
        this.kill();
        done({
          stdout: "",
          stderr: `python3: the interpreter crashed (${e.message || "out of memory?"}); it was restarted.\n`,
          exitCode: 1,
          writes: {},
          removes: [],
        });
      };
      port.onmessage = (e) => {
        const m = e.data;
        if (m.id !== id) return;
        if (m.type === "progress") opts.onProgress?.(m.text);
        else if (m.ok && m.restart) {
          this.kill();
          done({ ...m.result, stderr: `${m.result.stderr}python3: the script used a lot of memory; the interpreter was restarted to free it.\n` });
        } else if (m.ok) {
          this.warm = true;
          done(m.result);
        } else {
          this.kill();
          done({
            stdout: "",
            stderr: `python3: ${m.message}\n`,
            exitCode: 1,
            writes: {},
            removes: [],
          });
        }
      };
      port.postMessage({ id, req });
    });
  }
}
