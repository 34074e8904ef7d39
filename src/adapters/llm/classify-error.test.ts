import { APICallError, JSONParseError, LoadAPIKeyError, TypeValidationError } from "ai";
import { describe, expect, it } from "vitest";
import { isRetryable } from "../../core/errors";
import { type ClassifyContext, classifyError, isLocalURL, networkHint, statedContextLimit } from "./classify-error";

const KEY = "sk-proj-ABCDEFGHIJKLMNOPQRSTUVWXYZ012345";
const ctx: ClassifyContext = { provider: "openai-compatible", baseURL: "http://localhost:1234/v1", apiKey: KEY };

function apiCall(statusCode: number | undefined, body: string, extra: Partial<ConstructorParameters<typeof APICallError>[0]> = {}) {
  let message = extra.message ?? "Bad Request";
  try {
    const parsed = JSON.parse(body) as { error?: { message?: string } };
    if (typeof parsed.error?.message === "string") message = parsed.error.message;
  } catch {
    // keep the status text
  }
  return new APICallError({
    message,
    url: "http://localhost:1234/v1/chat/completions",
    requestBodyValues: { messages: [{ role: "user", content: "secret prompt" }] },
    statusCode,
    responseBody: body,
    responseHeaders: { "content-type": "application/json" },
    ...extra,
  });
}

