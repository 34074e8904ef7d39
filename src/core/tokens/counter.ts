/**
 * The token-counter port. The browser adapter counts exactly with the
 * model's BPE encoding in a Web Worker; tests use a direct (same-thread)
 * counter; `estimateCounter` is the cheap fallback when neither is available.
 */

/** Counts tokens the way a model's tokenizer does. */
export interface TokenCounter {
  /** The encoding used for a model id (e.g. `o200k_base`); see `encodingForModel`. */
  encodingFor(modelID: string): string;
  /**
   * Token counts of `texts` in `encoding`, in order. Special-token markers
   * such as `<|endoftext|>` inside ordinary text count as text, never throw.
   * May reject (worker failure): callers fall back to `estimateTokens`.
   */
  count(texts: string[], encoding: string): Promise<number[]>;
  /**
   * False while counting in `encoding` would first have to load the
   * tokenizer (seconds on a slow connection); absent means always ready.
   */
  ready?(encoding: string): boolean;
  /** Starts loading the tokenizer for `encoding` in the background (idempotent). */
  warm?(encoding: string): void;
}

/** The pseudo-encoding of `estimateTokens`; counts stamped with it are never persisted. */
export const ESTIMATE_ENCODING = "estimate";

/** About four characters per token: `ceil(chars / 4)`. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/** A `TokenCounter` that only estimates (no tokenizer loaded). */
export const estimateCounter: TokenCounter = {
  encodingFor: () => ESTIMATE_ENCODING,
  count: async (texts) => texts.map(estimateTokens),
};

/** The BPE encodings tabcode ships. */
export type Encoding = "o200k_base" | "cl100k_base";

/**
 * The encoding for a model id. `o200k_base` for gpt-4o, gpt-4.1, gpt-4.5,
 * gpt-5, gpt-oss, chatgpt-4o and the o-series (o1, o3, o4…); `cl100k_base` for
 * gpt-3.5 and gpt-4 / gpt-4-turbo, and as the default for unknown and local
 * models (Llama, Qwen… have their own tokenizers; cl100k_base is a closer
 * proxy for them than a character estimate, and calibration corrects the rest).
 * Provider prefixes (`openai/gpt-4o`) and fine-tune ids (`ft:gpt-4o-mini:…`) are understood.
 */
export function encodingForModel(modelID: string): Encoding {
  let id = modelID.trim().toLowerCase();
  id = id.slice(id.lastIndexOf("/") + 1);
  if (id.startsWith("ft:")) id = id.slice(3);
  if (/^(gpt-4o|gpt-4\.1|gpt-4\.5|gpt-5|gpt-oss|chatgpt-4o|o\d)/.test(id)) return "o200k_base";
  return "cl100k_base";
}
