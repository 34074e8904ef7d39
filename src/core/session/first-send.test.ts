import { describe, expect, it, vi } from "vitest";
import { createLocalSandboxForTests } from "../../adapters/sandbox/local/testing";
import { FakeLLM, textTurn, toolTurn } from "../../testing/fake-llm";
import { workspaceTools } from "../tools/index";
import { makeTestService } from "../../testing/session-service";
import { createTiktokenCounter } from "../../adapters/tokens/tiktoken-counter";
import type { TokenCounter } from "../tokens/counter";
import { History, makeSession, text } from "../compaction/test-fixtures";
import { COUNT_BEHIND_CHARS } from "./context-guard";
import type { LLM } from "../ports/llm";
import { MemoryStore } from "../../testing/memory-store";

/** The real tokenizer behind a gate: not ready (and every count pending) until `release()`, like ranks still downloading. */
class LoadingCounter implements TokenCounter {
  private readonly real = createTiktokenCounter();
  private open = false;
  private waiters: (() => void)[] = [];
  counts = 0;
  warmed: string[] = [];
  encodingFor(modelID: string): string {
    return this.real.encodingFor(modelID);
  }
  ready(): boolean {
    return this.open;
  }
  warm(encoding: string): void {
    this.warmed.push(encoding);
  }
  private inFlight: Promise<unknown>[] = [];
  count(texts: string[], encoding: string): Promise<number[]> {
    this.counts++;
    const counted = (async () => {
      if (!this.open) await new Promise<void>((r) => this.waiters.push(r));
      return this.real.count(texts, encoding);
    })();
    this.inFlight.push(counted);
    return counted;
  }
  /** Resolves once every count asked for so far has answered (and what waited for it has run). */
  async settled(): Promise<void> {
    await Promise.allSettled(this.inFlight);
    await tick();
  }
  release(): void {
    this.open = true;
    for (const w of this.waiters.splice(0)) w();
  }
}

const TINY = { contextWindow: 4000, maxOutputTokens: 500, prices: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } };
const tick = () => new Promise((r) => setTimeout(r, 20));

describe("the first send does not wait for the tokenizer", () => {
  it("far from the window, the request goes out on the estimate and the X-ray record says so; later ones are exact", async () => {
    const counter = new LoadingCounter();
    const llm = new FakeLLM([textTurn("Hello."), textTurn("Again.")]);
    const { service } = makeTestService({ llm, tools: [], counter });
    const s = await service.createSession();
    await service.prompt(s.id, { text: "Explain the project in two sentences." });
    await service.ensureRunning(s.id);
    expect(llm.requests).toHaveLength(1);
    expect(counter.warmed).toEqual(["o200k_base"]);
    expect(service.lastRequest(s.id)?.count).toBe("estimate");
    // The exact count is asked for behind the request (once its answer has started), queued behind the tokenizer's load.
    await vi.waitFor(() => expect(counter.counts).toBe(1));

    counter.release();
    // The count behind the first request finishes (until then a request would go out on the estimate too).
    await counter.settled();
    await service.prompt(s.id, { text: "And the tests?" });
    await service.ensureRunning(s.id);
    expect(llm.requests).toHaveLength(2);
    expect(counter.counts).toBeGreaterThan(0);
    expect(service.lastRequest(s.id)?.count).toBe("exact");
  });

  it("near the window, the loop waits for the exact count", async () => {
    const counter = new LoadingCounter();
    const llm = new FakeLLM([textTurn("Done.")]);
    const { service } = makeTestService({ llm, tools: [], counter, settings: { modelID: "tiny", models: { tiny: TINY } } });
    const s = await service.createSession();
    // ~2,000 tokens of text but 8,000 bytes: the bound is past this small window's compaction point.
    await service.prompt(s.id, { text: "lorem ipsum dolor sit amet ".repeat(300) });
    const run = service.ensureRunning(s.id);
    await tick();
    expect(llm.requests).toHaveLength(0);
    expect(counter.counts).toBeGreaterThan(0);
    counter.release();
    await run;
    expect(llm.requests.map((r) => r.purpose)).toContain("chat");
    expect(service.lastRequest(s.id)?.count).toBe("exact");
  });

  it("an estimated request does not calibrate the count against the provider's report", async () => {
    const counter = new LoadingCounter();
    const llm = new FakeLLM([textTurn("Hello.", { inputTokens: 50_000, outputTokens: 5 })]);
    const { service } = makeTestService({ llm, tools: [], counter });
    const s = await service.createSession();
    await service.prompt(s.id, { text: `Please read this: ${"some words here ".repeat(100)}` });
    await service.ensureRunning(s.id);
    expect(service.lastRequest(s.id)?.count).toBe("estimate");
    expect(service.calibrationRatio("gpt-4o-mini")).toBe(1);
  });
});