describe("classifyError", () => {
  it("recognises AI SDK errors by name and properties, also when they are plain copies", () => {
    const real = apiCall(401, JSON.stringify({ error: { message: "Invalid API key" } }));
    const copy = { name: "AI_APICallError", message: "Invalid API key", statusCode: 401, isRetryable: false };
    expect(classifyError(real, ctx).name).toBe("ProviderAuthError");
    expect(classifyError(copy, ctx).name).toBe("ProviderAuthError");
  });

  it.each([
    [/maximum context length/, "This model's maximum context length is 4096 tokens. However, you requested 5000 tokens."],
    [/context window/, "Input exceeds the model's context window."],
    [/too many tokens/, "Too many tokens in the request"],
    [/prompt is too long/, "prompt is too long: 210000 tokens > 200000 maximum"],
    [/exceeds the context/, "The prompt exceeds the context size"],
    [/input is too long/, "Input is too long for requested model."],
    [/greater than the context length/, "The number of tokens to keep from the initial prompt is greater than the context length"],
  ])("a 400 matching %s is a ContextOverflowError", (_re, message) => {
    const e = apiCall(400, JSON.stringify({ error: { message, type: "invalid_request_error" } }));
    expect(classifyError(e, ctx)).toMatchObject({ name: "ContextOverflowError", data: { message } });
  });

  it.each([
    ["This model's maximum context length is 4096 tokens. However, you requested 5000 tokens.", 4096],
    ["prompt is too long: 210000 tokens > 200000 maximum", 200_000],
    ["The input token count (1234567) exceeds the maximum number of tokens allowed (1048576).", 1_048_576],
    ["Prompt contains 40000 tokens and 0 draft tokens, too large for model with 32768 maximum context length", 32_768],
    ["request (5000 tokens) exceeds the available context size (4096 tokens), try increasing it", 4096],
    ["Input exceeds the model's context window.", undefined],
  ])("the limit an overflow message states is read: %s", (message, limit) => {
    expect(statedContextLimit(message)).toBe(limit);
  });

  it("an overflow far below the window in Settings says which setting to fix (a local model served with a small context)", () => {
    const message = "request (5000 tokens) exceeds the available context size (4096 tokens), try increasing it";
    const e = apiCall(400, JSON.stringify({ error: { message } }));
    const wrong = classifyError(e, { ...ctx, contextWindow: 128_000 });
    expect(wrong.data).toMatchObject({ contextLimit: 4096 });
    expect(wrong.data.hint).toBe("The provider says this model's context window is 4,096 tokens, but Settings give it 128,000: set Context window to 4096 in Settings, so tabcode compacts before the limit instead of after it.");
    // Settings agree with the provider: the usual advice.
    expect(classifyError(e, { ...ctx, contextWindow: 4096 }).data.hint).toMatch(/^The conversation no longer fits/);
  });

  it("the code context_length_exceeded alone is enough", () => {
    const e = apiCall(400, JSON.stringify({ error: { message: "Request rejected.", code: "context_length_exceeded" } }));
    expect(classifyError(e, ctx).name).toBe("ContextOverflowError");
  });

  it("a 429 about tokens per minute is not a context overflow", () => {
    const message = "Rate limit reached on tokens per min (TPM): too many tokens requested.";
    const e = apiCall(429, JSON.stringify({ error: { message, code: "rate_limit_exceeded" } }));
    expect(classifyError(e, ctx)).toMatchObject({ name: "APIError", data: { isRetryable: true } });
  });

  it("a 429 'Request too large' for the per-minute limit is not retried forever", () => {
    const message = "Request too large for gpt-4o on tokens per min (TPM): Limit 30000, Requested 45000.";
    const e = apiCall(429, JSON.stringify({ error: { message, code: "rate_limit_exceeded" } }));
    expect(classifyError(e, ctx)).toMatchObject({ name: "APIError", data: { isRetryable: false } });
  });

  it("5xx, 529 and 'overloaded' are retryable for the core", () => {
    for (const status of [500, 502, 503, 529]) {
      expect(isRetryable(classifyError(apiCall(status, ""), ctx))).toBe(true);
    }
    const overloaded = { message: "Overloaded", type: "overloaded_error", isRetryable: true, data: {} };
    expect(isRetryable(classifyError(overloaded, ctx))).toBe(true);
  });

  it("an empty-body 400 or 413 from a gateway is a context overflow (OpenCode's heuristic for proxies)", () => {
    expect(classifyError(apiCall(400, "", { message: "Bad Request" }), ctx).name).toBe("ContextOverflowError");
    expect(classifyError(apiCall(400, "  \n", { message: "400 status code (no body)" }), ctx).name).toBe("ContextOverflowError");
    expect(classifyError(apiCall(413, "", { message: "" }), ctx).name).toBe("ContextOverflowError");
    expect(classifyError({ name: "AI_APICallError", message: "400 status code (no body)", statusCode: 400, isRetryable: false }, ctx).name).toBe("ContextOverflowError");
    // A 400 that says what is wrong is not an overflow.
    expect(classifyError(apiCall(400, JSON.stringify({ error: { message: "Invalid tool schema" } })), ctx).name).not.toBe("ContextOverflowError");
  });

  it("uses the status text when the body is empty and says HTTP <code> when even that is missing", () => {
    expect(classifyError(apiCall(502, "", { message: "Bad Gateway" }), ctx).data.message).toBe("Bad Gateway");
    expect(classifyError(apiCall(502, "", { message: "" }), ctx).data.message).toBe("HTTP 502");
  });

  it("ignores an HTML error page as a message", () => {
    const e = apiCall(502, "<html><body><h1>502 Bad Gateway</h1></body></html>", { message: "Bad Gateway" });
    expect(classifyError(e, ctx).data.message).toBe("Bad Gateway");
  });

  it("reads FastAPI/vLLM style bodies ({message} and {detail})", () => {
    expect(classifyError(apiCall(400, JSON.stringify({ object: "error", message: "Invalid tool", code: 400 })), ctx).data.message).toBe("Invalid tool");
    expect(classifyError(apiCall(422, JSON.stringify({ detail: "Field required" })), ctx).data.message).toBe("Field required");
  });

  it("a browser TypeError 'Failed to fetch' is a NetworkError with the base URL", () => {
    const e = classifyError(new TypeError("Failed to fetch"), ctx);
    expect(e).toMatchObject({ name: "NetworkError", data: { isRetryable: false, baseURL: "http://localhost:1234/v1" } });
    expect(String(e.data.message)).toContain("http://localhost:1234/v1");
  });

  it.each(["NetworkError when attempting to fetch resource.", "Load failed"])("Firefox/Safari wording %j is a NetworkError", (message) => {
    expect(classifyError(new TypeError(message), ctx).name).toBe("NetworkError");
  });

  it("an SDK 'Cannot connect to API' error (no status) is a NetworkError", () => {
    const e = new APICallError({ message: "Cannot connect to API: connect ECONNREFUSED", url: "u", requestBodyValues: {}, isRetryable: true });
    expect(classifyError(e, ctx).name).toBe("NetworkError");
  });

  it("aborts are MessageAbortedError", () => {
    expect(classifyError(new DOMException("The operation was aborted.", "AbortError"), ctx).name).toBe("MessageAbortedError");
  });

  it("JSON parse and type validation failures are StreamErrors with the detail", () => {
    const parse = classifyError(new JSONParseError({ text: "{oops", cause: new SyntaxError("Unexpected token") }), ctx);
    expect(parse).toMatchObject({ name: "StreamError" });
    expect(String(parse.data.detail)).toContain("{oops");
    const invalid = classifyError(new TypeValidationError({ value: { x: 1 }, cause: new Error("expected string") }), ctx);
    expect(invalid.name).toBe("StreamError");
  });

  it("unwraps 'no output generated' to the real cause", () => {
    const wrapped = { name: "AI_NoOutputGeneratedError", message: "No output generated.", cause: new TypeError("Failed to fetch") };
    expect(classifyError(wrapped, ctx).name).toBe("NetworkError");
  });

  it("a missing key from the SDK is a ProviderAuthError", () => {
    expect(classifyError(new LoadAPIKeyError({ message: "OpenAI API key is missing." }), ctx).name).toBe("ProviderAuthError");
  });

  it("anything else is an UnknownError with its message", () => {
    expect(classifyError(new Error("boom"), ctx)).toEqual({ name: "UnknownError", data: { message: "boom" } });
    expect(classifyError("weird", ctx)).toEqual({ name: "UnknownError", data: { message: "weird" } });
    expect(classifyError(undefined, ctx).name).toBe("UnknownError");
  });

  it("never lets the configured key or an sk- key through, in any field", () => {
    const body = JSON.stringify({ error: { message: `Key ${KEY} is revoked; also sk-other-1234567890abcdefgh` } });
    const e = apiCall(400, body, { responseHeaders: { "x-echo": `Bearer ${KEY}`, authorization: `Bearer ${KEY}` } });
    const out = JSON.stringify(classifyError(e, ctx));
    expect(out).not.toContain(KEY);
    expect(out).not.toContain("sk-other-1234567890abcdefgh");
    expect(out).not.toContain("secret prompt"); // request bodies stay out of errors
    expect(JSON.stringify(classifyError(new Error(`failed with ${KEY}`), ctx))).not.toContain(KEY);
    expect(JSON.stringify(classifyError(new TypeError("Failed to fetch"), { ...ctx, baseURL: `http://h/v1?key=${KEY}` }))).not.toContain(KEY);
  });
});

