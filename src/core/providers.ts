/**
 * Provider presets: what Settings offers and what the adapter needs to know
 * about each provider's API shape. Pure data (no SDK imports).
 */
import { ProviderKind } from "./provider-kind";

// What a tool result can carry on each provider's API is `TOOL_RESULT_MEDIA` (provider-kind.ts).
export { ProviderKind };

/** How the system prompt and caching work for a provider's wire format. */
export type ApiShape = "responses" | "messages" | "gemini" | "chat";

export interface ProviderPreset {
  id: ProviderKind;
  /** The choice shown in Settings. */
  label: string;
  /** Base URL filled in when the preset is chosen ("" = the SDK's default). */
  baseURL: string;
  /** Placeholder model id when switching to the preset. */
  defaultModel: string;
  /** One line: where to get a key. */
  keyHint: string;
  /** One line: whether the provider answers browser (CORS) calls, and how to enable it for local servers. */
  corsHint: string;
  /** Whether the base URL must be filled in by the user. */
  needsBaseURL: boolean;
  api: ApiShape;
  /** The path that lists models, relative to the base URL (undefined: no list endpoint usable from a browser). */
  modelsPath?: string;
  /** The AI SDK package that serves the preset (for the docs and the closing note). */
  sdkPackage: string;
}

export const PROVIDER_PRESETS: readonly ProviderPreset[] = [
  {
    id: "openai",
    label: "OpenAI",
    baseURL: "https://api.openai.com/v1",
    defaultModel: "gpt-5-mini",
    keyHint: "Create a key at platform.openai.com → API keys.",
    corsHint: "OpenAI answers browser calls directly.",
    needsBaseURL: false,
    api: "responses",
    modelsPath: "/models",
    sdkPackage: "@ai-sdk/openai",
  },
  {
    id: "anthropic",
    label: "Anthropic",
    baseURL: "https://api.anthropic.com/v1",
    defaultModel: "claude-sonnet-4-5",
    keyHint: "Create a key at console.anthropic.com → API keys.",
    corsHint: "Anthropic allows browser calls when the request says so; tabcode sends the header Anthropic documents for it.",
    needsBaseURL: false,
    api: "messages",
    modelsPath: "/models",
    sdkPackage: "@ai-sdk/anthropic",
  },
  {
    id: "google",
    label: "Google Gemini",
    baseURL: "https://generativelanguage.googleapis.com/v1beta",
    defaultModel: "gemini-2.5-flash",
    keyHint: "Create a key at aistudio.google.com → Get API key.",
    corsHint: "The Gemini API answers browser calls directly.",
    needsBaseURL: false,
    api: "gemini",
    sdkPackage: "@ai-sdk/google",
  },
  {
    id: "deepseek",
    label: "DeepSeek",
    baseURL: "https://api.deepseek.com/v1",
    defaultModel: "deepseek-chat",
    keyHint: "Create a key at platform.deepseek.com → API keys.",
    corsHint: "DeepSeek answers browser calls directly.",
    needsBaseURL: false,
    api: "chat",
    modelsPath: "/models",
    sdkPackage: "@ai-sdk/deepseek",
  },
  {
    id: "mistral",
    label: "Mistral",
    baseURL: "https://api.mistral.ai/v1",
    defaultModel: "mistral-small-latest",
    keyHint: "Create a key at console.mistral.ai → API keys.",
    corsHint: "Mistral answers browser calls directly.",
    needsBaseURL: false,
    api: "chat",
    modelsPath: "/models",
    sdkPackage: "@ai-sdk/mistral",
  },
  {
    id: "groq",
    label: "Groq",
    baseURL: "https://api.groq.com/openai/v1",
    defaultModel: "llama-3.3-70b-versatile",
    keyHint: "Create a key at console.groq.com → API keys.",
    corsHint: "Groq answers browser calls directly.",
    needsBaseURL: false,
    api: "chat",
    modelsPath: "/models",
    sdkPackage: "@ai-sdk/groq",
  },
  {
    id: "xai",
    label: "xAI",
    baseURL: "https://api.x.ai/v1",
    defaultModel: "grok-3-mini",
    keyHint: "Create a key at console.x.ai → API keys.",
    corsHint: "xAI answers browser calls directly.",
    needsBaseURL: false,
    api: "chat",
    modelsPath: "/models",
    sdkPackage: "@ai-sdk/xai",
  },
  {
    id: "openrouter",
    label: "OpenRouter",
    baseURL: "https://openrouter.ai/api/v1",
    defaultModel: "openai/gpt-5-mini",
    keyHint: "Create a key at openrouter.ai → Keys.",
    corsHint: "OpenRouter answers browser calls directly.",
    needsBaseURL: false,
    api: "chat",
    modelsPath: "/models",
    sdkPackage: "@openrouter/ai-sdk-provider",
  },
  {
    id: "openai-compatible",
    label: "OpenAI-compatible",
    baseURL: "http://localhost:11434/v1",
    defaultModel: "qwen2.5-coder:7b",
    keyHint: "Local servers (Ollama, LM Studio, vLLM, llama.cpp) need no key; hosted ones give one in their console.",
    corsHint:
      "The server must allow this page's origin: Ollama with OLLAMA_ORIGINS=*, LM Studio with “Enable CORS”, vLLM with --allowed-origins, llama.cpp server allows it by default.",
    needsBaseURL: true,
    api: "chat",
    modelsPath: "/models",
    sdkPackage: "@ai-sdk/openai-compatible",
  },
];

/** The preset of a provider (undefined for the demo model). */
export function presetOf(id: ProviderKind): ProviderPreset | undefined {
  return PROVIDER_PRESETS.find((p) => p.id === id);
}

/**
 * Whether the provider can compact the conversation on its side: OpenAI's
 * Responses API (`context_management` compaction) and Anthropic's Messages
 * API (the `compact_20260112` context edit). Its summary is opaque to tabcode.
 */
export function hasProviderCompaction(id: ProviderKind): boolean {
  return id === "openai" || id === "anthropic";
}

/** The API shape of a provider; the demo model speaks nothing on the wire (treated as chat). */
export function apiShapeOf(id: ProviderKind): ApiShape {
  return presetOf(id)?.api ?? "chat";
}
