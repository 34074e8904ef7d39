/** Failures through the real @ai-sdk/openai provider: HTTP errors, network, broken and cut streams, aborts. */
import { describe, expect, it } from "vitest";
import type { LLMEvent, LLMRequest } from "../../core/ports/llm";
import { createAiSdkLLM } from "./ai-sdk-llm";
import { collect, cutBytes, fakeFetch, modelConfig, type Reply, request, sseChat, sseResponses, TEST_KEY } from "./sse-test-helpers";

const OPENAI = modelConfig({ provider: "openai", modelID: "gpt-5.1", baseURL: undefined });
const chunk = (d: Record<string, unknown>, finish: string | null = null) => ({
  id: "c1",
  object: "chat.completion.chunk",
  created: 1_700_000_000,
  model: "llama3.2",
  choices: [{ index: 0, delta: d, finish_reason: finish }],
});
const openaiError = (message: string, type: string, code: string | null) => JSON.stringify({ error: { message, type, param: null, code } });

async function failWith(reply: Reply, req: Partial<LLMRequest> = {}): Promise<LLMEvent[]> {
  const { fetch } = fakeFetch(() => reply);
  return collect(createAiSdkLLM({ fetch }).stream(request(req)));
}

/** The one error event that must end the stream. */
function onlyError(events: LLMEvent[]) {
  const errors = events.filter((e) => e.type === "error");
  expect(errors).toHaveLength(1);
  const last = events.at(-1);
  expect(last?.type).toBe("error");
  if (last?.type !== "error") throw new Error("no error event");
  // Whatever happened, the key never travels with the error.
  expect(JSON.stringify(events)).not.toContain(TEST_KEY);
  return last.error;
}

describe("HTTP errors", () => {
  it("401 → ProviderAuthError with the provider's message and a Settings hint", async () => {
    const message = "Incorrect API key provided: sk-test-****CRET. You can find your API key at https://platform.openai.com/account/api-keys.";
    const error = onlyError(await failWith({ status: 401, body: openaiError(message, "invalid_request_error", "invalid_api_key") }, { model: OPENAI }));
    expect(error).toMatchObject({ name: "ProviderAuthError", data: { message, statusCode: 401, providerID: "openai" } });
    expect(String(error.data.hint)).toMatch(/Settings/);
  });

  it("403 → ProviderAuthError", async () => {
    const error = onlyError(await failWith({ status: 403, body: openaiError("Project does not have access to model", "invalid_request_error", "model_not_found") }));
    expect(error).toMatchObject({ name: "ProviderAuthError", data: { message: "Project does not have access to model" } });
  });

  it("a key echoed back by a proxy is scrubbed from the error", async () => {
    const error = onlyError(await failWith({ status: 401, body: openaiError(`Bad key ${TEST_KEY}`, "auth", null) }));
    expect(error.data.message).toBe("Bad key [redacted]");
  });

  it("404 → APIError, not retryable, naming the model or the base URL", async () => {
    const message = 'model "llama9" not found, try pulling it first';
    const error = onlyError(await failWith({ status: 404, body: openaiError(message, "api_error", null) }));
    expect(error).toMatchObject({ name: "APIError", data: { message, statusCode: 404, isRetryable: false } });
    expect(String(error.data.hint)).toMatch(/llama9.*base URL/s);
  });

  it("404 with a non-OpenAI error body keeps the server's own words", async () => {
    const error = onlyError(await failWith({ status: 404, body: '{"error":"Model \\"nope\\" not found"}' }));
    expect(error.data.message).toBe('Model "nope" not found');
  });

  it("429 → retryable APIError carrying retry-after headers", async () => {
    const message = "Rate limit reached for gpt-4.1 on tokens per min (TPM): Limit 30000, Used 29000, Requested 2000. Please try again in 2s.";
    const error = onlyError(
      await failWith({
        status: 429,
        headers: { "retry-after": "2", "retry-after-ms": "1500", "content-type": "application/json" },
        body: openaiError(message, "tokens", "rate_limit_exceeded"),
      }),
    );
    expect(error).toMatchObject({
      name: "APIError",
      data: { message, statusCode: 429, isRetryable: true, responseHeaders: { "retry-after": "2", "retry-after-ms": "1500" } },
    });
  });

  it("429 insufficient_quota → not retryable, with a billing hint", async () => {
    const message = "You exceeded your current quota, please check your plan and billing details.";
    const error = onlyError(await failWith({ status: 429, body: openaiError(message, "insufficient_quota", "insufficient_quota") }));
    expect(error).toMatchObject({ name: "APIError", data: { message, isRetryable: false } });
    expect(String(error.data.hint)).toMatch(/billing/);
  });

  it("500 with a plain-text body → retryable APIError", async () => {
    const error = onlyError(await failWith({ status: 500, body: "upstream crashed" }));
    expect(error).toMatchObject({ name: "APIError", data: { message: "upstream crashed", statusCode: 500, isRetryable: true } });
  });

  it("529 overloaded → retryable APIError", async () => {
    const error = onlyError(await failWith({ status: 529, body: openaiError("Overloaded", "overloaded_error", null) }));
    expect(error).toMatchObject({ name: "APIError", data: { message: "Overloaded", isRetryable: true } });
  });

  it("400 context_length_exceeded → ContextOverflowError with the provider's message", async () => {
    const message =
      "This model's maximum context length is 128000 tokens. However, your messages resulted in 131072 tokens. Please reduce the length of the messages.";
    const error = onlyError(await failWith({ status: 400, body: openaiError(message, "invalid_request_error", "context_length_exceeded") }));
    expect(error).toMatchObject({ name: "ContextOverflowError", data: { message, statusCode: 400 } });
  });

  it("400 from a local server whose message says the prompt is too long → ContextOverflowError", async () => {
    const message = "the request exceeds the available context size, try increasing it";
    const error = onlyError(await failWith({ status: 400, body: JSON.stringify({ error: { code: 400, message, type: "exceed_context_size_error" } }) }));
    expect(error).toMatchObject({ name: "ContextOverflowError", data: { message } });
  });

  it("any other 400 → APIError, not retryable", async () => {
    const error = onlyError(await failWith({ status: 400, body: openaiError("Invalid value for 'tool_choice'", "invalid_request_error", null) }));
    expect(error).toMatchObject({ name: "APIError", data: { message: "Invalid value for 'tool_choice'", isRetryable: false } });
  });
});