/** The real tokenizer, counting how many texts it was asked for (always ready). */
class CountingCounter implements TokenCounter {
  private readonly real = createTiktokenCounter();
  texts = 0;
  encodingFor(modelID: string): string {
    return this.real.encodingFor(modelID);
  }
  async count(texts: string[], encoding: string): Promise<number[]> {
    this.texts += texts.length;
    return this.real.count(texts, encoding);
  }
}

describe("a long history that was never counted (an imported session)", () => {
  it("far from the window, the request goes out on the estimate; the count runs behind it and the next request is exact without counting it again", async () => {
    const counter = new CountingCounter();
    const llm = new FakeLLM([textTurn("Hello."), textTurn("Again.")]);
    const { service, store } = makeTestService({ llm, tools: [], counter });
    const h = new History();
    for (let i = 0; i < 40; i++) h.turn(`question ${i}`, [text(`answer ${i}: ${"a sentence of some length. ".repeat(60)}`)]);
    const chars = h.msgs.flatMap((m) => m.parts).reduce((n, p) => n + (p.type === "text" ? p.text.length : 0), 0);
    expect(chars).toBeGreaterThan(COUNT_BEHIND_CHARS);
    await store.importSession(makeSession(h.sessionID), h.msgs);

    await service.prompt(h.sessionID, { text: "Go on." });
    await service.ensureRunning(h.sessionID);
    expect(llm.requests).toHaveLength(1);
    expect(service.lastRequest(h.sessionID)?.count).toBe("estimate");
    // The count behind the request stored every part's count.
    await vi.waitFor(async () => {
      const imported = new Set(h.msgs.flatMap((m) => m.parts.map((p) => p.id)));
      const parts = (await store.messages(h.sessionID)).flatMap((m) => m.parts).filter((p) => p.type === "text" && imported.has(p.id));
      expect(parts).toHaveLength(80);
      expect(parts.every((p) => p.tokenCount !== undefined)).toBe(true);
    });
    const counted = counter.texts;
    expect(counted).toBeGreaterThan(80);

    await service.prompt(h.sessionID, { text: "And then?" });
    await service.ensureRunning(h.sessionID);
    expect(service.lastRequest(h.sessionID)?.count).toBe("exact");
    // Only what is new was counted for the second request (the prompts, the first answer, the system prompt).
    expect(counter.texts - counted).toBeLessThan(10);
  });

  it("the count behind a request starts only once its answer has started", async () => {
    const counter = new CountingCounter();
    let atFirstEvent = -1;
    const fake = new FakeLLM([textTurn("Hello.")]);
    // The answer's first event comes 30 ms after the request: the count must not have started by then.
    const llm: LLM = {
      async *stream(req) {
        let first = true;
        for await (const e of fake.stream(req)) {
          if (first) {
            await new Promise((r) => setTimeout(r, 30));
            atFirstEvent = counter.texts;
            first = false;
          }
          yield e;
        }
      },
    };
    const { service, store } = makeTestService({ llm, tools: [], counter });
    const h = new History();
    for (let i = 0; i < 40; i++) h.turn(`question ${i}`, [text(`answer ${i}: ${"a sentence of some length. ".repeat(60)}`)]);
    await store.importSession(makeSession(h.sessionID), h.msgs);

    const before = counter.texts;
    await service.prompt(h.sessionID, { text: "Go on." });
    await service.ensureRunning(h.sessionID);
    expect(service.lastRequest(h.sessionID)?.count).toBe("estimate");
    expect(atFirstEvent).toBe(before);
    await vi.waitFor(() => expect(counter.texts - before).toBeGreaterThan(80));
  });

  it("a short uncounted history is counted exactly before the request, as before", async () => {
    const counter = new CountingCounter();
    const llm = new FakeLLM([textTurn("Hello.")]);
    const { service, store } = makeTestService({ llm, tools: [], counter });
    const h = new History();
    for (let i = 0; i < 5; i++) h.turn(`question ${i}`, [text(`answer ${i}`)]);
    await store.importSession(makeSession(h.sessionID), h.msgs);
    await service.prompt(h.sessionID, { text: "Go on." });
    await service.ensureRunning(h.sessionID);
    expect(service.lastRequest(h.sessionID)?.count).toBe("exact");
  });
});

