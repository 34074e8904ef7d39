import { convertArrayToReadableStream, MockLanguageModelV4 } from "ai/test";
import { describe, expect, it } from "vitest";
import type { LLMEvent } from "../../core/ports/llm";
import { streamWithModel } from "./ai-sdk-llm";
import { collect, request, TEST_KEY } from "./sse-test-helpers";

type StreamResult = Awaited<ReturnType<MockLanguageModelV4["doStream"]>>;
type StreamPart = StreamResult["stream"] extends ReadableStream<infer P> ? P : never;

const usage = {
  inputTokens: { total: 120, noCache: 20, cacheRead: 100, cacheWrite: 0 },
  outputTokens: { total: 30, text: 22, reasoning: 8 },
};

function finish(unified: "stop" | "tool-calls" | "length" | "interrupted" | "error" = "stop"): StreamPart {
  return { type: "finish", finishReason: { unified, raw: unified }, usage };
}

function mock(parts: StreamPart[]): MockLanguageModelV4 {
  return new MockLanguageModelV4({ doStream: { stream: convertArrayToReadableStream(parts) } });
}

function run(model: MockLanguageModelV4, signal = new AbortController().signal): Promise<LLMEvent[]> {
  return collect(streamWithModel(model, request({ signal })));
}

describe("mapStream over a mock model", () => {
  it("maps text, reasoning (keeping provider metadata), a tool call and the step usage", async () => {
    const events = await run(
      mock([
        { type: "stream-start", warnings: [] },
        { type: "reasoning-start", id: "r1", providerMetadata: { openai: { itemId: "rs_1" } } },
        { type: "reasoning-delta", id: "r1", delta: "Let me look." },
        { type: "reasoning-end", id: "r1", providerMetadata: { openai: { itemId: "rs_1", reasoningEncryptedContent: "enc" } } },
        { type: "text-start", id: "t1" },
        { type: "text-delta", id: "t1", delta: "Reading " },
        { type: "text-delta", id: "t1", delta: "a.ts" },
        { type: "text-end", id: "t1" },
        { type: "tool-input-start", id: "call_1", toolName: "read" },
        { type: "tool-input-delta", id: "call_1", delta: '{"path":' },
        { type: "tool-input-delta", id: "call_1", delta: '"a.ts"}' },
        { type: "tool-input-end", id: "call_1" },
        { type: "tool-call", toolCallId: "call_1", toolName: "read", input: '{"path":"a.ts"}' },
        finish("tool-calls"),
      ]),
    );
    expect(events).toEqual([
      { type: "reasoning-start", id: "r1" },
      { type: "reasoning-delta", id: "r1", delta: "Let me look." },
      { type: "reasoning-end", id: "r1", providerMetadata: { openai: { itemId: "rs_1", reasoningEncryptedContent: "enc" } } },
      { type: "text-start", id: "t1" },
      { type: "text-delta", id: "t1", delta: "Reading " },
      { type: "text-delta", id: "t1", delta: "a.ts" },
      { type: "text-end", id: "t1" },
      { type: "tool-input-start", callID: "call_1", tool: "read" },
      { type: "tool-input-delta", callID: "call_1", delta: '{"path":' },
      { type: "tool-input-delta", callID: "call_1", delta: '"a.ts"}' },
      { type: "tool-call", callID: "call_1", tool: "read", input: '{"path":"a.ts"}' },
      {
        type: "finish",
        reason: "tool-calls",
        usage: {
          inputTokens: 120,
          noCacheInputTokens: 20,
          cacheReadTokens: 100,
          cacheWriteTokens: 0,
          outputTokens: 30,
          reasoningTokens: 8,
          totalTokens: 150,
        },
      },
    ]);
  });

  it("keeps metadata that only arrived on the start part", async () => {
    const events = await run(
      mock([
        { type: "text-start", id: "t1", providerMetadata: { openai: { itemId: "msg_1" } } },
        { type: "text-delta", id: "t1", delta: "hi" },
        { type: "text-end", id: "t1" },
        finish(),
      ]),
    );
    expect(events[2]).toEqual({ type: "text-end", id: "t1", providerMetadata: { openai: { itemId: "msg_1" } } });
  });

  it("passes an unparsable tool input through as the model's raw text", async () => {
    const events = await run(
      mock([{ type: "tool-call", toolCallId: "c1", toolName: "read", input: '{"path": "a.ts"' }, finish("tool-calls")]),
    );
    expect(events[0]).toEqual({ type: "tool-call", callID: "c1", tool: "read", input: '{"path": "a.ts"' });
    expect(events[1]).toMatchObject({ type: "finish", reason: "tool-calls" });
  });

  it("reports a call to an unknown tool as a tool call (the core answers it)", async () => {
    const events = await run(mock([{ type: "tool-call", toolCallId: "c1", toolName: "nope", input: '{"a":1}' }, finish("tool-calls")]));
    expect(events[0]).toEqual({ type: "tool-call", callID: "c1", tool: "nope", input: '{"a":1}' });
  });

  it("an error part followed by an error finish ends with that error (the provider's words), nothing after it", async () => {
    const events = await run(
      mock([
        { type: "text-start", id: "t1" },
        { type: "text-delta", id: "t1", delta: "par" },
        { type: "error", error: { message: "Rate limit reached", type: "rate_limit", code: "rate_limit_exceeded", statusCode: 429, isRetryable: true, data: {} } },
        finish("error"),
      ]),
    );
    expect(events.map((e) => e.type)).toEqual(["text-start", "text-delta", "error"]);
    expect(events[2]).toMatchObject({ error: { name: "APIError", data: { isRetryable: true, statusCode: 429 } } });
  });

  it("an error part followed by a normal finish is a warning: the text, usage and finish still count", async () => {
    const events = await run(
      mock([
        { type: "text-start", id: "t1" },
        { type: "text-delta", id: "t1", delta: "par" },
        { type: "error", error: { message: "Type validation failed: bad chunk" } },
        { type: "text-delta", id: "t1", delta: "tial" },
        { type: "text-end", id: "t1" },
        finish(),
      ]),
    );
    expect(events.map((e) => e.type)).toEqual(["text-start", "text-delta", "text-delta", "text-end", "warning", "finish"]);
    expect(events[4]).toMatchObject({ type: "warning", message: expect.stringContaining("bad chunk") });
  });

  it("turns a doStream failure into one classified error and does not retry", async () => {
    let calls = 0;
    const model = new MockLanguageModelV4({
      doStream: async () => {
        calls++;
        throw Object.assign(new Error(`Server exploded for ${TEST_KEY}`), {
          name: "AI_APICallError",
          statusCode: 500,
          isRetryable: true,
          responseHeaders: {},
        });
      },
    });
    const events = await run(model);
    expect(calls).toBe(1);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: "error", error: { name: "APIError", data: { isRetryable: true, statusCode: 500 } } });
    expect(JSON.stringify(events)).not.toContain(TEST_KEY);
  });

  it("reports a stream that ends without a finish as a StreamError", async () => {
    const events = await run(mock([{ type: "text-start", id: "t1" }, { type: "text-delta", id: "t1", delta: "cut" }]));
    expect(events.at(-1)).toEqual({
      type: "error",
      error: { name: "StreamError", data: expect.objectContaining({ message: "The response stream ended unexpectedly" }) },
    });
  });

  it("reports a stream with no output and no finish as a StreamError", async () => {
    const events = await run(mock([{ type: "stream-start", warnings: [] }]));
    expect(events).toEqual([{ type: "error", error: expect.objectContaining({ name: "StreamError" }) }]);
  });

  it("reports an interrupted finish (no completion signal from the provider) as a StreamError", async () => {
    const events = await run(mock([{ type: "text-start", id: "t1" }, finish("interrupted")]));
    expect(events.at(-1)).toMatchObject({ type: "error", error: { name: "StreamError" } });
  });

  it("reports an abort as MessageAbortedError", async () => {
    const ac = new AbortController();
    const stream = new ReadableStream<StreamPart>({
      start(controller) {
        controller.enqueue({ type: "text-start", id: "t1" });
        controller.enqueue({ type: "text-delta", id: "t1", delta: "hello" });
        // never closes: only the abort can end it
      },
    });
    const model = new MockLanguageModelV4({ doStream: { stream } });
    const events: LLMEvent[] = [];
    for await (const ev of streamWithModel(model, request({ signal: ac.signal }))) {
      events.push(ev);
      if (ev.type === "text-delta") ac.abort();
    }
    expect(events.at(-1)).toEqual({ type: "error", error: { name: "MessageAbortedError", data: { message: "The request was aborted." } } });
    expect(events.filter((e) => e.type === "error")).toHaveLength(1);
  });

  it("passes a length finish through for the core to handle", async () => {
    const events = await run(mock([{ type: "text-start", id: "t" }, { type: "text-delta", id: "t", delta: "x" }, { type: "text-end", id: "t" }, finish("length")]));
    expect(events.at(-1)).toMatchObject({ type: "finish", reason: "length" });
  });

  it("sends the system sections, history, tools and limits to the model", async () => {
    const model = mock([finish()]);
    await collect(streamWithModel(model, request()));
    const call = model.doStreamCalls[0];
    expect(call?.maxOutputTokens).toBe(512);
    expect(call?.prompt[0]).toMatchObject({ role: "system", content: "You are tabcode.\n\nEnvironment: browser." });
    expect(call?.prompt[1]).toMatchObject({ role: "user", content: [{ type: "text", text: "Read a.ts" }] });
    expect(call?.tools).toEqual([
      expect.objectContaining({ type: "function", name: "read", inputSchema: expect.objectContaining({ required: ["path"] }) }),
    ]);
  });
});
