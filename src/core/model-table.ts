/**
 * Limits and list prices of common models, resolved by family: an exact id
 * first, then the longest matching prefix, so dated or suffixed ids
 * (`gpt-5-mini-2025-08-07`, `claude-sonnet-4-5-20250929`, `openai/gpt-5-mini`)
 * resolve to their family. Prices are USD per 1M tokens.
 *
 * Source: each provider's public pricing and model pages (platform.openai.com/docs/pricing,
 * docs.anthropic.com/en/docs/about-claude/pricing, ai.google.dev/gemini-api/docs/pricing,
 * api-docs.deepseek.com/quick_start/pricing, mistral.ai/pricing, groq.com/pricing,
 * docs.x.ai/docs/models), as of 2026-12-01. Anthropic cache writes are 1.25× input
 * (5-minute cache) and reads 10 % of input; OpenAI, DeepSeek, Gemini and xAI
 * charge nothing extra for writes.
 */
import type { ModelPrices } from "./ports/llm";

/** Limits and prices of one model (the shape of Settings' `ModelSpec`). */
export interface ModelSpec {
  contextWindow: number;
  maxOutputTokens: number;
  prices: ModelPrices;
}

export const MODEL_TABLE_SOURCE = "Providers' public pricing pages, as of 2026-12-01";

type Row = readonly [family: string, contextWindow: number, maxOutput: number, input: number, output: number, cacheRead: number, cacheWrite: number];

const ROWS: readonly Row[] = [
  // OpenAI
  ["gpt-5", 400_000, 128_000, 1.25, 10, 0.125, 0],
  ["gpt-5-mini", 400_000, 128_000, 0.25, 2, 0.025, 0],
  ["gpt-5-nano", 400_000, 128_000, 0.05, 0.4, 0.005, 0],
  ["gpt-4.1", 1_047_576, 32_768, 2, 8, 0.5, 0],
  ["gpt-4.1-mini", 1_047_576, 32_768, 0.4, 1.6, 0.1, 0],
  ["gpt-4.1-nano", 1_047_576, 32_768, 0.1, 0.4, 0.025, 0],
  ["gpt-4o", 128_000, 16_384, 2.5, 10, 1.25, 0],
  ["gpt-4o-mini", 128_000, 16_384, 0.15, 0.6, 0.075, 0],
  ["o3", 200_000, 100_000, 2, 8, 0.5, 0],
  ["o4-mini", 200_000, 100_000, 1.1, 4.4, 0.275, 0],
  // Anthropic (cache write = 1.25 × input, read = 0.1 × input)
  ["claude-opus-4", 200_000, 32_000, 15, 75, 1.5, 18.75],
  ["claude-opus-4-5", 200_000, 64_000, 5, 25, 0.5, 6.25],
  ["claude-sonnet-4", 200_000, 64_000, 3, 15, 0.3, 3.75],
  ["claude-3-7-sonnet", 200_000, 64_000, 3, 15, 0.3, 3.75],
  ["claude-haiku-4-5", 200_000, 64_000, 1, 5, 0.1, 1.25],
  ["claude-3-5-haiku", 200_000, 8_192, 0.8, 4, 0.08, 1],
  // Google
  ["gemini-2.5-pro", 1_048_576, 65_536, 1.25, 10, 0.31, 0],
  ["gemini-2.5-flash", 1_048_576, 65_536, 0.3, 2.5, 0.075, 0],
  ["gemini-2.5-flash-lite", 1_048_576, 65_536, 0.1, 0.4, 0.025, 0],
  ["gemini-3-pro", 1_048_576, 65_536, 2, 12, 0.2, 0],
  // DeepSeek
  ["deepseek-chat", 128_000, 8_192, 0.28, 0.42, 0.028, 0],
  ["deepseek-reasoner", 128_000, 64_000, 0.28, 0.42, 0.028, 0],
  // Mistral
  ["mistral-large", 128_000, 32_768, 2, 6, 2, 0],
  ["mistral-medium", 128_000, 32_768, 0.4, 2, 0.4, 0],
  ["mistral-small", 128_000, 32_768, 0.1, 0.3, 0.1, 0],
  ["codestral", 256_000, 32_768, 0.3, 0.9, 0.3, 0],
  ["magistral-medium", 40_000, 40_000, 2, 5, 2, 0],
  // Groq
  ["llama-3.3-70b-versatile", 131_072, 32_768, 0.59, 0.79, 0.59, 0],
  ["llama-3.1-8b-instant", 131_072, 131_072, 0.05, 0.08, 0.05, 0],
  // xAI
  ["grok-4", 256_000, 64_000, 3, 15, 0.75, 0],
  ["grok-4-fast", 2_000_000, 30_000, 0.2, 0.5, 0.05, 0],
  ["grok-3-mini", 131_072, 32_000, 0.3, 0.5, 0.075, 0],
  ["grok-code-fast", 256_000, 10_000, 0.2, 1.5, 0.02, 0],
  // Local models: free
  ["qwen2.5-coder", 32_768, 8_192, 0, 0, 0, 0],
  ["llama3.1", 131_072, 8_192, 0, 0, 0, 0],
  ["demo-agent", 6_000, 1_000, 0, 0, 0, 0],
];

