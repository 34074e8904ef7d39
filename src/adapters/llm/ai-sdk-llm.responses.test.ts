/** End to end through the real @ai-sdk/openai Responses model, with canned SSE bodies. */
import { describe, expect, it } from "vitest";
import type { LLMEvent, LLMMessage } from "../../core/ports/llm";
import { createAiSdkLLM } from "./ai-sdk-llm";
import { collect, cutBytes, fakeFetch, modelConfig, request, sseResponses, TEST_KEY } from "./sse-test-helpers";

const OPENAI = modelConfig({ provider: "openai", modelID: "gpt-5.1", baseURL: undefined });
const response = { id: "resp_1", object: "response", created_at: 1_700_000_000, model: "gpt-5.1", output: [] };

/** Reasoning summary, a text message, a function call with streamed arguments, usage with cached tokens. */
const STREAM = sseResponses([
  { type: "response.created", response: { ...response, status: "in_progress", usage: null } },
  { type: "response.in_progress", response: { ...response, status: "in_progress", usage: null } },
  { type: "response.output_item.added", output_index: 0, item: { id: "rs_1", type: "reasoning", summary: [] } },
  { type: "response.reasoning_summary_part.added", item_id: "rs_1", output_index: 0, summary_index: 0, part: { type: "summary_text", text: "" } },
  { type: "response.reasoning_summary_text.delta", item_id: "rs_1", output_index: 0, summary_index: 0, delta: "Checking the file…" },
  {
    type: "response.output_item.done",
    output_index: 0,
    item: { id: "rs_1", type: "reasoning", summary: [{ type: "summary_text", text: "Checking the file…" }], encrypted_content: "ENC1" },
  },
  { type: "response.output_item.added", output_index: 1, item: { id: "msg_1", type: "message", role: "assistant", status: "in_progress", content: [] } },
  { type: "response.output_text.delta", item_id: "msg_1", output_index: 1, content_index: 0, delta: "Je lis « a.ts » " },
  { type: "response.output_text.delta", item_id: "msg_1", output_index: 1, content_index: 0, delta: "🚀" },
  {
    type: "response.output_item.done",
    output_index: 1,
    item: { id: "msg_1", type: "message", role: "assistant", status: "completed", content: [{ type: "output_text", text: "Je lis « a.ts » 🚀", annotations: [] }] },
  },
  { type: "response.output_item.added", output_index: 2, item: { id: "fc_1", type: "function_call", status: "in_progress", arguments: "", call_id: "call_1", name: "read" } },
  { type: "response.function_call_arguments.delta", item_id: "fc_1", output_index: 2, delta: '{"pa' },
  { type: "response.function_call_arguments.delta", item_id: "fc_1", output_index: 2, delta: 'th":"a.ts"}' },
  {
    type: "response.output_item.done",
    output_index: 2,
    item: { id: "fc_1", type: "function_call", status: "completed", arguments: '{"path":"a.ts"}', call_id: "call_1", name: "read" },
  },
  {
    type: "response.completed",
    response: {
      ...response,
      status: "completed",
      incomplete_details: null,
      usage: {
        input_tokens: 2000,
        input_tokens_details: { cached_tokens: 1500 },
        output_tokens: 60,
        output_tokens_details: { reasoning_tokens: 20 },
        total_tokens: 2060,
      },
    },
  },
]);

const EXPECTED: LLMEvent[] = [
  { type: "reasoning-start", id: "rs_1:0" },
  { type: "reasoning-delta", id: "rs_1:0", delta: "Checking the file…" },
  { type: "reasoning-end", id: "rs_1:0", providerMetadata: { openai: { itemId: "rs_1", reasoningEncryptedContent: "ENC1" } } },
  { type: "text-start", id: "msg_1" },
  { type: "text-delta", id: "msg_1", delta: "Je lis « a.ts » " },
  { type: "text-delta", id: "msg_1", delta: "🚀" },
  { type: "text-end", id: "msg_1", providerMetadata: { openai: { itemId: "msg_1" } } },
  { type: "tool-input-start", callID: "call_1", tool: "read" },
  { type: "tool-input-delta", callID: "call_1", delta: '{"pa' },
  { type: "tool-input-delta", callID: "call_1", delta: 'th":"a.ts"}' },
  { type: "tool-call", callID: "call_1", tool: "read", input: '{"path":"a.ts"}', providerMetadata: { openai: { itemId: "fc_1" } } },
  {
    type: "finish",
    reason: "tool-calls",
    usage: {
      inputTokens: 2000,
      noCacheInputTokens: 500,
      cacheReadTokens: 1500,
      outputTokens: 60,
      reasoningTokens: 20,
      totalTokens: 2060,
    },
  },
];

async function runWithCut(cut: Parameters<typeof cutBytes>[1]): Promise<LLMEvent[]> {
  const { fetch } = fakeFetch(() => ({ chunks: cutBytes(STREAM, cut) }));
  return collect(createAiSdkLLM({ fetch }).stream(request({ model: OPENAI })));
}

