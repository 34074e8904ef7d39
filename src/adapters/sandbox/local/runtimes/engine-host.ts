/**
 * An engine in its own Worker (the browser): one request at a time; on
 * timeout or abort the Worker is terminated and the next run starts a fresh
 * interpreter, so a runaway script never holds the sandbox.
 */
import type { EngineHost, EngineRequest, EngineResult } from "./engine-protocol";

/** Messages to and from an engine Worker. */
export type EngineWorkerRequest = { id: number; req: EngineRequest };
export type EngineWorkerReply =
  | { id: number; type: "progress"; text: string }
  | { id: number; type: "result"; ok: true; result: EngineResult }
  | { id: number; type: "result"; ok: false; message: string };

/** The part of a Worker the host uses (a fake in tests). */
export interface PortLike {
  postMessage(msg: EngineWorkerRequest): void;
  onmessage: ((e: MessageEvent<EngineWorkerReply>) => void) | null;
  onerror: ((e: ErrorEvent) => void) | null;
  terminate(): void;
}

/** What the host says about its engine. */
export interface EngineInfo {
  /** Command name in messages ("python3"). */
  command: string;
  /** Name in the loading line ("Python"). */
  label: string;
  /** Bytes downloaded on first use, in MB. */
  megabytes: number;
}

export function timeoutResult(timeoutMs: number, aborted: boolean, command = "python3"): EngineResult {
  const why = aborted ? `${command}: interrupted` : `${command}: stopped after ${Math.round(timeoutMs / 1000)} s (the command timeout)`;
  return {
    stdout: "",
    stderr: `${why}; the interpreter was restarted.\n`,
    exitCode: aborted ? 130 : 124,
    writes: {},
    removes: [],
  };
}

export class WorkerEngineHost implements EngineHost {
  private port?: PortLike;
  private nextId = 1;
  private warm = false;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly spawn: () => PortLike,
    private readonly info: EngineInfo,
  ) {}

  run(
    req: EngineRequest,
    opts: {
      timeoutMs: number;
      signal?: AbortSignal;
      onProgress?: (text: string) => void;
    },
  ): Promise<EngineResult> {
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
    req: EngineRequest,
    opts: {
      timeoutMs: number;
      signal?: AbortSignal;
      onProgress?: (text: string) => void;
    },
  ): Promise<EngineResult> {
    if (opts.signal?.aborted) return Promise.resolve(timeoutResult(opts.timeoutMs, true, this.info.command));
    this.port ??= this.spawn();
    const port = this.port;
    const id = this.nextId++;
    if (!this.warm) opts.onProgress?.(`Loading ${this.info.label}… ${this.info.megabytes} MB\n`);
    return new Promise<EngineResult>((resolve) => {
      const done = (r: EngineResult) => {
        clearTimeout(timer);
        opts.signal?.removeEventListener("abort", onAbort);
        port.onmessage = null;
        port.onerror = null;
        resolve(r);
      };
      const onAbort = () => {
        this.kill();
        done(timeoutResult(opts.timeoutMs, true, this.info.command));
      };
      const timer = setTimeout(() => {
        this.kill();
        done(timeoutResult(opts.timeoutMs, false, this.info.command));
      }, opts.timeoutMs);
      opts.signal?.addEventListener("abort", onAbort, { once: true });
      port.onerror = (e) => {
        this.kill();
        done({
          stdout: "",
          stderr: `${this.info.command}: the interpreter crashed (${e.message || "out of memory?"}); it was restarted.\n`,
          exitCode: 1,
          writes: {},
          removes: [],
        });
      };
      port.onmessage = (e) => {
        const m = e.data;
        if (m.id !== id) return;
        if (m.type === "progress") opts.onProgress?.(m.text);
        else if (m.ok) {
          this.warm = true;
          // The engine asks for a fresh Worker next time (its memory grew past what it gives back, or its state is broken).
          if (m.result.restart) this.kill();
          done(m.result);
        } else {
          this.kill();
          done({
            stdout: "",
            stderr: `${this.info.command}: ${m.message}\n`,
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

/** The engine stops itself a little before the command timeout, so its own words reach the user (the host's kill is the backstop). */
export function engineBudget(timeoutMs: number): number {
  return Math.max(50, timeoutMs - Math.min(1000, timeoutMs * 0.1));
}

/** An engine loaded in the calling thread (Node tests, benchmarks): loaded once, one run at a time. */
export class InProcessEngineHost<T> implements EngineHost {
  private engine?: Promise<T>;
  constructor(
    private readonly load: () => Promise<T>,
    private readonly runIn: (engine: T, req: EngineRequest) => EngineResult,
  ) {}

  async run(req: EngineRequest, opts: { timeoutMs: number }): Promise<EngineResult> {
    this.engine ??= this.load();
    const result = this.runIn(await this.engine, { ...req, timeoutMs: req.timeoutMs ?? opts.timeoutMs });
    if (result.restart) this.engine = undefined;
    return result;
  }
}