describe("the step's starting snapshot is off the request's path", () => {
  /** The local sandbox, with `snapshot()` held until `release()` (like a sandbox still booting). */
  async function gatedSandbox() {
    const real = await createLocalSandboxForTests({ files: { "a.txt": "one\n" } });
    let open = false;
    const waiters: (() => void)[] = [];
    const sandbox = new Proxy(real, {
      get(target, key, receiver) {
        if (key === "snapshot")
          return async () => {
            if (!open) await new Promise<void>((r) => waiters.push(r));
            return target.snapshot();
          };
        const v: unknown = Reflect.get(target, key, receiver);
        return typeof v === "function" ? v.bind(target) : v;
      },
    });
    return {
      sandbox,
      real,
      release() {
        open = true;
        for (const w of waiters.splice(0)) w();
      },
    };
  }

  it("the request leaves before the snapshot is taken; the step-start part gets it afterwards", async () => {
    const { sandbox, release } = await gatedSandbox();
    const llm = new FakeLLM([textTurn("Hello.")]);
    const { service, store } = makeTestService({ llm, tools: [], sandbox });
    const s = await service.createSession();
    await service.prompt(s.id, { text: "hi" });
    const run = service.ensureRunning(s.id);
    await tick();
    expect(llm.requests).toHaveLength(1);
    release();
    await run;
    const start = (await store.messages(s.id)).flatMap((m) => m.parts).find((p) => p.type === "step-start");
    expect(start?.type === "step-start" ? start.snapshot : undefined).toMatch(/\w+/);
  });

  it("no tool runs before the snapshot is taken, so the step's patch still covers its changes", async () => {
    const { sandbox, real, release } = await gatedSandbox();
    const llm = new FakeLLM([toolTurn([{ tool: "bash", input: { command: "echo two > a.txt", description: "change it" } }]), textTurn("done")]);
    const { service, store } = makeTestService({ llm, tools: workspaceTools, sandbox });
    const s = await service.createSession();
    await service.prompt(s.id, { text: "change a.txt" });
    const run = service.ensureRunning(s.id);
    await tick();
    expect(llm.requests).toHaveLength(1);
    expect(await real.fs.readText("/workspace/a.txt")).toBe("one\n");
    release();
    await run;
    expect(await real.fs.readText("/workspace/a.txt")).toBe("two\n");
    const patch = (await store.messages(s.id)).flatMap((m) => m.parts).find((p) => p.type === "patch");
    expect(patch?.type === "patch" ? patch.files : []).toEqual(["a.txt"]);
  });
});

