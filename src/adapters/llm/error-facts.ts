/**
 * Reads the facts out of anything an LLM call can fail with: AI SDK errors
 * (recognised by `name` and properties, never `instanceof`), provider stream
 * error frames (plain objects), DOM/fetch errors and strings.
 * `classify-error.ts` decides what the facts mean.
 */

/** What we could learn from a thrown or streamed error. */
export interface ErrorFacts {
  /** `name` of the error (`AI_APICallError`, `TypeError`, `AbortError`…), or "". */
  name: string;
  /** The error's own message ("" when it has none). */
  message: string;
  statusCode?: number;
  responseHeaders?: Record<string, string>;
  responseBody?: string;
  /** The provider's own retry verdict, when it gave one. */
  isRetryable?: boolean;
  /** Provider error code or type (`context_length_exceeded`, `insufficient_quota`…). */
  codes: string[];
  /** The message of the error's `cause`, when there is one. */
  causeMessage?: string;
}

type Rec = Record<string, unknown>;

function isRecord(v: unknown): v is Rec {
  return typeof v === "object" && v !== null;
}

function str(v: unknown): string | undefined {
  return typeof v === "string" ? v : undefined;
}

/** Wrapper errors whose cause is the real failure. */
const WRAPPERS = new Set(["AI_NoOutputGeneratedError", "AI_RetryError"]);

/** Follows wrapper errors (no output generated, retry exhausted) to the real error. */
export function unwrapError(e: unknown): unknown {
  let cur = e;
  for (let depth = 0; depth < 5 && isRecord(cur); depth++) {
    const name = str(cur.name) ?? "";
    if (!WRAPPERS.has(name)) break;
    const inner = cur.lastError ?? cur.cause;
    if (inner === undefined || inner === null) break;
    cur = inner;
  }
  return cur;
}

function collectCodes(...sources: unknown[]): string[] {
  const codes: string[] = [];
  for (const s of sources) {
    if (!isRecord(s)) continue;
    for (const key of ["code", "type"]) {
      const v = s[key];
      if (typeof v === "string" && v !== "error") codes.push(v);
      else if (typeof v === "number") codes.push(String(v));
    }
  }
  return codes;
}

/** The error object of an OpenAI-style body or frame: `{error:{…}}`, `{response:{error:{…}}}` or the frame itself. */
function innerError(v: unknown): Rec | undefined {
  if (!isRecord(v)) return undefined;
  if (isRecord(v.error)) return v.error;
  if (isRecord(v.response) && isRecord(v.response.error)) return v.response.error;
  return undefined;
}

function parseJson(text: string | undefined): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Collects the facts of `raw` (wrappers unwrapped first). */
export function errorFacts(raw: unknown): ErrorFacts {
  const e = unwrapError(raw);
  if (typeof e === "string") return { name: "", message: e, codes: [] };
  if (!isRecord(e)) return { name: "", message: String(e), codes: [] };

  const name = str(e.name) ?? "";
  const data = e.data;
  const bodyJson = parseJson(str(e.responseBody));
  const inner = innerError(e) ?? innerError(data) ?? innerError(bodyJson);
  const message = str(e.message) ?? str(inner?.message) ?? "";
  const statusCode = typeof e.statusCode === "number" ? e.statusCode : undefined;
  const headers = isRecord(e.responseHeaders) ? stringRecord(e.responseHeaders) : undefined;
  const cause = e.cause;

  return {
    name,
    message,
    codes: collectCodes(e, inner, data, bodyJson),
    ...(statusCode !== undefined ? { statusCode } : {}),
    ...(headers ? { responseHeaders: headers } : {}),
    ...(typeof e.responseBody === "string" ? { responseBody: e.responseBody } : {}),
    ...(typeof e.isRetryable === "boolean" ? { isRetryable: e.isRetryable } : {}),
    ...(isRecord(cause) && typeof cause.message === "string" ? { causeMessage: cause.message } : {}),
  };
}

function stringRecord(v: Rec): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, val] of Object.entries(v)) if (typeof val === "string") out[k] = val;
  return out;
}

const MAX_BODY_MESSAGE = 1000;

/**
 * The provider's own words from an error response body: `error` (string),
 * `error.message`, `message` or `detail`; a short non-HTML text body as is.
 * Servers that are only OpenAI-*compatible* (Ollama, LM Studio, vLLM,
 * llama.cpp) shape their errors differently, and the SDK then falls back to
 * the HTTP status text, which says much less.
 */
export function messageFromBody(body: string | undefined): string | undefined {
  const text = body?.trim();
  if (!text) return undefined;
  const json = parseJson(text);
  if (isRecord(json)) {
    const inner = innerError(json);
    const candidates = [str(json.error), str(inner?.message), str(json.message), str(json.detail)];
    for (const c of candidates) if (c?.trim()) return clip(c.trim());
    if (json.detail !== undefined) return clip(JSON.stringify(json.detail));
    return clip(text);
  }
  if (text.startsWith("<")) return undefined; // an HTML error page says nothing useful
  return clip(text);
}

function clip(s: string): string {
  return s.length > MAX_BODY_MESSAGE ? `${s.slice(0, MAX_BODY_MESSAGE)}…` : s;
}
