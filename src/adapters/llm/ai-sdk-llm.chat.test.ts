/** End to end through the real @ai-sdk/openai Chat Completions model, with canned SSE bodies. */
import { describe, expect, it } from "vitest";
import type { LLMEvent } from "../../core/ports/llm";
import { createAiSdkLLM } from "./ai-sdk-llm";
import { collect, cutBytes, fakeFetch, modelConfig, request, sseChat, TEST_KEY } from "./sse-test-helpers";

const base = { id: "chatcmpl-1", object: "chat.completion.chunk", created: 1_700_000_000, model: "llama3.2" };
const delta = (d: Record<string, unknown>, finish: string | null = null) => ({
  ...base,
  choices: [{ index: 0, delta: d, finish_reason: finish }],
});

/** Text with multi-byte characters, a tool call with streamed arguments, usage with cached tokens. */
const TOOL_CALL_STREAM = sseChat([
  delta({ role: "assistant", content: "" }),
  delta({ content: "Lecture de « a.ts » " }),
  delta({ content: "✓ 🚀" }),
  delta({ tool_calls: [{ index: 0, id: "call_1", type: "function", function: { name: "read", arguments: "" } }] }),
  delta({ tool_calls: [{ index: 0, function: { arguments: '{"pa' } }] }),
  delta({ tool_calls: [{ index: 0, function: { arguments: 'th":"a.ts"}' } }] }),
  delta({}, "tool_calls"),
  {
    ...base,
    choices: [],
    usage: {
      prompt_tokens: 1000,
      completion_tokens: 40,
      total_tokens: 1040,
      prompt_tokens_details: { cached_tokens: 800 },
      completion_tokens_details: { reasoning_tokens: 0 },
    },
  },
]);

const EXPECTED: LLMEvent[] = [
  { type: "text-start", id: "txt-0" },
  { type: "text-delta", id: "txt-0", delta: "Lecture de « a.ts » " },
  { type: "text-delta", id: "txt-0", delta: "✓ 🚀" },
  { type: "tool-input-start", callID: "call_1", tool: "read" },
  { type: "tool-input-delta", callID: "call_1", delta: '{"pa' },
  { type: "tool-input-delta", callID: "call_1", delta: 'th":"a.ts"}' },
  { type: "text-end", id: "txt-0" },
  { type: "tool-call", callID: "call_1", tool: "read", input: '{"path":"a.ts"}' },
  {
    type: "finish",
    reason: "tool-calls",
    usage: {
      inputTokens: 1000,
      noCacheInputTokens: 200,
      cacheReadTokens: 800,
      outputTokens: 40,
      reasoningTokens: 0,
      totalTokens: 1040,
    },
  },
];

async function runWithCut(cut: Parameters<typeof cutBytes>[1]): Promise<LLMEvent[]> {
  const { fetch } = fakeFetch(() => ({ chunks: cutBytes(TOOL_CALL_STREAM, cut) }));
  return collect(createAiSdkLLM({ fetch }).stream(request()));
}

