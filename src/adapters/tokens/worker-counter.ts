/**
 * Page-side `TokenCounter` backed by the tokenizer worker. The worker is
 * created on the first count (its ranks load then: ~0.8 s once), requests
 * are matched to answers by id, and a worker failure rejects what is in
 * flight and drops the worker so the next count starts a fresh one; callers
 * (`measureRequest`) fall back to estimates on rejection.
 */
import { encodingForModel, type TokenCounter } from "../../core/tokens/counter";
import type { CountRequest, CountResponse } from "./tokenizer-protocol";

/** The part of `Worker` the client uses (a fake in tests). */
export interface WorkerLike {
  postMessage(msg: CountRequest): void;
  terminate(): void;
  onmessage: ((ev: MessageEvent<CountResponse>) => void) | null;
  onerror: ((ev: ErrorEvent) => void) | null;
}

export function createTokenizerWorker(): WorkerLike {
  return new Worker(new URL("./tokenizer.worker.ts", import.meta.url), { type: "module", name: "tokenizer" }) as WorkerLike;
}

interface Pending {
  resolve(counts: number[]): void;
  reject(e: Error): void;
}

export class WorkerTokenCounter implements TokenCounter {
  private worker: WorkerLike | undefined;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;

  constructor(private readonly spawn: () => WorkerLike = createTokenizerWorker) {}

  encodingFor(modelID: string): string {
    return encodingForModel(modelID);
  }

  count(texts: string[], encoding: string): Promise<number[]> {
    if (texts.length === 0) return Promise.resolve([]);
    const worker = this.ensure();
    const id = this.nextId++;
    return new Promise<number[]>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.postMessage({ id, texts, encoding });
    });
  }

  /** Stops the worker; pending counts reject. */
  dispose(): void {
    this.fail(new Error("Tokenizer stopped"));
  }

  private ensure(): WorkerLike {
    if (this.worker) return this.worker;
    const w = this.spawn();
    w.onmessage = (ev) => {
      const res = ev.data;
      const p = this.pending.get(res.id);
      if (!p) return;
      this.pending.delete(res.id);
      if (res.ok) p.resolve(res.counts);
      else p.reject(new Error(res.error));
    };
    w.onerror = (ev) => this.fail(new Error(`Tokenizer worker failed: ${ev.message || "unknown error"}`));
    this.worker = w;
    return w;
  }

  private fail(e: Error): void {
    this.worker?.terminate();
    this.worker = undefined;
    const all = [...this.pending.values()];
    this.pending.clear();
    for (const p of all) p.reject(e);
  }
}