const TABLE: ReadonlyMap<string, ModelSpec> = new Map(
  ROWS.map(([family, contextWindow, maxOutputTokens, input, output, cacheRead, cacheWrite]) => [
    family,
    { contextWindow, maxOutputTokens, prices: { input, output, cacheRead, cacheWrite } },
  ]),
);

/**
 * Families that take no images or PDFs at all (text-only models, per the same
 * model pages): media reaches them as a text placeholder. Every other known
 * family takes images (and, where its API carries them, PDFs). One list for
 * attachments the user adds and for media a tool reads.
 */
const TEXT_ONLY: ReadonlySet<string> = new Set([
  "deepseek-chat",
  "deepseek-reasoner",
  "codestral",
  "mistral-large",
  "magistral-medium",
  "llama-3.3-70b-versatile",
  "llama-3.1-8b-instant",
  "grok-3-mini",
  "grok-code-fast",
  "qwen2.5-coder",
  "llama3.1",
  "demo-agent",
]);

/** Whether a model accepts images: true or false for a known family, undefined for an id the table does not know. */
export function acceptsImages(modelID: string): boolean | undefined {
  const family = familyOf(modelID);
  return family === undefined ? undefined : !TEXT_ONLY.has(family);
}

/** Whether media may be sent to a model (false only for the text-only families above; unknown models may). */
export function takesMedia(modelID: string): boolean {
  return acceptsImages(modelID) !== false;
}

/** The built-in spec of a model, by exact id or its family; undefined when unknown. */
export function lookupModel(modelID: string): ModelSpec | undefined {
  const family = familyOf(modelID);
  return family === undefined ? undefined : TABLE.get(family);
}

/** A model's family in the table: its exact id, else the longest prefix ending at a boundary. */
function familyOf(modelID: string): string | undefined {
  // Gateways prefix the vendor (`openai/gpt-5-mini`, `anthropic/claude-sonnet-4.5`); local tags add `:7b`.
  const last = (modelID.split("/").at(-1) ?? modelID).toLowerCase();
  // OpenRouter spells Claude versions with dots (`claude-sonnet-4.5`), Anthropic with dashes.
  const id = last.includes("claude") ? last.replace(/\./g, "-") : last;
  if (TABLE.has(id)) return id;
  let best: string | undefined;
  for (const family of TABLE.keys()) {
    if (!id.startsWith(family)) continue;
    const next = id.charAt(family.length);
    // A family matches at a boundary only: `gpt-4o` is not the family of `gpt-4o-mini`'s sibling `gpt-4ox`.
    if (next !== "" && next !== "-" && next !== ":" && next !== "@" && next !== "_") continue;
    if (!best || family.length > best.length) best = family;
  }
  return best;
}

/** The families in the table (for the model field's suggestions). */
export function knownModelIDs(): string[] {
  return [...TABLE.keys()];
}
