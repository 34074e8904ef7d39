import { describe, expect, it } from "vitest";
import type { LLM, LLMEvent, LLMRequest, ModelConfig } from "../../core/ports/llm";
import { FakeLLM, textTurn } from "../../testing/fake-llm";
import { type LLMWorkerReply, type LLMWorkerRequest, serveLLM } from "./llm-protocol";
import { type LLMWorkerLike, WorkerLLM } from "./worker-llm";

const MODEL: ModelConfig = { provider: "openai-compatible", modelID: "m", contextWindow: 8000, maxOutputTokens: 1000, prices: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } };

function request(signal = new AbortController().signal): LLMRequest {
  return { model: MODEL, system: ["You are terse."], messages: [{ role: "user", content: [{ type: "text", text: "hi" }] }], tools: [], maxOutputTokens: 100, signal };
}

/** A worker in this process: messages cross as structured clones, on later tasks, like a real one. */
class LoopbackWorker implements LLMWorkerLike {
  onmessage: ((ev: MessageEvent<LLMWorkerReply>) => void) | null = null;
  onerror: ((ev: ErrorEvent) => void) | null = null;
  terminated = false;
  readonly received: LLMWorkerRequest[] = [];
  private readonly serve: (msg: LLMWorkerRequest) => void;
  constructor(inner: LLM & { preload?(config: ModelConfig): Promise<void> }) {
    this.serve = serveLLM(inner, (reply) => {
      const copy = structuredClone(reply);
      setTimeout(() => this.onmessage?.({ data: copy } as MessageEvent<LLMWorkerReply>));
    });
  }
  postMessage(msg: LLMWorkerRequest): void {
    const copy = structuredClone(msg);
    this.received.push(copy);
    setTimeout(() => this.serve(copy));
  }
  terminate(): void {
    this.terminated = true;
  }
  crash(message: string): void {
    this.onerror?.({ message, preventDefault: () => undefined } as ErrorEvent);
  }
}

async function collect(it: AsyncIterable<LLMEvent>): Promise<LLMEvent[]> {
  const out: LLMEvent[] = [];
  for await (const ev of it) out.push(ev);
  return out;
}

describe("the model worker", () => {
  it("a request crosses as plain data and its events come back in order", async () => {
    const inner = new FakeLLM([textTurn("Hello from the worker.")]);
    const worker = new LoopbackWorker(inner);
    const llm = new WorkerLLM(() => worker);
    const events = await collect(llm.stream(request()));
    expect(events).toEqual(textTurn("Hello from the worker."));
    expect(inner.requests[0]?.messages).toEqual(request().messages);
    expect(inner.requests[0]?.system).toEqual(["You are terse."]);
  });

  it("aborting on the page aborts the request in the worker; leaving the loop early does too", async () => {
    const inner = new FakeLLM([textTurn("a long answer ".repeat(40)), textTurn("another long answer ".repeat(40))]);
    inner.delayMs = 2;
    const worker = new LoopbackWorker(inner);
    const llm = new WorkerLLM(() => worker);
    const ac = new AbortController();
    const seen: LLMEvent[] = [];
    for await (const ev of llm.stream(request(ac.signal))) {
      seen.push(ev);
      if (seen.length === 3) ac.abort();
    }
    expect(inner.requests[0]?.signal.aborted).toBe(true);
    expect(seen.some((e) => e.type === "finish")).toBe(false);

    for await (const ev of llm.stream(request())) if (ev.type === "text-delta") break;
    await expect.poll(() => inner.requests[1]?.signal.aborted).toBe(true);
    expect(worker.received.filter((m) => m.type === "abort")).toHaveLength(2);
  });

  it("preload loads the provider in the worker; a failure there is the caller's error", async () => {
    const loaded: string[] = [];
    const inner: LLM & { preload(config: ModelConfig): Promise<void> } = {
      stream: new FakeLLM().stream.bind(new FakeLLM()),
      preload: async (config) => {
        if (config.provider === "anthropic") throw new Error("chunk failed to load");
        loaded.push(config.provider);
      },
    };
    const llm = new WorkerLLM(() => new LoopbackWorker(inner));
    await llm.preload(MODEL);
    expect(loaded).toEqual(["openai-compatible"]);
    await expect(llm.preload({ ...MODEL, provider: "anthropic" })).rejects.toThrow("chunk failed to load");
  });

  it("a worker that fails ends what is in flight with an error, and the next request starts a fresh worker", async () => {
    const inner = new FakeLLM([textTurn("never finished ".repeat(50)), textTurn("Second try.")]);
    inner.delayMs = 2;
    const workers: LoopbackWorker[] = [];
    const llm = new WorkerLLM(() => {
      const w = new LoopbackWorker(inner);
      workers.push(w);
      return w;
    });
    const events: LLMEvent[] = [];
    for await (const ev of llm.stream(request())) {
      events.push(ev);
      if (events.length === 2) workers[0]?.crash("out of memory");
    }
    expect(events.at(-1)).toEqual({ type: "error", error: { name: "UnknownError", data: { message: "The model worker failed: out of memory." } } });
    expect(workers[0]?.terminated).toBe(true);
    const again = await collect(llm.stream(request()));
    expect(workers).toHaveLength(2);
    expect(again.at(-1)).toMatchObject({ type: "finish" });
  });

  it("a request that cannot be copied to the worker is an error event, not a throw", async () => {
    const llm = new WorkerLLM(() => new LoopbackWorker(new FakeLLM()));
    const bad = { ...request(), system: [() => "not data"] } as unknown as LLMRequest;
    const events = await collect(llm.stream(bad));
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: "error", error: { name: "UnknownError" } });
  });
});
