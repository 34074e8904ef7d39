import type { ProviderKind } from "../providers";
import type { NamedErrorData } from "../schema/common";

/**
 * The language-model port. The core runs one step per `stream()` call and
 * executes tools itself; adapters (the AI SDK one, the demo model, test fakes)
 * turn a provider's stream into these events.
 */

/** Everything the adapter needs to reach a model. Never logged or exported. */
export interface ModelConfig {
  /** A provider preset (src/core/providers.ts); `demo` = built-in scripted model. */
  provider: ProviderKind;
  modelID: string;
  baseURL?: string;
  apiKey?: string;
  /** Context window in tokens. */
  contextWindow: number;
  /** Input limit, when the model has one separate from the window. */
  inputLimit?: number;
  maxOutputTokens: number;
  /** USD per 1M tokens. */
  prices: ModelPrices;
  /** Set when the model is in no price table (the prices above are placeholders): costs show as "price unknown". */
  pricesUnknown?: true;
}

export interface ModelPrices {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

export type LLMUserContent =
  | { type: "text"; text: string }
  | { type: "file"; mime: string; url: string; filename?: string };

export type LLMAssistantContent =
  | { type: "text"; text: string; providerMetadata?: Record<string, unknown> }
  | { type: "reasoning"; text: string; providerMetadata?: Record<string, unknown> }
  | { type: "tool-call"; callID: string; tool: string; input: unknown; providerMetadata?: Record<string, unknown> };

/** An image or PDF a tool read, sent with its result to models that take it (base64, no URL to fetch). */
export interface LLMMedia {
  mime: string;
  /** Base64 of the bytes. */
  data: string;
  filename?: string;
}

export interface LLMToolResult {
  type: "tool-result";
  callID: string;
  tool: string;
  output: string;
  isError?: boolean;
  /** Media parts after the output text (only to models that take them; others get placeholders in `output`). */
  media?: LLMMedia[];
}

/** Provider-neutral history, built by the core from stored messages. */
export type LLMMessage =
  | { role: "user"; content: LLMUserContent[]; cache?: boolean }
  | { role: "assistant"; content: LLMAssistantContent[]; cache?: boolean }
  | { role: "tool"; content: LLMToolResult[]; cache?: boolean };

export interface LLMToolSpec {
  name: string;
  description: string;
  /** JSON Schema of the arguments. */
  inputSchema: Record<string, unknown>;
}

export interface LLMRequest {
  model: ModelConfig;
  /** System prompt sections; the first is the stable header (cache marker). */
  system: string[];
  messages: LLMMessage[];
  tools: LLMToolSpec[];
  maxOutputTokens: number;
  signal: AbortSignal;
  /** Stable per session: enables provider prefix caching. */
  cacheKey?: string;
  /**
   * Ask the provider to compact on its side once the request's input passes
   * `threshold` tokens (only for providers with `hasProviderCompaction`).
   */
  providerCompaction?: { threshold: number };
  /** Small calls (title, connection test) pass a low retry budget. */
  purpose?: "chat" | "title" | "summary" | "test";
}

/** Usage as reported for one step. Missing numbers are unknown, not zero. */
export interface LLMUsage {
  inputTokens?: number;
  noCacheInputTokens?: number;
  cacheReadTokens?: number;
  cacheWriteTokens?: number;
  outputTokens?: number;
  reasoningTokens?: number;
  totalTokens?: number;
}

export type LLMEvent =
  | { type: "text-start"; id: string }
  | { type: "text-delta"; id: string; delta: string }
  | { type: "text-end"; id: string; providerMetadata?: Record<string, unknown> }
  | { type: "reasoning-start"; id: string }
  | { type: "reasoning-delta"; id: string; delta: string }
  | { type: "reasoning-end"; id: string; providerMetadata?: Record<string, unknown> }
  | { type: "tool-input-start"; callID: string; tool: string }
  | { type: "tool-input-delta"; callID: string; delta: string }
  | { type: "tool-call"; callID: string; tool: string; input: string; providerMetadata?: Record<string, unknown> }
  | { type: "finish"; reason: string; usage: LLMUsage; /** The provider's own word for the finish, when it differs (e.g. `refusal`). */ rawReason?: string }
  /** A tool the provider ran itself (web search, code interpreter, MCP…): shown, never executed or sent back by tabcode. */
  | { type: "server-tool"; callID: string; tool: string; input: string; status: "called" | "done" | "error" | "approval"; output?: string }
  /** Something went wrong but the step went on (a chunk that could not be read); shown with the answer. */
  | { type: "warning"; message: string }
  /** A failure. The adapter classifies it (APIError with isRetryable, ContextOverflowError…). */
  | { type: "error"; error: NamedErrorData };

export interface LLM {
  /** Streams one step. Must not throw: failures arrive as an `error` event. */
  stream(req: LLMRequest): AsyncIterable<LLMEvent>;
}
