/**
 * Builds AI SDK language models from a core `ModelConfig`, one provider
 * package per preset, each loaded lazily (its own chunk, never in the entry):
 *
 * | preset            | package                      | API                    |
 * |-------------------|------------------------------|------------------------|
 * | openai            | @ai-sdk/openai               | Responses              |
 * | anthropic         | @ai-sdk/anthropic            | Messages               |
 * | google            | @ai-sdk/google               | Gemini generateContent |
 * | deepseek          | @ai-sdk/deepseek             | Chat (reasoning_content)|
 * | mistral           | @ai-sdk/mistral              | Chat (Mistral's own)   |
 * | groq              | @ai-sdk/groq                 | Chat                   |
 * | xai               | @ai-sdk/xai                  | Responses (xAI's)      |
 * | openrouter        | @openrouter/ai-sdk-provider  | Chat (OpenRouter's)    |
 * | openai-compatible | @ai-sdk/openai-compatible    | Chat (reasoning_content / reasoning) |
 *
 * Providers are cached per (preset, base URL, key). Browser-facing fetch tweaks:
 * - A server without a key (a local one) gets no `Authorization` header at
 *   all. The SDKs insist on a key string, so they get "" and the empty
 *   header is dropped on the way out; nothing is read from any environment variable.
 * - The SDK's `user-agent` header is dropped: a browser that honours it adds
 *   it to the CORS preflight, and servers that list only
 *   `authorization, content-type` would then refuse the call.
 * - Anthropic gets `anthropic-dangerous-direct-browser-access: true`, the
 *   header Anthropic documents for calls made straight from a browser.
 */
import { baseURLProblem } from "../../core/settings";
import type { LanguageModel } from "ai";
import type { ModelConfig } from "../../core/ports/llm";
import type { ProviderKind } from "../../core/providers";
import { refuseRedirects } from "./refuse-redirects";

const MAX_PROVIDERS = 8;

/** The header Anthropic requires for CORS calls made directly from a browser. */
export const ANTHROPIC_BROWSER_HEADER = { "anthropic-dangerous-direct-browser-access": "true" } as const;

export interface ModelFactory {
  /** A language model for `config` (loads the provider package on first use); rejects on a `demo` config. */
  model(config: ModelConfig): Promise<LanguageModel>;
}

interface ProviderInput {
  apiKey: string;
  baseURL: string | undefined;
  fetch: typeof fetch;
}

type Build = (input: ProviderInput) => Promise<(modelID: string) => LanguageModel>;

/** One lazy builder per preset: the dynamic import is what gives each package its own chunk. */
const BUILDERS: Record<Exclude<ProviderKind, "demo">, Build> = {
  openai: async (i) => {
    const { createOpenAI } = await import("@ai-sdk/openai");
    const p = createOpenAI({ apiKey: i.apiKey, fetch: i.fetch, ...(i.baseURL ? { baseURL: i.baseURL } : {}) });
    return (id) => p.responses(id);
  },
  anthropic: async (i) => {
    const { createAnthropic } = await import("@ai-sdk/anthropic");
    const p = createAnthropic({ apiKey: i.apiKey, fetch: i.fetch, headers: { ...ANTHROPIC_BROWSER_HEADER }, ...(i.baseURL ? { baseURL: i.baseURL } : {}) });
    return (id) => p.messages(id);
  },
  google: async (i) => {
    const { createGoogleGenerativeAI } = await import("@ai-sdk/google");
    const p = createGoogleGenerativeAI({ apiKey: i.apiKey, fetch: i.fetch, ...(i.baseURL ? { baseURL: i.baseURL } : {}) });
    return (id) => p(id);
  },
  deepseek: async (i) => {
    const { createDeepSeek } = await import("@ai-sdk/deepseek");
    const p = createDeepSeek({ apiKey: i.apiKey, fetch: i.fetch, ...(i.baseURL ? { baseURL: i.baseURL } : {}) });
    return (id) => p.chat(id);
  },
  mistral: async (i) => {
    const { createMistral } = await import("@ai-sdk/mistral");
    const p = createMistral({ apiKey: i.apiKey, fetch: i.fetch, ...(i.baseURL ? { baseURL: i.baseURL } : {}) });
    return (id) => p.chat(id);
  },
  groq: async (i) => {
    const { createGroq } = await import("@ai-sdk/groq");
    const p = createGroq({ apiKey: i.apiKey, fetch: i.fetch, ...(i.baseURL ? { baseURL: i.baseURL } : {}) });
    return (id) => p(id);
  },
  xai: async (i) => {
    const { createXai } = await import("@ai-sdk/xai");
    const p = createXai({ apiKey: i.apiKey, fetch: i.fetch, ...(i.baseURL ? { baseURL: i.baseURL } : {}) });
    return (id) => p.responses(id);
  },
  openrouter: async (i) => {
    const { createOpenRouter } = await import("@openrouter/ai-sdk-provider");
    const p = createOpenRouter({ apiKey: i.apiKey, fetch: i.fetch, compatibility: "strict", ...(i.baseURL ? { baseURL: i.baseURL } : {}) });
    return (id) => p.chat(id, { usage: { include: true } });
  },
  "openai-compatible": async (i) => {
    const { createOpenAICompatible } = await import("@ai-sdk/openai-compatible");
    // The provider name is the key of its provider options and metadata (`openaiCompatible`).
    const p = createOpenAICompatible({ name: "openaiCompatible", apiKey: i.apiKey, fetch: i.fetch, baseURL: i.baseURL ?? "http://localhost:11434/v1", includeUsage: true });
    return (id) => p.chatModel(id);
  },
};

