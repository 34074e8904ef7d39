/**
 * Storage error mapping: recognises IndexedDB's "storage full" failure however
 * Dexie wraps it, and turns it into the core `QuotaError` with words for the
 * user. Other failures pass through unchanged.
 */
import { QuotaError } from "../../core/errors";

/** What the user reads when the browser refuses to store more. */
export const QUOTA_MESSAGE =
  "Browser storage for tabcode is full, so the last change was not saved. " +
  "Export the sessions you want to keep, then delete old sessions to free space, and try again.";

const QUOTA_NAMES = new Set(["QuotaExceededError", "NS_ERROR_DOM_QUOTA_REACHED"]);

/** DOMException's legacy code for a quota failure (QUOTA_EXCEEDED_ERR), which some browsers name otherwise. */
const QUOTA_CODE = 22;

/**
 * Whether `e` is, or wraps, a quota failure: IndexedDB's and localStorage's alike. Dexie keeps the original
 * error in `inner` (several levels deep after a transaction abort) and bulk errors keep theirs in `failures` /
 * `failuresByPos`.
 */
export function isQuotaExceeded(e: unknown, depth = 0): boolean {
  if (depth > 6 || typeof e !== "object" || e === null) return false;
  const err = e as { name?: unknown; code?: unknown; inner?: unknown; cause?: unknown; failures?: unknown; failuresByPos?: unknown };
  if (typeof err.name === "string" && QUOTA_NAMES.has(err.name)) return true;
  if (typeof DOMException !== "undefined" && e instanceof DOMException && err.code === QUOTA_CODE) return true;
  if (isQuotaExceeded(err.inner, depth + 1) || isQuotaExceeded(err.cause, depth + 1)) return true;
  const nested: unknown[] = [];
  if (Array.isArray(err.failures)) nested.push(...err.failures);
  if (typeof err.failuresByPos === "object" && err.failuresByPos !== null) {
    nested.push(...Object.values(err.failuresByPos));
  }
  return nested.some((f) => isQuotaExceeded(f, depth + 1));
}

/** Rethrows quota failures as `QuotaError`; anything else unchanged. */
export function mapStorageError(e: unknown): unknown {
  return isQuotaExceeded(e) ? new QuotaError(QUOTA_MESSAGE, { cause: e }) : e;
}

/** Runs a write and maps its failure with `mapStorageError`. */
export async function guardWrite<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (e) {
    throw mapStorageError(e);
  }
}
