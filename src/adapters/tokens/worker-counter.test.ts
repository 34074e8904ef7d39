import { describe, expect, it } from "vitest";
import { History, text } from "../../core/compaction/test-fixtures";
import type { MessageWithParts, Part } from "../../core/schema";
import { measureRequest } from "../../core/tokens/request-size";
import { type CountRequest, type CountResponse, handleCountRequest } from "./tokenizer-protocol";
import { type WorkerLike, WorkerTokenCounter } from "./worker-counter";

/** Runs the worker's handler in-process, recording what it was sent. */
class FakeWorker implements WorkerLike {
  onmessage: ((ev: MessageEvent<CountResponse>) => void) | null = null;
  onerror: ((ev: ErrorEvent) => void) | null = null;
  sent: CountRequest[] = [];
  terminated = false;
  hang = false;
  postMessage(msg: CountRequest): void {
    this.sent.push(msg);
    if (this.hang) return;
    void handleCountRequest(msg).then((data) => this.onmessage?.({ data } as MessageEvent<CountResponse>));
  }
  terminate(): void {
    this.terminated = true;
  }
  crash(message: string): void {
    this.onerror?.({ message } as ErrorEvent);
  }
}

function setup() {
  const workers: FakeWorker[] = [];
  const counter = new WorkerTokenCounter(() => {
    const w = new FakeWorker();
    workers.push(w);
    return w;
  });
  return { counter, workers };
}

describe("WorkerTokenCounter", () => {
  it("starts the worker lazily and matches concurrent answers to requests", async () => {
    const { counter, workers } = setup();
    expect(workers).toHaveLength(0);
    const [a, b] = await Promise.all([counter.count(["hello world"], "o200k_base"), counter.count(["<|endoftext|>", "x"], "cl100k_base")]);
    expect(a).toEqual([2]);
    expect(b).toEqual([7, 1]);
    expect(workers).toHaveLength(1);
    expect(await counter.count([], "o200k_base")).toEqual([]);
    expect(workers[0]?.sent).toHaveLength(2);
  });

  it("rejects what is in flight when the worker fails, and starts a new one next time", async () => {
    const { counter, workers } = setup();
    expect(await counter.count(["a"], "o200k_base")).toEqual([1]);
    const w = workers[0];
    if (!w) throw new Error("no worker");
    w.hang = true;
    const stuck = counter.count(["b"], "o200k_base");
    w.crash("out of memory");
    await expect(stuck).rejects.toThrow("Tokenizer worker failed: out of memory");
    expect(w.terminated).toBe(true);
    expect(await counter.count(["hello world"], "o200k_base")).toEqual([2]);
    expect(workers).toHaveLength(2);
  });

  it("is ready for an encoding once it has answered a count in it; warm loads one ahead, once", async () => {
    const { counter, workers } = setup();
    expect(counter.ready("o200k_base")).toBe(false);
    expect(workers).toHaveLength(0);
    counter.warm("o200k_base");
    counter.warm("o200k_base");
    expect(workers[0]?.sent).toHaveLength(1);
    await expect.poll(() => counter.ready("o200k_base")).toBe(true);
    expect(counter.ready("cl100k_base")).toBe(false);
    counter.warm("o200k_base");
    expect(workers[0]?.sent).toHaveLength(1);
  });

  it("a crashed worker is no longer ready (the next one loads its ranks again)", async () => {
    const { counter, workers } = setup();
    expect(await counter.count(["a"], "o200k_base")).toEqual([1]);
    expect(counter.ready("o200k_base")).toBe(true);
    workers[0]?.crash("gone");
    expect(counter.ready("o200k_base")).toBe(false);
  });

  it("dispose rejects pending counts", async () => {
    const { counter, workers } = setup();
    expect(await counter.count(["a"], "o200k_base")).toEqual([1]);
    const w = workers[0];
    if (w) w.hang = true;
    const q = counter.count(["b"], "o200k_base");
    counter.dispose();
    await expect(q).rejects.toThrow("Tokenizer stopped");
    expect(w?.terminated).toBe(true);
  });

  it("with cached counts, a request is prepared by counting only new parts", async () => {
    const { counter, workers } = setup();
    const h = new History();
    h.user(text("Explain the loop"));
    h.assistant([text("It streams one step at a time.")]);
    const input = { system: [], tools: [], encoding: counter.encodingFor("gpt-4o") };
    const first = await measureRequest(counter, { ...input, messages: h.msgs });
    expect(first.upserts).toHaveLength(2);
    const byId = new Map<string, Part>(first.upserts.map((p) => [p.id, p]));
    const cached: MessageWithParts[] = h.msgs.map((m) => ({ info: m.info, parts: m.parts.map((p) => byId.get(p.id) ?? p) }));
    const more = new History(h.sessionID);
    more.user(text("And compaction?"));
    const second = await measureRequest(counter, { ...input, messages: [...cached, ...more.msgs] });
    const sent = workers[0]?.sent.map((r) => r.texts) ?? [];
    expect(sent).toEqual([["Explain the loop", "It streams one step at a time."], ["And compaction?"]]);
    expect(second.total).toBeGreaterThan(first.total);
  });
});