describe("network failures", () => {
  it("a browser 'Failed to fetch' → NetworkError naming the base URL, with CORS advice", async () => {
    const error = onlyError(await failWith({ reject: new TypeError("Failed to fetch") }));
    expect(error.name).toBe("NetworkError");
    expect(error.data).toMatchObject({ isRetryable: false, baseURL: "http://localhost:11434/v1" });
    expect(String(error.data.message)).toContain("http://localhost:11434/v1");
    expect(String(error.data.message)).toContain("Failed to fetch");
    const hint = String(error.data.hint);
    expect(hint).toContain("OLLAMA_ORIGINS=*");
    expect(hint).toMatch(/LM Studio.*Enable CORS/);
    expect(hint).toMatch(/CORS/);
    expect(hint).toMatch(/offline|connection/i);
  });

  it("Node's 'fetch failed' with a connection cause → NetworkError", async () => {
    const reject = new TypeError("fetch failed", { cause: new Error("connect ECONNREFUSED 127.0.0.1:11434") });
    const error = onlyError(await failWith({ reject }));
    expect(error.name).toBe("NetworkError");
    expect(String(error.data.message)).toContain("ECONNREFUSED");
  });

  it("names OpenAI's default URL when no base URL is set", async () => {
    const error = onlyError(await failWith({ reject: new TypeError("Failed to fetch") }, { model: OPENAI }));
    expect(String(error.data.message)).toContain("https://api.openai.com/v1");
  });
});

