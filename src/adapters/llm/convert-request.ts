/**
 * Core request → AI SDK call pieces: system instructions, model messages,
 * tool definitions (schema only: the core executes tools itself) and the
 * provider options that depend on the endpoint (Responses or Chat Completions).
 */
import { type JSONSchema7, jsonSchema, type ModelMessage, type SystemModelMessage, type ToolResultPart, type ToolSet } from "ai";
import type { LLMMessage, LLMRequest, LLMToolResult, LLMToolSpec, ModelConfig } from "../../core/ports/llm";
import { apiShapeOf } from "../../core/providers";

/** The provider-options record the AI SDK accepts on messages, parts and calls. */
export type SdkProviderOptions = NonNullable<SystemModelMessage["providerOptions"]>;

/**
 * Cache breakpoint understood by the gateways that need explicit markers
 * (Anthropic-style caching through OpenRouter and OpenAI-compatible proxies).
 * Providers that do not know a key ignore it; OpenAI caches prefixes by itself.
 */
export const CACHE_MARKER: SdkProviderOptions = {
  anthropic: { cacheControl: { type: "ephemeral" } },
  openrouter: { cacheControl: { type: "ephemeral" } },
};

/** True when requests go to OpenAI itself (no base URL, or api.openai.com). */
export function isOpenAIHost(baseURL: string | undefined): boolean {
  if (!baseURL) return true;
  try {
    return new URL(baseURL).hostname === "api.openai.com";
  } catch {
    return false;
  }
}

/**
 * System prompt sections → system messages. On the Responses, Messages
 * (Anthropic) and Gemini APIs each section is its own message, the first two
 * carrying cache markers (Anthropic's `cache_control`). For Chat Completions
 * servers the sections are joined into one message: many local chat
 * templates accept only a single leading system message. Either way the
 * first section is sent byte for byte first, so prefix caches hold.
 */
export function toInstructions(system: string[], provider: ModelConfig["provider"]): SystemModelMessage[] {
  const sections = system.filter((s) => s.length > 0);
  if (sections.length === 0) return [];
  if (apiShapeOf(provider) === "chat") {
    return [{ role: "system", content: sections.join("\n\n"), providerOptions: CACHE_MARKER }];
  }
  return sections.map((content, i) => (i < 2 ? { role: "system", content, providerOptions: CACHE_MARKER } : { role: "system", content }));
}

/** Core history → AI SDK model messages. */
export function toModelMessages(messages: LLMMessage[]): ModelMessage[] {
  return messages.map(toModelMessage);
}

function toModelMessage(m: LLMMessage): ModelMessage {
  const marker = m.cache ? { providerOptions: CACHE_MARKER } : {};
  switch (m.role) {
    case "user":
      return {
        role: "user",
        content: m.content.map((c) =>
          c.type === "text"
            ? { type: "text" as const, text: c.text }
            : {
                type: "file" as const,
                data: { type: "url" as const, url: new URL(c.url) },
                mediaType: c.mime,
                ...(c.filename ? { filename: c.filename } : {}),
              },
        ),
        ...marker,
      };
    case "assistant":
      return {
        role: "assistant",
        content: m.content.map((c) => {
          if (c.type === "tool-call") {
            const providerOptions = toProviderOptions(c.providerMetadata);
            return { type: "tool-call" as const, toolCallId: c.callID, toolName: c.tool, input: c.input, ...(providerOptions ? { providerOptions } : {}) };
          }
          const providerOptions = toProviderOptions(c.providerMetadata);
          // OpenAI's compaction item goes back as the SDK's custom part (Anthropic's block is a text part the SDK knows).
          const openai = providerOptions?.openai;
          if (c.type === "text" && openai?.type === "compaction")
            return { type: "custom" as const, kind: "openai.compaction" as const, providerOptions: { openai: { itemId: openai.itemId ?? null, encryptedContent: openai.encryptedContent ?? null } } };
          return { type: c.type, text: c.text, ...(providerOptions ? { providerOptions } : {}) };
        }),
        ...marker,
      };
    case "tool":
      return {
        role: "tool",
        content: m.content.map((r) => ({ type: "tool-result" as const, toolCallId: r.callID, toolName: r.tool, output: toolOutput(r) })),
        ...marker,
      };
  }
}

/**
 * A tool result's output: text, error text, or, when it carries media, content
 * parts (the text, then each image or PDF as base64 data: nothing to fetch).
 */
function toolOutput(r: LLMToolResult): ToolResultPart["output"] {
  if (r.isError) return { type: "error-text", value: r.output };
  if (!r.media?.length) return { type: "text", value: r.output };
  return {
    type: "content",
    value: [
      { type: "text", text: r.output },
      ...r.media.map((m) => ({ type: "file" as const, data: { type: "data" as const, data: m.data }, mediaType: m.mime, ...(m.filename ? { filename: m.filename } : {}) })),
    ],
  };
}

/**
 * Stored provider metadata (item ids, reasoning signatures, encrypted
 * reasoning) → provider options, keeping only entries of the right shape.
 */
export function toProviderOptions(meta: Record<string, unknown> | undefined): SdkProviderOptions | undefined {
  if (!meta) return undefined;
  const out: SdkProviderOptions = {};
  for (const [key, value] of Object.entries(meta)) {
    if (isJsonObject(value)) out[key] = value;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

function isJsonObject(v: unknown): v is SdkProviderOptions[string] {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Tool specs → AI SDK tools with a schema and no `execute`: the step ends at the tool call. */
export function toToolSet(tools: LLMToolSpec[]): ToolSet | undefined {
  if (tools.length === 0) return undefined;
  const set: ToolSet = {};
  for (const t of tools) {
    // The schema comes from our own tool definitions (zod → JSON Schema).
    set[t.name] = { description: t.description, inputSchema: jsonSchema(t.inputSchema as JSONSchema7) };
  }
  return set;
}

/**
 * Call-level provider options. Responses: `store: false`, so replayed history
 * is sent in full rather than as `item_reference`s that only OpenAI's own
 * storage can resolve. `promptCacheKey` (body field `prompt_cache_key`) only
 * goes to OpenAI itself: compatible servers may reject unknown fields.
 */
export function callProviderOptions(req: LLMRequest): SdkProviderOptions | undefined {
  const toOpenAI = req.cacheKey !== undefined && isOpenAIHost(req.model.baseURL);
  const compact = req.providerCompaction;
  if (req.model.provider === "openai")
    return {
      openai: {
        store: false,
        ...(toOpenAI ? { promptCacheKey: req.cacheKey } : {}),
        // Body field `context_management: [{ type: "compaction", compact_threshold }]`.
        ...(compact ? { contextManagement: [{ type: "compaction", compactThreshold: compact.threshold }] } : {}),
      },
    };
  // Body field `context_management.edits`, beta header `compact-2026-01-12` (added by the SDK).
  if (req.model.provider === "anthropic" && compact)
    return { anthropic: { contextManagement: { edits: [{ type: "compact_20260112", trigger: { type: "input_tokens", value: compact.threshold } }] } } };
  // The compatible provider copies its own options into the body verbatim.
  if (req.model.provider === "openai-compatible" && toOpenAI) return { openaiCompatible: { prompt_cache_key: req.cacheKey } };
  return undefined;
}
