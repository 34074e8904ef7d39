/**
 * Page side of the local sandbox: implements the sandbox port by messages to
 * a Worker that runs just-bash. Limits, from soft to hard:
 * - just-bash's execution limits and `maxExecutionTimeMs = timeoutMs` (in the Worker);
 * - an abort message when the caller's signal fires;
 * - a watchdog: if the Worker has not answered `graceMs` after the deadline
 *   (or after an abort), it is terminated. The next call starts a new Worker,
 *   which reloads the workspace from IndexedDB (changes of the killed command
 *   that were not flushed yet are lost).
 */
import type { ExecGuard, ExecOptions, ExecResult, FileEntry, ReplaceTextResult, Sandbox, SandboxFS } from "../../../core/ports/sandbox";
import { AskTheWorker, type EarlyReads } from "./early-reads";
import { DEFAULT_EXEC_TIMEOUT_MS, LOCAL_ROOT } from "./local-sandbox";
import type { FsMethod, GuardEvent, WorkerRequest, WorkerResponse } from "./worker-protocol";

/** The part of `Worker` the client uses (a fake in tests). */
export interface WorkerLike {
  postMessage(message: WorkerRequest): void;
  terminate(): void;
  onmessage: ((e: MessageEvent<WorkerResponse>) => void) | null;
  onerror: ((e: ErrorEvent) => void) | null;
}

export interface WorkerSandboxOptions {
  /** IndexedDB database name (tests use their own). */
  dbName?: string;
  /** How long the Worker may overrun a deadline or ignore an abort before it is killed. */
  graceMs?: number;
  /**
   * Reads of the persisted workspace that answer while the Worker first starts (see `early-reads.ts`):
   * used until the Worker has loaded the workspace or anything is changed through this sandbox.
   */
  early?: EarlyReads;
}

const READS = new Set<FsMethod>(["readFile", "readText", "list", "stat", "exists"]);

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
  onOutput?: (chunk: string) => void;
  onGuard?: (event: GuardEvent) => void;
  /** For exec calls: the result to report when the Worker is killed. */
  onKill?: (reason: "timeout" | "abort") => ExecResult;
}

export const DEFAULT_GRACE_MS = 2000;

function killedResult(reason: "timeout" | "abort", timeoutMs: number): ExecResult {
  const stderr =
    reason === "timeout"
      ? `The command did not stop at its ${timeoutMs} ms deadline; the sandbox was restarted (unsaved changes of this command may be lost).\n`
      : "The command did not stop when aborted; the sandbox was restarted (unsaved changes of this command may be lost).\n";
  return { stdout: "", stderr, combined: stderr, exitCode: reason === "timeout" ? 124 : 130, timedOut: reason === "timeout", aborted: reason === "abort" };
}

export class WorkerSandbox implements Sandbox {
  readonly kind = "local" as const;
  readonly root = LOCAL_ROOT;
  readonly fs: SandboxFS;
  private worker?: WorkerLike;
  private opened?: Promise<unknown>;
  /** Reads answered from the persisted workspace until the Worker has loaded it (dropped at the first change). */
  private early?: EarlyReads;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  /** How many times the Worker was killed (for diagnostics and tests). */
  restarts = 0;

  constructor(
    readonly workspace: string,
    private readonly spawn: () => WorkerLike,
    private readonly opts: WorkerSandboxOptions = {},
  ) {
    this.early = opts.early;
    const call =
      (method: FsMethod) =>
      (...args: unknown[]): Promise<unknown> => {
        const early = this.early;
        if (!READS.has(method)) this.early = undefined;
        else if (early) {
          const read = early[method as keyof EarlyReads] as (...a: unknown[]) => Promise<unknown>;
          return read(...args).catch((e: unknown) => (e instanceof AskTheWorker ? this.call({ id: 0, op: "fs", method, args }) : Promise.reject(e)));
        }
        return this.call({ id: 0, op: "fs", method, args });
      };
    this.fs = {
      readFile: call("readFile") as (p: string) => Promise<Uint8Array>,
      readText: call("readText") as (p: string) => Promise<string>,
      writeFile: call("writeFile") as (p: string, d: string | Uint8Array) => Promise<void>,
      list: call("list") as (p: string) => Promise<FileEntry[]>,
      stat: call("stat") as (p: string) => Promise<FileEntry | undefined>,
      exists: call("exists") as (p: string) => Promise<boolean>,
      mkdir: call("mkdir") as (p: string) => Promise<void>,
      rm: call("rm") as (p: string) => Promise<void>,
      rename: call("rename") as (a: string, b: string) => Promise<void>,
    };
  }

  /** Starts the Worker (if needed) and loads the workspace. */
  ready(): Promise<void> {
    return this.ensure().then(() => undefined);
  }

  private ensure(): Promise<unknown> {
    if (this.worker && this.opened) return this.opened;
    const w = this.spawn();
    this.worker = w;
    w.onmessage = (e) => this.receive(e.data);
    w.onerror = (e) => this.fail(new Error(`The sandbox worker failed: ${e.message || "unknown error"}`));
    const opened = this.send(w, { id: 0, op: "open", workspace: this.workspace, dbName: this.opts.dbName });
    this.opened = opened;
    void opened.then(
      () => {
        if (this.opened === opened) this.early = undefined;
      },
      () => undefined,
    );
    return opened;
  }