describe("nothing but the prompt's own writes is on its request's path", () => {
  it("a new session's title is asked for only after the prompt's own request is answering", async () => {
    const order: string[] = [];
    const llm = new FakeLLM([textTurn("Hello.")]);
    const recording: LLM = {
      stream(req) {
        order.push(req.purpose ?? "chat");
        return llm.stream(req);
      },
    };
    const { store, service } = makeTestService({ llm: recording, tools: [] });
    const s = await service.createSession();
    await service.prompt(s.id, { text: "Explain the project in two sentences." });
    await service.ensureRunning(s.id);
    await vi.waitFor(async () => expect((await store.getSession(s.id))?.title).toBe("Fake title"));
    expect(order).toEqual(["chat", "title"]);
  });

  it("a wait for the answer to start ends at its longest wait when no answer starts here (another tab runs it), and leaves nothing behind", async () => {
    const { service } = makeTestService({ llm: new FakeLLM([textTurn("Hello.")]), tools: [] });
    const s = await service.createSession();
    const loop = (service as unknown as { agentLoop: { answerStarted(id: string, maxMs: number): Promise<void>; waitsFor(id: string): number } }).agentLoop;
    let ended = false;
    const wait = loop.answerStarted(s.id, 30).then(() => {
      ended = true;
    });
    expect(loop.waitsFor(s.id)).toBe(1);
    await new Promise((r) => setTimeout(r, 5));
    expect(ended).toBe(false);
    await wait;
    expect(loop.waitsFor(s.id)).toBe(0);
    // A run that answers ends the waits at once (long before their longest wait).
    const early = loop.answerStarted(s.id, 60_000);
    const t0 = Date.now();
    await service.prompt(s.id, { text: "hello" });
    await service.ensureRunning(s.id);
    await early;
    expect(Date.now() - t0).toBeLessThan(10_000);
    expect(loop.waitsFor(s.id)).toBe(0);
  });

  it("the prompt, its attachment and the session's update are one write", async () => {
    const store = new MemoryStore();
    const calls: string[] = [];
    // Writes the caller makes (not the ones a write makes inside the store).
    let inside = 0;
    for (const name of ["upsertPart", "upsertMessage", "updateSession", "addMessage"] as const) {
      const real = store[name].bind(store) as (...args: unknown[]) => Promise<unknown>;
      (store as unknown as Record<string, unknown>)[name] = async (...args: unknown[]) => {
        if (inside === 0) calls.push(name);
        inside++;
        try {
          return await real(...args);
        } finally {
          inside--;
        }
      };
    }
    const llm = new FakeLLM([textTurn("Hello.")]);
    const { service } = makeTestService({ llm, tools: [], store });
    const s = await service.createSession();
    calls.length = 0;
    await service.prompt(s.id, { text: "Read this", files: [{ mime: "text/plain", filename: "notes.txt", url: "data:text/plain,hi", text: "hi", path: "notes.txt" }] });
    expect(calls).toEqual(["addMessage"]);
    await service.ensureRunning(s.id);
    const [user] = await store.messages(s.id);
    expect(user?.parts.map((p) => p.type)).toEqual(["text", "text", "file"]);
    expect((await store.getSession(s.id))?.model?.modelID).toBe("gpt-4o-mini");
  });

  it("the request goes out while the answer's message is stored; its events wait for the write", async () => {
    const store = new MemoryStore();
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const real = store.addMessage.bind(store);
    store.addMessage = async (message, parts, update) => {
      if (message.role === "assistant") await gate;
      return real(message, parts, update);
    };
    const llm = new FakeLLM([textTurn("Hello.")]);
    const { service } = makeTestService({ llm, tools: [], store });
    const s = await service.createSession();
    await service.prompt(s.id, { text: "hi" });
    const run = service.ensureRunning(s.id);
    await vi.waitFor(() => expect(llm.requests).toHaveLength(1));
    await tick();
    // Nothing of the answer is stored before its message is.
    expect((await store.messages(s.id)).map((m) => m.info.role)).toEqual(["user"]);
    release();
    await run;
    const [, answer] = await store.messages(s.id);
    expect(answer?.parts.map((p) => p.type)).toEqual(["step-start", "text", "step-finish"]);
    expect(answer?.parts.find((p) => p.type === "text")).toMatchObject({ text: "Hello." });
  });

  it("when the answer's message cannot be stored, its request is stopped and the run reports the error", async () => {
    const store = new MemoryStore();
    const real = store.addMessage.bind(store);
    store.addMessage = async (message, parts, update) => {
      if (message.role === "assistant") {
        await tick();
        throw new Error("The browser's storage is full.");
      }
      return real(message, parts, update);
    };
    const llm = new FakeLLM([textTurn("Hello there, this answer is long enough to take a while.")]);
    llm.delayMs = 5;
    const { service, bus } = makeTestService({ llm, tools: [], store });
    const errors: string[] = [];
    bus.subscribe((e) => {
      if (e.type === "session.error") errors.push(String(e.error.data.message));
    });
    const s = await service.createSession();
    await service.prompt(s.id, { text: "hi" });
    await service.ensureRunning(s.id);
    expect(llm.requests[0]?.signal.aborted).toBe(true);
    expect(errors.join("\n")).toContain("storage is full");
    expect((await store.messages(s.id)).map((m) => m.info.role)).toEqual(["user"]);
  });
});

