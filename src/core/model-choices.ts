/**
 * The models the composer's picker offers for a provider: its preset's
 * default first, then the model table's families that provider serves.
 * Any other id can still be typed.
 */
import { knownModelIDs } from "./model-table";
import { type ProviderKind, presetOf } from "./providers";

const VENDOR: Partial<Record<ProviderKind, RegExp>> = {
  openai: /^(gpt-|o\d)/,
  anthropic: /^claude-/,
  google: /^gemini-/,
  deepseek: /^deepseek-/,
  mistral: /^(mistral-|codestral|magistral)/,
  groq: /^llama-/,
  xai: /^grok-/,
};

/** Model ids to offer for a provider, without duplicates (gateways and local servers: every family). */
export function modelChoices(provider: ProviderKind): string[] {
  if (provider === "demo") return [];
  const families = knownModelIDs().filter((id) => id !== "demo-agent");
  const vendor = VENDOR[provider];
  const served = vendor ? families.filter((id) => vendor.test(id)) : families;
  const first = presetOf(provider)?.defaultModel;
  return [...new Set([...(first ? [first] : []), ...served])];
}
