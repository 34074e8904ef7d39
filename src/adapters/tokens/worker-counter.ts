/**
 * Page-side `TokenCounter` backed by the tokenizer worker. The worker is
 * created on the first count (its ranks load then: ~0.2 s once), requests
 * are matched to answers by id, and a worker failure rejects what is in
 * flight and drops the worker so the next count starts a fresh one; callers
 * (`measureRequest`) fall back to estimates on rejection. `ready` tells
 * whether an encoding has answered a count already; `warm` loads one ahead
 * of need (the app calls it when idle after start-up), so the first request
 * need not wait for the ranks (the loop sends on an estimate meanwhile).
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
  /** Encodings that have answered a count in the current worker. */
  private readonly loaded = new Set<string>();
  /** Encodings being warmed (their first count is in flight). */
  private readonly warming = new Set<string>();

  constructor(private readonly spawn: () => WorkerLike = createTokenizerWorker) {}

  encodingFor(modelID: string): string {
    return encodingForModel(modelID);
  }

  count(texts: string[], encoding: string): Promise<number[]> {
    if (texts.length === 0) return Promise.resolve([]);
    const worker = this.ensure();
    const id = this.nextId++;
    const generation = worker;
    return new Promise<number[]>((resolve, reject) => {
      this.pending.set(id, {
        resolve: (counts) => {
          if (this.worker === generation) this.loaded.add(encoding);
          resolve(counts);
        },
        reject,
      });
      worker.postMessage({ id, texts, encoding });
    });
  }

  ready(encoding: string): boolean {
    return this.loaded.has(encoding);
  }

  warm(encoding: string): void {
    if (this.loaded.has(encoding) || this.warming.has(encoding)) return;
    this.warming.add(encoding);
    void this.count(["tabcode"], encoding)
      .catch(() => undefined)
      .finally(() => this.warming.delete(encoding));
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
    this.loaded.clear();
    const all = [...this.pending.values()];
    this.pending.clear();
    for (const p of all) p.reject(e);
  }
}
