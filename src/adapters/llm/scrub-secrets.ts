/**
 * Secret scrubbing for text that leaves the LLM adapter (error messages,
 * response bodies, URLs). The user's API key must never reach storage, the UI
 * or the model through an error, so every string the adapter puts into an
 * error goes through `scrubSecrets`.
 */

const REDACTED = "[redacted]";

/** Common provider key shapes: OpenAI/Anthropic/OpenRouter `sk-…`, Groq `gsk_…`, Google `AIza…`, Hugging Face `hf_…`, xAI `xai-…`. */
const KEY_PATTERNS: RegExp[] = [
  /\bsk-[A-Za-z0-9_-]{12,}/g,
  /\bgsk_[A-Za-z0-9]{16,}/g,
  /\bAIza[0-9A-Za-z_-]{30,}/g,
  /\bhf_[A-Za-z0-9]{16,}/g,
  /\bxai-[A-Za-z0-9]{16,}/g,
];

/** `Authorization: Bearer …` echoed back by a proxy. */
const BEARER = /\b(Bearer\s+)[A-Za-z0-9._~+/=-]{8,}/gi;

/** Keys passed in a query string (`?key=…`, `&api_key=…`, `?token=…`). */
const QUERY_KEY = /([?&](?:api[-_]?key|key|token|access_token)=)[^&\s"']+/gi;

/**
 * Removes API keys from `text`: the configured `key` (every occurrence,
 * compared literally) and anything shaped like a well-known provider key.
 */
export function scrubSecrets(text: string, key?: string): string {
  let out = text;
  const k = key?.trim();
  // Very short "keys" (placeholders such as "x") would shred ordinary words.
  if (k && k.length >= 6) out = out.split(k).join(REDACTED);
  for (const re of KEY_PATTERNS) out = out.replace(re, REDACTED);
  out = out.replace(BEARER, `$1${REDACTED}`);
  out = out.replace(QUERY_KEY, `$1${REDACTED}`);
  return out;
}

/** Scrubs every string value of a header record (values only; names are safe). */
export function scrubHeaders(headers: Record<string, string>, key?: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    // A server echoing the request's authorization header back is rare, but cheap to guard.
    if (name.toLowerCase() === "authorization") continue;
    out[name] = scrubSecrets(value, key);
  }
  return out;
}
