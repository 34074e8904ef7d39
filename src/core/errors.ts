import type { NamedErrorData } from "./schema/common";

/**
 * Named, serialisable errors. They are stored on messages and parts as
 * `{ name, data }` and recognised by name.
 */
export type ErrorName =
  | "ProviderAuthError"
  | "UnknownError"
  | "MessageOutputLengthError"
  | "MessageAbortedError"
  | "ContextOverflowError"
  | "APIError"
  | "NetworkError"
  | "StreamError";

/**
 * What an `APIError`'s data holds (the adapters fill it).
 * @public
 */
export interface APIErrorData {
  message: string;
  statusCode?: number;
  isRetryable: boolean;
  responseHeaders?: Record<string, string>;
  responseBody?: string;
  /** Extra words for the user: what to do about it. */
  hint?: string;
  [key: string]: unknown;
}

/**
 * Whether an answer with this error was cut off rather than failed: stopped by the user, out of output tokens,
 * or its stream ended early. What it said is kept in the next request (Continue picks up from it).
 */
export function isCutOff(name: string): boolean {
  return name === "MessageAbortedError" || name === "MessageOutputLengthError" || name === "StreamError";
}

export function namedError(name: ErrorName, data: Record<string, unknown>): NamedErrorData {
  return { name, data };
}

export function errorMessage(err: NamedErrorData): string {
  const m = err.data.message;
  return typeof m === "string" ? m : err.name;
}

export function isRetryable(err: NamedErrorData): boolean {
  return err.name === "APIError" && err.data.isRetryable === true;
}

/** A bug-free way to get a message out of anything thrown. */
export function describeThrown(e: unknown): string {
  if (e instanceof Error) return e.message || e.name;
  if (typeof e === "string") return e;
  try {
    return JSON.stringify(e);
  } catch {
    return String(e);
  }
}

/** Thrown by the store port when the browser refuses to store more data. */
export class QuotaError extends Error {
  override readonly name = "QuotaError";
}

/** Whether `e` is the store's "storage is full" error (by name too: it may have crossed a Worker's boundary as a plain object). */
export function isQuotaError(e: unknown): boolean {
  return e instanceof QuotaError || (typeof e === "object" && e !== null && (e as { name?: unknown }).name === "QuotaError");
}

/** Thrown when a session is busy and an operation needs it idle. */
export class BusyError extends Error {
  override readonly name = "BusyError";
  constructor(sessionID: string, why = "it is running") {
    super(`This session cannot be changed right now: ${why}. Wait for the run to finish (or stop it) and try again. (${sessionID})`);
  }
}