  private send(w: WorkerLike, req: WorkerRequest, extra: Omit<Pending, "resolve" | "reject"> = {}): Promise<unknown> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, ...extra });
      w.postMessage({ ...req, id });
    });
  }

  private async call(req: WorkerRequest, extra?: Omit<Pending, "resolve" | "reject">): Promise<never> {
    await this.ensure();
    const w = this.worker;
    if (!w) throw new Error("The sandbox worker is not running");
    return (await this.send(w, req, extra)) as never;
  }

  private receive(msg: WorkerResponse): void {
    const p = this.pending.get(msg.id);
    if (!p) return;
    if (msg.type === "output") {
      p.onOutput?.(msg.chunk);
      return;
    }
    if (msg.type === "guard") {
      p.onGuard?.(msg.event);
      return;
    }
    this.pending.delete(msg.id);
    if (msg.ok) p.resolve(msg.value);
    else {
      const err = new Error(msg.error.message);
      err.name = msg.error.name;
      p.reject(err);
    }
  }

  /** Rejects every pending call (the Worker died by itself). */
  private fail(error: Error): void {
    this.worker?.terminate();
    this.worker = undefined;
    this.opened = undefined;
    const all = [...this.pending.values()];
    this.pending.clear();
    for (const p of all) p.reject(error);
  }

  /** Hard limit: terminates the Worker; pending execs end as timed out / aborted, other calls fail. */
  private kill(reason: "timeout" | "abort"): void {
    this.restarts++;
    this.worker?.terminate();
    this.worker = undefined;
    this.opened = undefined;
    const all = [...this.pending.values()];
    this.pending.clear();
    for (const p of all) {
      if (p.onKill) p.resolve(p.onKill(reason));
      else p.reject(new Error("The sandbox was restarted while this call was running; try again."));
    }
  }

  async exec(command: string, opts: ExecOptions = {}): Promise<ExecResult> {
    const timeoutMs = opts.timeoutMs ?? DEFAULT_EXEC_TIMEOUT_MS;
    if (opts.signal?.aborted) return { stdout: "", stderr: "", combined: "", exitCode: 130, timedOut: false, aborted: true };
    this.early = undefined;
    await this.ensure();
    // Stopped while the Worker started (the listener below is not there yet).
    if (opts.signal?.aborted) return { stdout: "", stderr: "", combined: "", exitCode: 130, timedOut: false, aborted: true };
    const w = this.worker;
    if (!w) throw new Error("The sandbox worker is not running");
    const grace = this.opts.graceMs ?? DEFAULT_GRACE_MS;
    const execId = this.nextId;
    let abortTimer: ReturnType<typeof setTimeout> | undefined;
    const onAbort = () => {
      w.postMessage({ id: 0, op: "abort", target: execId });
      abortTimer = setTimeout(() => this.kill("abort"), grace);
    };
    const deadline = setTimeout(() => this.kill("timeout"), timeoutMs + grace);
    opts.signal?.addEventListener("abort", onAbort, { once: true });
    try {
      const result = (await this.send(
        w,
        { id: 0, op: "exec", command, cwd: opts.cwd, env: opts.env, timeoutMs, policy: opts.guard?.policy, asks: opts.guard?.ask !== undefined },
        { onOutput: opts.onOutput, onGuard: (e) => this.onGuard(w, execId, opts.guard, e), onKill: (reason) => killedResult(reason, timeoutMs) },
      )) as ExecResult;
      // The Worker cannot tell an abort from its own signal apart from the caller's: fix the flags here.
      return opts.signal?.aborted ? { ...result, aborted: true, timedOut: false } : result;
    } finally {
      clearTimeout(deadline);
      clearTimeout(abortTimer);
      opts.signal?.removeEventListener("abort", onAbort);
    }
  }

  /** Relays the Worker's guard events to the caller's guard; answers asks. */
  private onGuard(w: WorkerLike, execId: number, guard: ExecGuard | undefined, e: GuardEvent): void {
    if (e.kind === "denied") guard?.denied?.(e.command, e.message, e.rule);
    else if (e.kind === "path") guard?.pathRefused?.(e.refusal);
    else {
      const asked = guard?.ask ? guard.ask(e.command, e.shown) : Promise.resolve("Nobody can be asked about this command.");
      void asked
        .catch((err: unknown) => (err instanceof Error ? err.message : "Refused."))
        .then((refusal) => {
          if (this.worker === w) w.postMessage({ id: 0, op: "answer", target: execId, ask: e.ask, refusal });
        });
    }
  }

  snapshot(): Promise<string> {
    return this.call({ id: 0, op: "snapshot" });
  }
  restore(hash: string): Promise<void> {
    this.early = undefined;
    return this.call({ id: 0, op: "restore", hash });
  }
  changed(from: string, to: string): Promise<string[]> {
    return this.call({ id: 0, op: "changed", from, to });
  }
  readAt(hash: string, relPath: string): Promise<Uint8Array | undefined> {
    return this.call({ id: 0, op: "readAt", hash, relPath });
  }
  /** The edit cascade runs in the Worker, off the page's main thread. */
  replaceText(content: string, oldString: string, newString: string, replaceAll: boolean): Promise<ReplaceTextResult> {
    return this.call({ id: 0, op: "replace", content, oldString, newString, replaceAll });
  }

  /** Stops the Worker; the next call starts a new one that reloads the persisted workspace. */
  restart(): void {
    this.fail(new Error("The sandbox was closed"));
  }
}
