import type { NamedErrorData } from "../schema";

export const RETRY_INITIAL_MS = 2000;
export const RETRY_MAX_MS = 30_000;
/** Retries are bounded; the user can also cancel at any time. */
export const RETRY_MAX_ATTEMPTS = 6;

function header(headers: Record<string, string> | undefined, name: string): string | undefined {
  if (!headers) return undefined;
  for (const [k, v] of Object.entries(headers)) if (k.toLowerCase() === name) return v;
  return undefined;
}

/**
 * Delay before retry `attempt` (1-based), spec §2.5: `retry-after-ms`, then
 * `retry-after` (seconds or an HTTP date), else 2 s × 2^(attempt−1) capped at 30 s.
 */
export function retryDelay(attempt: number, error: NamedErrorData, now: number): number {
  const headers = error.data.responseHeaders as Record<string, string> | undefined;
  const ms = header(headers, "retry-after-ms");
  if (ms !== undefined) {
    const v = Number.parseFloat(ms);
    if (Number.isFinite(v) && v >= 0) return Math.min(v, 2 ** 31 - 1);
  }
  const after = header(headers, "retry-after");
  if (after !== undefined) {
    const secs = Number.parseFloat(after);
    if (Number.isFinite(secs) && secs >= 0) return Math.min(secs * 1000, 2 ** 31 - 1);
    const date = Date.parse(after);
    if (Number.isFinite(date)) return Math.max(0, Math.min(date - now, 2 ** 31 - 1));
  }
  return Math.min(RETRY_INITIAL_MS * 2 ** (attempt - 1), RETRY_MAX_MS);
}

/** Short words for the retry banner. */
export function retryMessage(error: NamedErrorData): string {
  const status = error.data.statusCode;
  if (status === 429) return "Rate limited by the provider";
  if (typeof status === "number" && status >= 500) return "The provider is overloaded or failing";
  return typeof error.data.message === "string" ? error.data.message : "Temporary provider error";
}
