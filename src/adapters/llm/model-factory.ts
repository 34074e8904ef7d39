/**
 * Builds AI SDK language models from a core `ModelConfig`, caching one
 * `@ai-sdk/openai` provider per (provider, base URL, key). `openai` uses the
 * Responses API, `openai-compatible` uses Chat Completions (what Ollama,
 * LM Studio, vLLM and llama.cpp speak).
 *
 * Browser-facing fetch tweaks:
 * - A server without a key (a local one) gets no `Authorization` header at
 *   all. The SDK insists on a key string, so it is given "" and the empty
 *   `Bearer` header is dropped on the way out; nothing is read from any
 *   environment variable.
 * - The SDK's `user-agent` header is dropped: a browser that honours it adds
 *   it to the CORS preflight, and servers that list only
 *   `authorization, content-type` would then refuse the call.
 */
import { createOpenAI, type OpenAIProvider } from "@ai-sdk/openai";
import type { LanguageModel } from "ai";
import type { ModelConfig } from "../../core/ports/llm";
import { refuseRedirects } from "./refuse-redirects";

const MAX_PROVIDERS = 8;

export interface ModelFactory {
  /** A language model for `config`; throws on a `demo` config (not served by the AI SDK). */
  model(config: ModelConfig): LanguageModel;
}

export function createModelFactory(baseFetch?: typeof fetch): ModelFactory {
  // Insertion-ordered: the oldest entry is evicted first. Keys hold the API key in memory only.
  const providers = new Map<string, OpenAIProvider>();

  const provider = (config: ModelConfig): OpenAIProvider => {
    const apiKey = config.apiKey?.trim() ?? "";
    const baseURL = config.baseURL?.trim() || undefined;
    const cacheKey = JSON.stringify([config.provider, baseURL ?? "", apiKey]);
    const cached = providers.get(cacheKey);
    if (cached) return cached;
    const created = createOpenAI({
      apiKey,
      ...(baseURL ? { baseURL: baseURL.replace(/\/+$/, "") } : {}),
      fetch: refuseRedirects(browserFetch(baseFetch, apiKey !== "")),
    });
    providers.set(cacheKey, created);
    if (providers.size > MAX_PROVIDERS) {
      const oldest = providers.keys().next().value;
      if (oldest !== undefined) providers.delete(oldest);
    }
    return created;
  };

  return {
    model(config) {
      switch (config.provider) {
        case "openai":
          return provider(config)(config.modelID);
        case "openai-compatible":
          return provider(config).chat(config.modelID);
        case "demo":
          throw new Error("The demo model is not served by the AI SDK adapter.");
      }
    },
  };
}

/** Wraps fetch to drop headers that hurt browser calls (see the module comment). */
export function browserFetch(baseFetch: typeof fetch | undefined, hasKey: boolean): typeof fetch {
  const wrapped = (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const headers = new Headers(init?.headers);
    headers.delete("user-agent");
    if (!hasKey) headers.delete("authorization");
    // A local variable, not a method call: `window.fetch` must not be called on another object.
    const f = baseFetch ?? globalThis.fetch;
    return f(input, { ...init, headers });
  };
  return wrapped;
}