describe("networkHint", () => {
  it("explains CORS for Ollama and LM Studio, and the offline case", () => {
    const hint = networkHint("http://localhost:11434/v1");
    expect(hint).toMatch(/OLLAMA_ORIGINS=\*/);
    expect(hint).toMatch(/restart/);
    expect(hint).toMatch(/Enable CORS/);
    expect(hint).toMatch(/offline/);
  });

  it("a hosted provider's API takes calls from a page: no CORS or Ollama advice there, the network and blockers instead", () => {
    for (const [provider, url] of [
      ["openai", "https://api.openai.com/v1"],
      ["anthropic", "https://api.anthropic.com/v1"],
    ] as const) {
      const hint = networkHint(url, provider);
      expect(hint).not.toMatch(/Ollama|LM Studio|CORS/);
      expect(hint).toContain(`Something between this page and ${new URL(url).host} may block it`);
    }
    // The same provider through a server of the user's (a proxy): that server may not allow the page.
    expect(networkHint("https://proxy.example/v1", "openai")).toMatch(/CORS/);
    // The error names the provider's own address when Settings left the base URL empty.
    const e = classifyError(new TypeError("Failed to fetch"), { provider: "anthropic" });
    expect(e.data.message).toContain("Could not reach https://api.anthropic.com/v1");
    expect(e.data.hint).not.toMatch(/Ollama/);
  });

  it("knows which hosts are local", () => {
    expect(isLocalURL("http://localhost:11434/v1")).toBe(true);
    expect(isLocalURL("http://127.0.0.1:1234")).toBe(true);
    expect(isLocalURL("https://api.openai.com/v1")).toBe(false);
    expect(isLocalURL("not a url")).toBe(false);
  });
});
