/**
 * The Worker side of the local sandbox: owns one `LocalSandbox` and answers
 * requests. Kept free of Worker globals so it can be driven from tests.
 */
import type { ExecGuard, SandboxFS } from "../../../core/ports/sandbox";
import { replace } from "../../../core/tools/replacers";
import type { LocalSandbox } from "./local-sandbox";
import type { GuardEvent, WireError, WorkerRequest, WorkerResponse } from "./worker-protocol";

export type OpenSandbox = (workspace: string, dbName?: string) => Promise<LocalSandbox>;

function toWire(e: unknown): WireError {
  if (e instanceof Error) return { name: e.name, message: e.message };
  return { name: "Error", message: String(e) };
}

export class WorkerHost {
  private sandbox?: Promise<LocalSandbox>;
  private readonly running = new Map<number, AbortController>();
  private readonly answers = new Map<string, (refusal: string | undefined) => void>();
  private nextAsk = 1;

  constructor(
    private readonly post: (msg: WorkerResponse) => void,
    private readonly openSandbox: OpenSandbox,
  ) {}

  async handle(req: WorkerRequest): Promise<void> {
    if (req.op === "abort") {
      this.running.get(req.target)?.abort();
      return;
    }
    if (req.op === "answer") {
      const key = `${req.target}:${req.ask}`;
      this.answers.get(key)?.(req.refusal);
      this.answers.delete(key);
      return;
    }
    try {
      const value = await this.run(req);
      this.post({ id: req.id, type: "result", ok: true, value });
    } catch (e) {
      this.post({ id: req.id, type: "result", ok: false, error: toWire(e) });
    }
  }

  private require(): Promise<LocalSandbox> {
    if (!this.sandbox) throw new Error("The sandbox worker was not opened");
    return this.sandbox;
  }

  /** The exec guard of request `id`: rules evaluated here, asks and refusals sent to the page. */
  private guardFor(req: Extract<WorkerRequest, { op: "exec" }>): ExecGuard | undefined {
    if (!req.policy) return undefined;
    const id = req.id;
    const post = (event: GuardEvent) => this.post({ id, type: "guard", event });
    return {
      policy: req.policy,
      ask: req.asks
        ? (command, shown) => {
            const ask = this.nextAsk++;
            return new Promise((resolve) => {
              this.answers.set(`${id}:${ask}`, resolve);
              post({ kind: "ask", ask, command, ...(shown !== undefined ? { shown } : {}) });
            });
          }
        : undefined,
      denied: (command, message, rule) => post({ kind: "denied", command, message, rule }),
      pathRefused: (refusal) => post({ kind: "path", refusal }),
    };
  }

  private async run(req: Exclude<WorkerRequest, { op: "abort" } | { op: "answer" }>): Promise<unknown> {
    switch (req.op) {
      case "open":
        this.sandbox ??= this.openSandbox(req.workspace, req.dbName);
        await this.sandbox;
        return null;
      case "fs": {
        const fs: SandboxFS = (await this.require()).fs;
        const fn = fs[req.method] as (...args: unknown[]) => Promise<unknown>;
        return await fn.apply(fs, req.args);
      }
      case "exec": {
        // Registered first: an abort that comes while the workspace still opens stops the command too.
        const ac = new AbortController();
        this.running.set(req.id, ac);
        try {
          const sb = await this.require();
          return await sb.exec(req.command, {
            cwd: req.cwd,
            env: req.env,
            timeoutMs: req.timeoutMs,
            signal: ac.signal,
            guard: this.guardFor(req),
            onOutput: (chunk) => this.post({ id: req.id, type: "output", chunk }),
          });
        } finally {
          this.running.delete(req.id);
        }
      }
      case "snapshot":
        return (await this.require()).snapshot();
      case "restore":
        await (await this.require()).restore(req.hash);
        return null;
      case "changed":
        return (await this.require()).changed(req.from, req.to);
      case "readAt":
        return (await this.require()).readAt(req.hash, req.relPath);
      case "replace":
        return replace(req.content, req.oldString, req.newString, req.replaceAll);
    }
  }
}