describe("Responses API (openai)", () => {
  it("maps reasoning, text and a function call with cached-token usage", async () => {
    expect(await runWithCut({ size: 1 << 20 })).toEqual(EXPECTED);
  });

  it.each([
    ["1-byte", { size: 1 }],
    ["7-byte", { size: 7 }],
    ["random 1–11 byte (seed 3)", { seed: 3, max: 11 }],
    ["random 1–80 byte (seed 99)", { seed: 99, max: 80 }],
  ])("gives identical events when the byte stream is cut in %s chunks", async (_label, cut) => {
    expect(await runWithCut(cut)).toEqual(EXPECTED);
  });

  it("posts to OpenAI's /responses with store:false, the cache key and the bearer key", async () => {
    const ff = fakeFetch(() => ({ chunks: cutBytes(STREAM, { size: 256 }) }));
    await collect(createAiSdkLLM({ fetch: ff.fetch }).stream(request({ model: OPENAI })));
    const req = ff.requests[0];
    const input = (req?.body.input ?? []) as unknown[];
    expect(req?.url).toBe("https://api.openai.com/v1/responses");
    expect(req?.headers.get("authorization")).toBe(`Bearer ${TEST_KEY}`);
    expect(req?.body).toMatchObject({ model: "gpt-5.1", store: false, stream: true, prompt_cache_key: "ses_test", max_output_tokens: 512 });
    // Each system section is its own leading message, the first one unchanged.
    expect(input.slice(0, 2)).toEqual([
      { role: "developer", content: "You are tabcode." },
      { role: "developer", content: "Environment: browser." },
    ]);
  });

  it("keeps store:false but drops the cache key for a Responses-compatible server", async () => {
    const ff = fakeFetch(() => ({ chunks: cutBytes(STREAM, { size: 256 }) }));
    const model = { ...OPENAI, baseURL: "http://localhost:8000/v1" };
    await collect(createAiSdkLLM({ fetch: ff.fetch }).stream(request({ model })));
    expect(ff.requests[0]?.url).toBe("http://localhost:8000/v1/responses");
    expect(ff.requests[0]?.body.store).toBe(false);
    expect(ff.requests[0]?.body).not.toHaveProperty("prompt_cache_key");
  });

  it("replays the streamed turn (text, reasoning, tool call, tool result) in full, without item references", async () => {
    const ff = fakeFetch(() => ({ chunks: cutBytes(STREAM, { size: 256 }) }));
    const llm = createAiSdkLLM({ fetch: ff.fetch });
    const first = await collect(llm.stream(request({ model: OPENAI })));
    const meta = (id: string) => {
      const end = first.find((e) => (e.type === "text-end" || e.type === "reasoning-end") && e.id === id);
      return end && "providerMetadata" in end ? end.providerMetadata : undefined;
    };
    const history: LLMMessage[] = [
      { role: "user", content: [{ type: "text", text: "Read a.ts" }] },
      {
        role: "assistant",
        content: [
          { type: "reasoning", text: "Checking the file…", providerMetadata: meta("rs_1:0") },
          { type: "text", text: "Je lis « a.ts » 🚀", providerMetadata: meta("msg_1") },
          { type: "tool-call", callID: "call_1", tool: "read", input: { path: "a.ts" } },
        ],
      },
      { role: "tool", content: [{ type: "tool-result", callID: "call_1", tool: "read", output: "export {}" }], cache: true },
      { role: "assistant", content: [{ type: "tool-call", callID: "call_2", tool: "read", input: { path: "b.ts" } }] },
      { role: "tool", content: [{ type: "tool-result", callID: "call_2", tool: "read", output: "ENOENT", isError: true }] },
    ];
    await collect(llm.stream(request({ model: OPENAI, messages: history })));
    const body = ff.requests[1]?.body ?? {};
    const input = (body.input ?? []) as Array<{ type?: string; call_id?: string }>;
    expect(JSON.stringify(body)).not.toContain("item_reference");
    expect(body.store).toBe(false);
    expect(body.include).toEqual(["reasoning.encrypted_content"]);
    expect(input.slice(2)).toEqual([
      { role: "user", content: [{ type: "input_text", text: "Read a.ts" }] },
      { type: "reasoning", id: "rs_1", encrypted_content: "ENC1", summary: [{ type: "summary_text", text: "Checking the file…" }] },
      expect.objectContaining({ role: "assistant" }),
      { type: "function_call", call_id: "call_1", name: "read", arguments: '{"path":"a.ts"}' },
      { type: "function_call_output", call_id: "call_1", output: "export {}" },
      { type: "function_call", call_id: "call_2", name: "read", arguments: '{"path":"b.ts"}' },
      // The SDK marks error results for the model by wrapping them.
      { type: "function_call_output", call_id: "call_2", output: '{"error":"ENOENT"}' },
    ]);
    // Every function call has its output: the request is self-contained.
    const calls = input.filter((i) => i.type === "function_call").map((i) => i.call_id);
    const outputs = input.filter((i) => i.type === "function_call_output").map((i) => i.call_id);
    expect(outputs).toEqual(calls);
  });
});