describe("Chat Completions (openai-compatible)", () => {
  it("maps a tool-call stream with cached-token usage", async () => {
    expect(await runWithCut({ size: 1 << 20 })).toEqual(EXPECTED);
  });

  it.each([
    ["1-byte", { size: 1 }],
    ["7-byte", { size: 7 }],
    ["random 1–13 byte (seed 1)", { seed: 1, max: 13 }],
    ["random 1–64 byte (seed 42)", { seed: 42, max: 64 }],
    ["random 1–3 byte (seed 7)", { seed: 7, max: 3 }],
  ])("gives identical events when the byte stream is cut in %s chunks", async (_label, cut) => {
    expect(await runWithCut(cut)).toEqual(EXPECTED);
  });

  it("posts to <baseURL>/chat/completions with the key, streaming and usage requested", async () => {
    const ff = fakeFetch(() => ({ chunks: cutBytes(TOOL_CALL_STREAM, { size: 64 }) }));
    await collect(createAiSdkLLM({ fetch: ff.fetch }).stream(request()));
    const req = ff.requests[0];
    expect(req?.url).toBe("http://localhost:11434/v1/chat/completions");
    expect(req?.headers.get("authorization")).toBe(`Bearer ${TEST_KEY}`);
    expect(req?.headers.get("user-agent")).toBeNull();
    expect(req?.body).toMatchObject({
      model: "llama3.2",
      max_tokens: 512,
      stream: true,
      stream_options: { include_usage: true },
      messages: [
        { role: "system", content: "You are tabcode.\n\nEnvironment: browser." },
        { role: "user", content: "Read a.ts" },
      ],
      tools: [{ type: "function", function: { name: "read", description: "Read a file" } }],
    });
    // A compatible server gets no OpenAI-only fields.
    expect(req?.body).not.toHaveProperty("prompt_cache_key");
    expect(req?.body).not.toHaveProperty("store");
  });

  it("sends no Authorization header at all when no key is configured", async () => {
    const ff = fakeFetch(() => ({ chunks: cutBytes(TOOL_CALL_STREAM, { size: 64 }) }));
    const events = await collect(createAiSdkLLM({ fetch: ff.fetch }).stream(request({ model: modelConfig({ apiKey: undefined }) })));
    expect(events.at(-1)).toMatchObject({ type: "finish" });
    expect(ff.requests[0]?.headers.get("authorization")).toBeNull();
  });

  it("sends prompt_cache_key only when the server is OpenAI itself", async () => {
    const ff = fakeFetch(() => ({ chunks: cutBytes(TOOL_CALL_STREAM, { size: 64 }) }));
    const llm = createAiSdkLLM({ fetch: ff.fetch });
    await collect(llm.stream(request({ model: modelConfig({ baseURL: "https://api.openai.com/v1", modelID: "gpt-4.1" }) })));
    expect(ff.requests[0]?.url).toBe("https://api.openai.com/v1/chat/completions");
    expect(ff.requests[0]?.body).toMatchObject({ prompt_cache_key: "ses_test" });
  });

  it("does not reuse a provider across different keys or base URLs", async () => {
    const ff = fakeFetch(() => ({ chunks: cutBytes(TOOL_CALL_STREAM, { size: 64 }) }));
    const llm = createAiSdkLLM({ fetch: ff.fetch });
    await collect(llm.stream(request({ model: modelConfig({ apiKey: "sk-first-key-aaaaaaaaaaaa" }) })));
    await collect(llm.stream(request({ model: modelConfig({ apiKey: "sk-second-key-bbbbbbbbbbb" }) })));
    await collect(llm.stream(request({ model: modelConfig({ baseURL: "http://127.0.0.1:1234/v1/" }) })));
    expect(ff.requests.map((r) => r.headers.get("authorization"))).toEqual([
      "Bearer sk-first-key-aaaaaaaaaaaa",
      "Bearer sk-second-key-bbbbbbbbbbb",
      `Bearer ${TEST_KEY}`,
    ]);
    expect(ff.requests[2]?.url).toBe("http://127.0.0.1:1234/v1/chat/completions");
  });

  it("replays history with text, reasoning (as reasoning_content), tool calls and tool results as valid chat messages", async () => {
    const ff = fakeFetch(() => ({ chunks: cutBytes(TOOL_CALL_STREAM, { size: 64 }) }));
    await collect(
      createAiSdkLLM({ fetch: ff.fetch }).stream(
        request({
          messages: [
            { role: "user", content: [{ type: "text", text: "Read a.ts" }] },
            {
              role: "assistant",
              content: [
                { type: "reasoning", text: "hidden" },
                { type: "text", text: "Reading it." },
                { type: "tool-call", callID: "call_1", tool: "read", input: { path: "a.ts" } },
              ],
            },
            { role: "tool", content: [{ type: "tool-result", callID: "call_1", tool: "read", output: "export {}" }] },
            { role: "user", content: [{ type: "text", text: "Thanks" }], cache: true },
          ],
        }),
      ),
    );
    expect(ff.requests[0]?.body.messages).toEqual([
      { role: "system", content: "You are tabcode.\n\nEnvironment: browser." },
      { role: "user", content: "Read a.ts" },
      {
        role: "assistant",
        content: "Reading it.",
        reasoning_content: "hidden",
        tool_calls: [{ id: "call_1", type: "function", function: { name: "read", arguments: '{"path":"a.ts"}' } }],
      },
      { role: "tool", tool_call_id: "call_1", content: "export {}" },
      { role: "user", content: "Thanks" },
    ]);
  });

  it("never throws: a demo config or a broken file URL become one error event", async () => {
    const llm = createAiSdkLLM({ fetch: fakeFetch(() => ({ chunks: [] })).fetch });
    const demo = await collect(llm.stream(request({ model: modelConfig({ provider: "demo" }) })));
    expect(demo).toEqual([{ type: "error", error: expect.objectContaining({ name: "UnknownError" }) }]);
    const badFile = await collect(
      llm.stream(request({ messages: [{ role: "user", content: [{ type: "file", mime: "image/png", url: "not a url" }] }] })),
    );
    expect(badFile).toEqual([{ type: "error", error: expect.objectContaining({ name: "UnknownError" }) }]);
  });

  it("lets the consumer stop early (the core breaking out) without leaking errors", async () => {
    const ff = fakeFetch(() => ({ chunks: cutBytes(TOOL_CALL_STREAM, { size: 3 }) }));
    const llm = createAiSdkLLM({ fetch: ff.fetch });
    const seen: LLMEvent[] = [];
    for await (const ev of llm.stream(request())) {
      seen.push(ev);
      if (ev.type === "text-delta") break;
    }
    expect(seen.map((e) => e.type)).toEqual(["text-start", "text-delta"]);
    // The same adapter still serves the next call.
    expect((await collect(llm.stream(request()))).at(-1)).toMatchObject({ type: "finish" });
  });
});
