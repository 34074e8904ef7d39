import { describe, expect, it } from "vitest";
import type { LLM, ModelConfig } from "../../core/ports/llm";
import { ProviderKind } from "../../core/providers";
import { createAiSdkLLM } from "./ai-sdk-llm";
import { RehearsalFetch, rehearse } from "./rehearse";
import { collect, modelConfig, request } from "./sse-test-helpers";

const USER_KEY = "sk-user-secret-0123456789";

/** A fetch that records what it was asked and refuses, as the rehearsal's own does. */
function recordingRefusal() {
  const calls: { url: string; headers: Headers; body: string }[] = [];
  const f = (async (input: RequestInfo | URL, init?: RequestInit) => {
    calls.push({ url: String(input instanceof Request ? input.url : input), headers: new Headers(init?.headers), body: typeof init?.body === "string" ? init.body : "" });
    throw new RehearsalFetch();
  }) as typeof fetch;
  return { f, calls };
}

describe("the model worker's rehearsal of the request path", () => {
  for (const provider of ProviderKind.options.filter((p) => p !== "demo")) {
    it(`${provider}: builds the whole request body once, from the made-up conversation, and sends nothing with the user's key`, async () => {
      const { f, calls } = recordingRefusal();
      await rehearse(modelConfig({ provider, apiKey: USER_KEY, baseURL: provider === "openai-compatible" ? "http://localhost:11434/v1" : undefined }), undefined, f);
      expect(calls).toHaveLength(1);
      const [call] = calls;
      // The provider's real body: every exchange is in it (the per-message code ran 40 times).
      expect(call?.body).toContain("Question 0:");
      expect(call?.body).toContain("Question 39:");
      expect(call?.body).toContain("Thanks, that is all.");
      expect(JSON.stringify([...(call?.headers ?? new Headers()).entries()])).not.toContain(USER_KEY);
      expect(call?.body).not.toContain(USER_KEY);
    });
  }

  it("the demo model has nothing to rehearse", async () => {
    const { f, calls } = recordingRefusal();
    await rehearse(modelConfig({ provider: "demo" }), undefined, f);
    expect(calls).toHaveLength(0);
  });
});

describe("preload rehearses each provider once and never uses the real fetch for it", () => {
  function llmWith(rehearsal: (config: ModelConfig, signal: AbortSignal) => Promise<void>): { llm: LLM & { preload(config: ModelConfig): Promise<void> }; fetched: number } {
    const state = { fetched: 0 };
    const llm = createAiSdkLLM({
      fetch: (async () => {
        state.fetched++;
        throw new Error("no network in this test");
      }) as typeof fetch,
      rehearse: rehearsal,
    });
    return {
      llm,
      get fetched() {
        return state.fetched;
      },
    };
  }

  it("once per provider, whatever the model", async () => {
    const seen: string[] = [];
    const t = llmWith(async (config) => {
      seen.push(`${config.provider}/${config.modelID}`);
    });
    await t.llm.preload(modelConfig({ modelID: "a" }));
    await t.llm.preload(modelConfig({ modelID: "b" }));
    await t.llm.preload(modelConfig({ provider: "anthropic", modelID: "c", baseURL: undefined }));
    expect(seen).toEqual(["openai-compatible/a", "anthropic/c"]);
    expect(t.fetched).toBe(0);
  });

  it("a failed rehearsal does not fail the preload", async () => {
    const t = llmWith(async () => {
      throw new Error("rehearsal broke");
    });
    await expect(t.llm.preload(modelConfig())).resolves.toBeUndefined();
  });

  it("a real request first: its provider is not rehearsed afterwards (the rehearsal would be moot)", async () => {
    const seen: string[] = [];
    const t = llmWith(async (config) => {
      seen.push(config.provider);
    });
    await collect(t.llm.stream(request({ model: modelConfig() })));
    await t.llm.preload(modelConfig());
    await t.llm.preload(modelConfig({ provider: "anthropic", baseURL: undefined }));
    expect(seen).toEqual(["anthropic"]);
  });

  it("a real request during the rehearsal stops it: the two never share the worker's thread", async () => {
    let stopped: AbortSignal | undefined;
    const t = llmWith(
      (_config, signal) =>
        new Promise<void>((resolve) => {
          stopped = signal;
          signal.addEventListener("abort", () => resolve(), { once: true });
        }),
    );
    const preloaded = t.llm.preload(modelConfig());
    await Promise.resolve();
    await new Promise((r) => setTimeout(r, 0));
    expect(stopped?.aborted).toBe(false);
    const answered = collect(t.llm.stream(request({ model: modelConfig() })));
    expect(stopped?.aborted).toBe(true);
    await expect(preloaded).resolves.toBeUndefined();
    await answered;
  });

  it("the real rehearsal, stopped before it starts, builds and sends nothing", async () => {
    const { f, calls } = recordingRefusal();
    const stop = new AbortController();
    stop.abort();
    await rehearse(modelConfig({ apiKey: USER_KEY }), stop.signal, f);
    expect(calls).toHaveLength(0);
  });

  it("with the real rehearsal, the real fetch is not called", async () => {
    const t = llmWith((config) => rehearse(config));
    await t.llm.preload(modelConfig({ apiKey: USER_KEY }));
    expect(t.fetched).toBe(0);
  });
});