/**
 * One model object per id and provider: the packages build their stream-chunk schemas in the model's
 * constructor (~6 ms of the model Worker per request at 2,000 parts, profiled), and a model holds no
 * state between calls.
 */
function reuseModels(make: (modelID: string) => LanguageModel): (modelID: string) => LanguageModel {
  const models = new Map<string, LanguageModel>();
  return (id) => {
    const known = models.get(id);
    if (known) return known;
    const model = make(id);
    if (models.size >= MAX_PROVIDERS) models.clear();
    models.set(id, model);
    return model;
  };
}

export function createModelFactory(baseFetch?: typeof fetch): ModelFactory {
  // Insertion-ordered: the oldest entry is evicted first. Keys hold the API key in memory only.
  const providers = new Map<string, Promise<(modelID: string) => LanguageModel>>();

  const provider = (kind: Exclude<ProviderKind, "demo">, config: ModelConfig) => {
    const apiKey = config.apiKey?.trim() ?? "";
    const baseURL = config.baseURL?.trim().replace(/\/+$/, "") || undefined;
    const cacheKey = JSON.stringify([kind, baseURL ?? "", apiKey]);
    const cached = providers.get(cacheKey);
    if (cached) return cached;
    const created = BUILDERS[kind]({ apiKey, baseURL, fetch: refuseRedirects(browserFetch(baseFetch, apiKey !== "")) }).then(reuseModels);
    // A failed chunk load must not stay cached: the next call tries again.
    created.catch(() => providers.delete(cacheKey));
    providers.set(cacheKey, created);
    if (providers.size > MAX_PROVIDERS) {
      const oldest = providers.keys().next().value;
      if (oldest !== undefined) providers.delete(oldest);
    }
    return created;
  };

  return {
    async model(config) {
      if (config.provider === "demo") throw new Error("The demo model is not served by the AI SDK adapter.");
      // Never resolved against the page: the key would go to this page's own server.
      const problem = baseURLProblem(config.baseURL);
      if (problem) throw new Error(problem);
      const make = await provider(config.provider, config);
      return make(config.modelID);
    },
  };
}

/** Wraps fetch to drop headers that hurt browser calls (see the module comment). */
export function browserFetch(baseFetch: typeof fetch | undefined, hasKey: boolean): typeof fetch {
  const wrapped = (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const headers = new Headers(init?.headers);
    headers.delete("user-agent");
    if (!hasKey) {
      headers.delete("authorization");
      headers.delete("x-api-key");
      headers.delete("x-goog-api-key");
    }
    // A local variable, not a method call: `window.fetch` must not be called on another object.
    const f = baseFetch ?? globalThis.fetch;
    return f(input, { ...init, headers });
  };
  return wrapped;
}