describe("broken streams", () => {
  it("a malformed JSON chunk → StreamError with the detail", async () => {
    const body = `${sseChat([chunk({ role: "assistant", content: "Hi" })], false)}data: {"id": "c1", "choices": [oops\n\n`;
    const events = await failWith({ chunks: cutBytes(body, { size: 5 }) });
    const error = onlyError(events);
    expect(error.name).toBe("StreamError");
    expect(String(error.data.detail)).toMatch(/JSON/);
  });

  it("a chat stream cut before its finish → StreamError 'ended unexpectedly'", async () => {
    const body = sseChat([chunk({ role: "assistant", content: "" }), chunk({ content: "Half an ans" })], false);
    const events = await failWith({ chunks: cutBytes(body, { size: 9 }) });
    expect(events.slice(0, 2)).toEqual([
      { type: "text-start", id: "txt-0" },
      { type: "text-delta", id: "txt-0", delta: "Half an ans" },
    ]);
    expect(onlyError(events)).toMatchObject({ name: "StreamError", data: { message: "The response stream ended unexpectedly" } });
  });

  it("a Responses stream cut before response.completed → StreamError", async () => {
    const body = sseResponses([
      { type: "response.created", response: { id: "r", object: "response", created_at: 1, model: "gpt-5.1", output: [], status: "in_progress" } },
      { type: "response.output_item.added", output_index: 0, item: { id: "msg_1", type: "message", role: "assistant", status: "in_progress", content: [] } },
      { type: "response.output_text.delta", item_id: "msg_1", output_index: 0, content_index: 0, delta: "Hal" },
    ]);
    const error = onlyError(await failWith({ chunks: cutBytes(body, { size: 13 }) }, { model: OPENAI }));
    expect(error).toMatchObject({ name: "StreamError", data: { message: "The response stream ended unexpectedly" } });
  });

  it("an empty 200 body → StreamError", async () => {
    const error = onlyError(await failWith({ chunks: [] }));
    expect(error.name).toBe("StreamError");
  });

  it("a Responses error event for context length → ContextOverflowError", async () => {
    const body = sseResponses([
      { type: "response.created", response: { id: "r", object: "response", created_at: 1, model: "gpt-5.1", output: [], status: "in_progress" } },
      { type: "error", code: "context_length_exceeded", message: "Your input exceeds the context window of this model.", param: "input" },
    ]);
    const error = onlyError(await failWith({ chunks: cutBytes(body, { size: 7 }) }, { model: OPENAI }));
    expect(error).toMatchObject({ name: "ContextOverflowError", data: { message: "Your input exceeds the context window of this model." } });
  });

  it("a response.failed server error after some text → one retryable APIError after the text", async () => {
    const head = { id: "r", object: "response", created_at: 1, model: "gpt-5.1", output: [] };
    const body = sseResponses([
      { type: "response.created", response: { ...head, status: "in_progress" } },
      { type: "response.output_item.added", output_index: 0, item: { id: "msg_1", type: "message", role: "assistant", status: "in_progress", content: [] } },
      { type: "response.output_text.delta", item_id: "msg_1", output_index: 0, content_index: 0, delta: "Partial" },
      {
        type: "response.failed",
        response: { ...head, status: "failed", error: { code: "server_error", message: "The server had an error processing your request." }, incomplete_details: null, usage: null },
      },
    ]);
    const events = await failWith({ chunks: cutBytes(body, { size: 64 }) }, { model: OPENAI });
    expect(events.some((e) => e.type === "text-delta")).toBe(true);
    expect(onlyError(events)).toMatchObject({
      name: "APIError",
      data: { message: "The server had an error processing your request.", isRetryable: true },
    });
  });

  it("a chat error chunk mid-stream → one classified error", async () => {
    const body = sseChat([chunk({ role: "assistant", content: "Hi" }), { error: { message: "Model overloaded", type: "overloaded_error", code: null } } as never], false);
    const error = onlyError(await failWith({ chunks: cutBytes(body, { size: 16 }) }));
    expect(error).toMatchObject({ name: "APIError", data: { message: "Model overloaded", isRetryable: true } });
  });
});

describe("aborts", () => {
  function endlessStream(): Reply {
    const enc = new TextEncoder();
    return {
      chunks: [
        enc.encode(sseChat([chunk({ role: "assistant", content: "" }), chunk({ content: "Hello" })], false)),
        // The fake ends when chunks run out, so keep it waiting with a long list of keep-alive comments.
        ...Array.from({ length: 10_000 }, () => enc.encode(": keep-alive\n\n")),
      ],
    };
  }

  it("an abort mid-stream ends with MessageAbortedError", async () => {
    const ac = new AbortController();
    const { fetch } = fakeFetch(endlessStream);
    const events: LLMEvent[] = [];
    for await (const ev of createAiSdkLLM({ fetch }).stream(request({ signal: ac.signal }))) {
      events.push(ev);
      if (ev.type === "text-delta") ac.abort();
    }
    expect(onlyError(events)).toEqual({ name: "MessageAbortedError", data: { message: "The request was aborted." } });
  });

  it("an already aborted signal ends with MessageAbortedError and no request body is read", async () => {
    const ac = new AbortController();
    ac.abort();
    const events = await failWith(endlessStream(), { signal: ac.signal });
    expect(onlyError(events).name).toBe("MessageAbortedError");
  });
});