describe("a prompt's run starts from the row the prompt wrote", () => {
  /** Counts reads of the session row, and notes how many there had been when each model request went out. */
  class CountingStore extends MemoryStore {
    sessionReads = 0;
    override getSession(id: string) {
      this.sessionReads++;
      return super.getSession(id);
    }
  }

  it("reads the session row once before the request (the prompt's own read), not again for the run's first look", async () => {
    const store = new CountingStore();
    const llm = new FakeLLM([textTurn("Hello."), textTurn("Again.")]);
    const atRequest: number[] = [];
    const stream = llm.stream.bind(llm);
    llm.stream = (req) => {
      if (req.purpose !== "title") atRequest.push(store.sessionReads);
      return stream(req);
    };
    const { service } = makeTestService({ llm, tools: [], store });
    const s = await service.createSession();
    store.sessionReads = 0;
    await service.prompt(s.id, { text: "Hello?" });
    await service.ensureRunning(s.id);
    expect(atRequest).toEqual([1]);
    // The row the run used is the prompt's: its agent and model as the prompt set them.
    expect(llm.requests[0]?.model.modelID).toBe("gpt-4o-mini");
    const reads = store.sessionReads;
    await service.prompt(s.id, { text: "Again?" });
    await service.ensureRunning(s.id);
    expect(atRequest).toEqual([1, reads + 1]);
  });

  it("a later look in the same run reads the row again: a change made during the run is seen", async () => {
    const store = new CountingStore();
    const llm = new FakeLLM([toolTurn([{ tool: "todowrite", input: { todos: [] } }]), textTurn("Done.")]);
    // The first step's answer waits until the test has changed the session's model meanwhile.
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const stream = llm.stream.bind(llm);
    let chats = 0;
    llm.stream = (req) => {
      const inner = stream(req);
      if (req.purpose === "title" || chats++ > 0) return inner;
      return (async function* () {
        await gate;
        yield* inner;
      })();
    };
    const { service } = makeTestService({ llm, tools: [], store });
    const s = await service.createSession();
    await service.prompt(s.id, { text: "Plan it." });
    await vi.waitFor(() => expect(chats).toBe(1));
    await store.updateSession(s.id, (x) => ({ ...x, model: { providerID: "openai-compatible", modelID: "gpt-4.1" } }));
    release();
    await service.ensureRunning(s.id);
    const chat = llm.requests.filter((r) => r.purpose !== "title");
    expect(chat.map((r) => r.model.modelID)).toEqual(["gpt-4o-mini", "gpt-4.1"]);
  });
});
