import { describe, expect, it } from "vitest";
import { CACHE_MARKER, callProviderOptions, isOpenAIHost, toInstructions, toModelMessages, toProviderOptions, toToolSet } from "./convert-request";
import { modelConfig, request } from "./sse-test-helpers";

describe("toInstructions", () => {
  it("joins sections into one system message for Chat Completions servers, first section first", () => {
    expect(toInstructions(["HEADER", "", "ENV"], "openai-compatible")).toEqual([
      { role: "system", content: "HEADER\n\nENV", providerOptions: CACHE_MARKER },
    ]);
  });

  it("keeps one message per section on the Responses API, markers on the first two", () => {
    expect(toInstructions(["A", "B", "C"], "openai")).toEqual([
      { role: "system", content: "A", providerOptions: CACHE_MARKER },
      { role: "system", content: "B", providerOptions: CACHE_MARKER },
      { role: "system", content: "C" },
    ]);
    expect(toInstructions([], "openai")).toEqual([]);
  });
});

describe("toModelMessages", () => {
  it("converts every core part type, with cache markers on marked messages", () => {
    const out = toModelMessages([
      {
        role: "user",
        content: [
          { type: "text", text: "look" },
          { type: "file", mime: "image/png", url: "data:image/png;base64,iVBORw0KGgo=", filename: "a.png" },
        ],
      },
      {
        role: "assistant",
        content: [
          { type: "reasoning", text: "hmm", providerMetadata: { openai: { itemId: "rs_1" }, junk: "not an object" } },
          { type: "text", text: "ok" },
          { type: "tool-call", callID: "c1", tool: "read", input: { path: "a" } },
        ],
        cache: true,
      },
      {
        role: "tool",
        content: [
          { type: "tool-result", callID: "c1", tool: "read", output: "data" },
          { type: "tool-result", callID: "c2", tool: "bash", output: "exit 1", isError: true },
        ],
      },
    ]);
    expect(out).toEqual([
      {
        role: "user",
        content: [
          { type: "text", text: "look" },
          { type: "file", data: { type: "url", url: new URL("data:image/png;base64,iVBORw0KGgo=") }, mediaType: "image/png", filename: "a.png" },
        ],
      },
      {
        role: "assistant",
        content: [
          { type: "reasoning", text: "hmm", providerOptions: { openai: { itemId: "rs_1" } } },
          { type: "text", text: "ok" },
          { type: "tool-call", toolCallId: "c1", toolName: "read", input: { path: "a" } },
        ],
        providerOptions: CACHE_MARKER,
      },
      {
        role: "tool",
        content: [
          { type: "tool-result", toolCallId: "c1", toolName: "read", output: { type: "text", value: "data" } },
          { type: "tool-result", toolCallId: "c2", toolName: "bash", output: { type: "error-text", value: "exit 1" } },
        ],
      },
    ]);
  });

  it("drops empty or malformed provider metadata", () => {
    expect(toProviderOptions(undefined)).toBeUndefined();
    expect(toProviderOptions({ a: 1, b: [1] })).toBeUndefined();
  });
});

describe("toToolSet", () => {
  it("builds schema-only tools, none when there are none", async () => {
    const set = toToolSet(request().tools);
    expect(Object.keys(set ?? {})).toEqual(["read"]);
    expect(set?.read && "execute" in set.read ? set.read.execute : undefined).toBeUndefined();
    expect(toToolSet([])).toBeUndefined();
  });
});

describe("callProviderOptions", () => {
  it("Responses: store false always; cache key only for OpenAI itself", () => {
    const openai = modelConfig({ provider: "openai", baseURL: undefined });
    expect(callProviderOptions(request({ model: openai }))).toEqual({ openai: { store: false, promptCacheKey: "ses_test" } });
    expect(callProviderOptions(request({ model: { ...openai, baseURL: "http://localhost:8080/v1" } }))).toEqual({ openai: { store: false } });
    expect(callProviderOptions(request({ model: openai, cacheKey: undefined }))).toEqual({ openai: { store: false } });
  });

  it("Chat: nothing for compatible servers, the cache key (a body field) for OpenAI", () => {
    expect(callProviderOptions(request())).toBeUndefined();
    expect(callProviderOptions(request({ model: modelConfig({ baseURL: "https://api.openai.com/v1" }) }))).toEqual({
      openaiCompatible: { prompt_cache_key: "ses_test" },
    });
  });

  it("other presets: no call options (their caching is automatic or uses message markers)", () => {
    for (const provider of ["anthropic", "google", "deepseek", "mistral", "groq", "xai", "openrouter"] as const) {
      expect(callProviderOptions(request({ model: modelConfig({ provider, baseURL: undefined }) }))).toBeUndefined();
    }
  });

  it("isOpenAIHost", () => {
    expect(isOpenAIHost(undefined)).toBe(true);
    expect(isOpenAIHost("https://api.openai.com/v1")).toBe(true);
    expect(isOpenAIHost("https://openai.example.com/v1")).toBe(false);
    expect(isOpenAIHost("::bad")).toBe(false);
  });
});
