/**
 * The page's side of the model worker (llm.worker.ts): the LLM port for every
 * real provider, with the AI SDK running in the worker. Each `stream` posts its
 * request as plain data and yields the worker's events as they come; stopping
 * (the request's signal, or the caller leaving the loop) tells the worker to
 * abort. The worker starts on first use (`preload` starts it ahead, when the
 * app is idle); if it fails, what is in flight ends with an error and the next
 * call starts a fresh one.
 */
import { namedError } from "../../core/errors";
import type { LLM, LLMEvent, LLMRequest, ModelConfig } from "../../core/ports/llm";
import type { LLMWorkerReply, LLMWorkerRequest } from "./llm-protocol";

/** The part of `Worker` the client uses (a fake in tests). */
export interface LLMWorkerLike {
  postMessage(msg: LLMWorkerRequest): void;
  terminate(): void;
  onmessage: ((ev: MessageEvent<LLMWorkerReply>) => void) | null;
  onerror: ((ev: ErrorEvent) => void) | null;
}

export function createModelWorker(): LLMWorkerLike {
  return new Worker(new URL("./llm.worker.ts", import.meta.url), { type: "module", name: "model" }) as LLMWorkerLike;
}

interface Channel {
  reply(r: LLMWorkerReply): void;
  fail(message: string): void;
}

function workerError(message: string): LLMEvent {
  return { type: "error", error: namedError("UnknownError", { message }) };
}

export class WorkerLLM implements LLM {
  private worker: LLMWorkerLike | undefined;
  private readonly channels = new Map<number, Channel>();
  private nextId = 1;

  constructor(private readonly spawn: () => LLMWorkerLike = createModelWorker) {}

  /** Starts the worker and has it load `config`'s provider package and build its model (nothing is sent). */
  preload(config: ModelConfig): Promise<void> {
    const id = this.nextId++;
    return new Promise<void>((resolve, reject) => {
      this.channels.set(id, {
        reply: (r) => {
          if (r.type !== "preloaded") return;
          this.channels.delete(id);
          if (r.error === undefined) resolve();
          else reject(new Error(r.error));
        },
        fail: (message) => {
          this.channels.delete(id);
          reject(new Error(message));
        },
      });
      this.post({ type: "preload", id, config });
    });
  }

  async *stream(req: LLMRequest): AsyncIterable<LLMEvent> {
    const { signal, ...request } = req;
    const id = this.nextId++;
    const inbox: LLMWorkerReply[] = [];
    let failed: string | undefined;
    let wake: (() => void) | undefined;
    let ended = false;
    this.channels.set(id, {
      reply: (r) => {
        inbox.push(r);
        wake?.();
      },
      fail: (message) => {
        failed = message;
        wake?.();
      },
    });
    const abort = () => this.post({ type: "abort", id });
    signal.addEventListener("abort", abort, { once: true });
    try {
      try {
        this.post({ type: "stream", id, request });
      } catch (e) {
        ended = true;
        yield workerError(`The request could not be handed to the model worker: ${e instanceof Error ? e.message : String(e)}`);
        return;
      }
      if (signal.aborted) abort();
      for (;;) {
        const r = inbox.shift();
        if (r?.type === "end") {
          ended = true;
          return;
        }
        if (r?.type === "event") {
          yield r.event;
          continue;
        }
        if (failed !== undefined) {
          ended = true;
          yield workerError(failed);
          return;
        }
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
        wake = undefined;
      }
    } finally {
      signal.removeEventListener("abort", abort);
      this.channels.delete(id);
      // The caller stopped reading before the end: the worker stops the request too.
      if (!ended) abort();
    }
  }

  /** Stops the worker; what is in flight ends with an error. */
  dispose(): void {
    this.fail("The model worker was stopped.");
  }

  private post(msg: LLMWorkerRequest): void {
    this.ensure().postMessage(msg);
  }

  private ensure(): LLMWorkerLike {
    if (this.worker) return this.worker;
    const w = this.spawn();
    w.onmessage = (ev) => this.channels.get(ev.data.id)?.reply(ev.data);
    w.onerror = (ev) => {
      ev.preventDefault?.();
      this.fail(`The model worker failed${ev.message ? `: ${ev.message}` : " to start (if you are offline, reload once you are back online)"}.`);
    };
    this.worker = w;
    return w;
  }

  private fail(message: string): void {
    this.worker?.terminate();
    this.worker = undefined;
    const all = [...this.channels.values()];
    this.channels.clear();
    for (const c of all) c.fail(message);
  }
}
