import { describe, expect, it } from "vitest";
import type { LLM, LLMEvent, LLMRequest } from "../../core/ports/llm";
import { createAiSdkLLM } from "./ai-sdk-llm";
import { cutBytes, fakeFetch, modelConfig, sseChat } from "./sse-test-helpers";
import { TEST_PROMPT, testConnection } from "./test-connection";

const chunk = (d: Record<string, unknown>, finish: string | null = null) => ({
  id: "c1",
  object: "chat.completion.chunk",
  created: 1,
  model: "llama3.2",
  choices: [{ index: 0, delta: d, finish_reason: finish }],
});

function scripted(events: LLMEvent[]): LLM & { calls: LLMRequest[] } {
  const calls: LLMRequest[] = [];
  return {
    calls,
    async *stream(req) {
      calls.push(req);
      yield* events;
    },
  };
}

describe("testConnection", () => {
  it("sends one tiny tool-less prompt through the real adapter and returns the reply", async () => {
    const body = sseChat([chunk({ role: "assistant", content: "" }), chunk({ content: "OK" }), chunk({}, "stop")]);
    const ff = fakeFetch(() => ({ chunks: cutBytes(body, { size: 10 }) }));
    const result = await testConnection(modelConfig(), createAiSdkLLM({ fetch: ff.fetch }));
    expect(result).toEqual({ ok: true, text: "OK" });
    expect(ff.requests).toHaveLength(1);
    expect(ff.requests[0]?.body).toMatchObject({ max_tokens: 16, messages: [{ role: "user", content: TEST_PROMPT }] });
    expect(ff.requests[0]?.body).not.toHaveProperty("tools");
  });

  it("a base URL without its scheme: said, and nothing sent (through the real adapter too)", async () => {
    const ff = fakeFetch(() => ({ status: 200, body: "{}" }));
    const llm = createAiSdkLLM({ fetch: ff.fetch });
    const result = await testConnection({ ...modelConfig(), baseURL: "api.openai.com/v1" }, llm);
    expect(result).toMatchObject({ ok: false, error: { name: "UnknownError", data: { kind: "settings", message: expect.stringContaining("must start with https://") } } });
    // A run on such a setting (stored before this check) is refused by the adapter itself.
    const events: LLMEvent[] = [];
    for await (const ev of llm.stream({ model: { ...modelConfig(), baseURL: "api.openai.com/v1" }, system: [], messages: [{ role: "user", content: [{ type: "text", text: "hi" }] }], tools: [], maxOutputTokens: 16, signal: new AbortController().signal })) events.push(ev);
    expect(events).toMatchObject([{ type: "error", error: { name: "UnknownError", data: { kind: "settings", message: expect.stringContaining("not a full web address") } } }]);
    expect(ff.requests).toHaveLength(0);
  });

  it("returns the classified error (with its hint) when the call fails", async () => {
    const ff = fakeFetch(() => ({ status: 401, body: JSON.stringify({ error: { message: "Invalid key", type: "auth" } }) }));
    const result = await testConnection(modelConfig(), createAiSdkLLM({ fetch: ff.fetch }));
    expect(result).toMatchObject({ ok: false, error: { name: "ProviderAuthError", data: { message: "Invalid key" } } });
  });

  it("marks the call as a test and accepts a thinking model that ran out of tokens", async () => {
    const llm = scripted([
      { type: "reasoning-start", id: "r" },
      { type: "reasoning-delta", id: "r", delta: "…" },
      { type: "finish", reason: "length", usage: {} },
    ]);
    expect(await testConnection(modelConfig(), llm)).toEqual({ ok: true, text: "" });
    expect(llm.calls[0]).toMatchObject({ purpose: "test", tools: [], maxOutputTokens: 16 });
  });

  it("fails on an empty answer and on a stream with no end", async () => {
    expect(await testConnection(modelConfig(), scripted([{ type: "finish", reason: "stop", usage: {} }]))).toMatchObject({
      ok: false,
      error: { name: "StreamError" },
    });
    expect(await testConnection(modelConfig(), scripted([{ type: "text-delta", id: "t", delta: "OK" }]))).toMatchObject({
      ok: false,
      error: { name: "StreamError" },
    });
  });
});
