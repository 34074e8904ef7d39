/**
 * Turns any failure of an LLM call into a named core error (`{name, data}`).
 * The adapter only classifies: the core decides on retries and backoff from
 * `APIError.data.isRetryable` and `data.responseHeaders` (`retry-after`,
 * `retry-after-ms`). Every string is scrubbed of API keys; `data.message`
 * keeps the provider's own words and `data.hint` says what to do, plainly.
 */
import { presetOf } from "../../core/providers";
import type { ModelConfig } from "../../core/ports/llm";
import { namedError } from "../../core/errors";
import type { NamedErrorData } from "../../core/schema/common";
import { type ErrorFacts, errorFacts, messageFromBody } from "./error-facts";
import { scrubHeaders, scrubSecrets } from "./scrub-secrets";

/** Where the failed call was going; the key is only used to scrub it out. */
export interface ClassifyContext {
  provider: ModelConfig["provider"];
  baseURL?: string;
  apiKey?: string;
  /** The context window Settings give the model (to compare with the limit a provider states). */
  contextWindow?: number;
}

/** The context window a provider's overflow message states, where it states one. */
const STATED_LIMIT: RegExp[] = [
  /maximum context length is (\d[\d,]*) tokens/i, // OpenAI, vLLM, DeepSeek, Groq
  /tokens? > (\d[\d,]*) maximum/i, // Anthropic: "prompt is too long: 210000 tokens > 200000 maximum"
  /maximum number of tokens allowed \((\d[\d,]*)\)/i, // Gemini
  /model with (\d[\d,]*) maximum context length/i, // Mistral
  /context (?:size|window|length)(?: of| is)? \(?(\d[\d,]*)(?: tokens)?\)?/i, // llama.cpp, Ollama, LM Studio
  /n_ctx\s*[:=]\s*(\d+)/i,
];

export function statedContextLimit(message: string): number | undefined {
  for (const re of STATED_LIMIT) {
    const m = re.exec(message);
    const n = m?.[1] ? Number(m[1].replace(/,/g, "")) : Number.NaN;
    if (Number.isFinite(n) && n >= 256) return n;
  }
  return undefined;
}

/** What to do about an overflow: the usual advice, or, when the provider's limit is below Settings', the setting to fix. */
function overflowHint(limit: number | undefined, configured: number | undefined): string {
  if (limit !== undefined && configured !== undefined && limit < configured)
    return `The provider says this model's context window is ${limit.toLocaleString("en")} tokens, but Settings give it ${configured.toLocaleString("en")}: set Context window to ${limit} in Settings, so tabcode compacts before the limit instead of after it.`;
  return "The conversation no longer fits in the model's context window. Compact the session or start a new one.";
}

/** Messages providers use when the prompt does not fit the context window. */
const OVERFLOW_PATTERNS: RegExp[] = [
  /context[_ ]length[_ ]exceeded/i,
  /maximum context length/i,
  /context window/i,
  /context length/i,
  /too many tokens/i,
  /prompt is too long/i,
  /exceeds the context/i,
  /exceeds the available context/i,
  /input is too long/i,
  /reduce the length of the (messages|prompt)/i,
  /maximum prompt length/i,
  /input token count.*exceeds/i,
  /exceeded model token limit/i,
];

const NETWORK_MESSAGES = [
  /^failed to fetch$/i,
  /^fetch failed$/i,
  /^load failed$/i,
  /^networkerror when attempting to fetch resource\.?$/i,
  /^network request failed$/i,
  /^cannot connect to api/i,
];

const STREAM_ERROR_NAMES = new Set([
  "AI_JSONParseError",
  "AI_TypeValidationError",
  "AI_InvalidResponseDataError",
  "AI_EmptyResponseBodyError",
]);

/** Where `openai` requests go when no base URL is configured. */
export const DEFAULT_OPENAI_BASE_URL = "https://api.openai.com/v1";

/**
 * Names a failure of an LLM call. Cases: 401/403 → ProviderAuthError;
 * context overflow → ContextOverflowError; 404, 429, 5xx and other HTTP
 * errors → APIError (`isRetryable` for 408/409/429/5xx/overloaded, not for
 * quota or per-minute size limits); unreachable server → NetworkError (with
 * CORS advice); unreadable stream → StreamError; abort → MessageAbortedError;
 * anything else → UnknownError.
 */
export function classifyError(e: unknown, ctx: ClassifyContext): NamedErrorData {
  const f = errorFacts(e);
  const scrub = (s: string) => scrubSecrets(s, ctx.apiKey);

  if (f.name === "AbortError" || f.name === "ResponseAborted") {
    return namedError("MessageAbortedError", { message: "The request was aborted." });
  }
  if (f.name === "AI_NoOutputGeneratedError") {
    // Nothing more specific was found under it: the stream closed before any output.
    return namedError("StreamError", { message: "The response stream ended unexpectedly", hint: STREAM_HINT });
  }
  if (f.name === "AI_LoadAPIKeyError") {
    return authError(scrub(f.message), undefined, ctx);
  }
  if (isNetworkError(f)) return networkError(f, ctx, scrub);
  if (STREAM_ERROR_NAMES.has(f.name)) {
    return namedError("StreamError", {
      message: "The provider sent a response that could not be read.",
      detail: scrub(clip(f.message)),
      hint: STREAM_HINT,
    });
  }

  const status = f.statusCode;
  const message = scrub(providerMessage(f));

  if (status !== undefined && status >= 200 && status < 300) {
    // The SDK wraps failures while reading a 2xx body ("Failed to process successful response").
    return namedError("StreamError", {
      message: "The provider sent a response that could not be read.",
      detail: scrub(clip([f.message, f.causeMessage].filter(Boolean).join(": "))),
      hint: STREAM_HINT,
    });
  }
  if (status === 401 || status === 403) return authError(message, status, ctx);
  if (isContextOverflow(f, message)) {
    const limit = statedContextLimit(message);
    return namedError("ContextOverflowError", {
      message,
      ...(status !== undefined ? { statusCode: status } : {}),
      ...(limit !== undefined ? { contextLimit: limit } : {}),
      ...body(f, scrub),
      hint: overflowHint(limit, ctx.contextWindow),
    });
  }
  if (status === undefined && f.isRetryable === undefined && f.name !== "AI_APICallError") {
    return namedError("UnknownError", { message: scrub(f.message || f.name || "Unknown error") });
  }
  return apiError(f, message, ctx, scrub);
}

function apiError(f: ErrorFacts, message: string, ctx: ClassifyContext, scrub: (s: string) => string): NamedErrorData {
  const status = f.statusCode;
  const base = {
    message,
    ...(status !== undefined ? { statusCode: status } : {}),
    ...(f.responseHeaders ? { responseHeaders: scrubHeaders(f.responseHeaders, ctx.apiKey) } : {}),
    ...body(f, scrub),
  };
  const codes = f.codes.join(" ").toLowerCase();

  if (status === 404) {
    return namedError("APIError", {
      ...base,
      isRetryable: false,
      hint: `${modelHint(message)} is unknown to this server, or the base URL is wrong. Check the model name and that the base URL points at the API root (usually ending in /v1).`,
    });
  }
  // 402: OpenRouter's "insufficient credits" (and other gateways' payment required).
  if (status === 402 || status === 429 || codes.includes("rate_limit") || codes.includes("insufficient_quota")) {
    if (status === 402 || codes.includes("insufficient_quota") || /quota|billing|credits/i.test(message)) {
      return namedError("APIError", {
        ...base,
        kind: "quota",
        isRetryable: false,
        hint: "Your account with this provider has no quota left. Check your plan and billing with the provider.",
      });
    }
    if (/request too large/i.test(message)) {
      return namedError("APIError", {
        ...base,
        kind: "too-large",
        isRetryable: false,
        hint: "This request is bigger than your account's tokens-per-minute limit. Compact the session or use a model with a higher limit.",
      });
    }
    return namedError("APIError", {
      ...base,
      kind: "rate-limit",
      isRetryable: true,
      hint: "The provider is rate limiting requests. tabcode retries a few times on its own, waiting as the provider asks; if this still shows, wait a minute and press Retry.",
    });
  }
  if ((status !== undefined && status >= 500) || /overloaded/i.test(message) || codes.includes("overloaded")) {
    const overloaded = status === 529 || status === 503 || /overloaded|high demand|capacity/i.test(message) || codes.includes("overloaded");
    return namedError("APIError", {
      ...base,
      kind: overloaded ? "overloaded" : "server",
      isRetryable: true,
      hint: "The provider had a server error or is overloaded. tabcode retries a few times on its own; if this still shows, try again later with Retry.",
    });
  }
  if (status === 408 || status === 409) {
    return namedError("APIError", { ...base, isRetryable: true, hint: "The provider asked to try again." });
  }
  return namedError("APIError", {
    ...base,
    isRetryable: status === undefined ? f.isRetryable === true : false,
    hint: "The provider refused the request. Its message above says why.",
  });
}

function authError(message: string, status: number | undefined, ctx: ClassifyContext): NamedErrorData {
  return namedError("ProviderAuthError", {
    providerID: ctx.provider,
    message: message || "The provider rejected the API key.",
    ...(status !== undefined ? { statusCode: status } : {}),
    hint: "The provider rejected the API key (or the key has no access to this model). Check it in Settings.",
  });
}

function networkError(f: ErrorFacts, ctx: ClassifyContext, scrub: (s: string) => string): NamedErrorData {
  const url = ctx.baseURL || presetOf(ctx.provider)?.baseURL || DEFAULT_OPENAI_BASE_URL;
  const cause = f.causeMessage && !f.message.includes(f.causeMessage) ? ` (${f.causeMessage})` : "";
  return namedError("NetworkError", {
    message: scrub(`Could not reach ${url}: ${f.message || "network error"}${cause}`),
    baseURL: scrub(url),
    isRetryable: false,
    hint: networkHint(url, ctx.provider),
  });
}

/** The host of a hosted provider's own API (which takes calls from a browser page) when the URL is one; undefined for a server of the user's. */
function hostedAPIHost(url: string, provider: ModelConfig["provider"] | undefined): string | undefined {
  const preset = provider && provider !== "openai-compatible" ? presetOf(provider) : undefined;
  if (!preset?.baseURL) return undefined;
  try {
    const host = new URL(url).host;
    return host === new URL(preset.baseURL).host ? host : undefined;
  } catch {
    return undefined;
  }
}

/**
 * What to check when the browser could not reach the server at all. A hosted provider's API takes calls
 * from a browser page: the network, or something between (a blocker, a firewall, a proxy), is in the way.
 * A server of the user's (Ollama, LM Studio, a proxy) may also not allow calls from a page (CORS).
 */
export function networkHint(url: string, provider?: ModelConfig["provider"]): string {
  const lines: string[] = [];
  const nav = (globalThis as { navigator?: { onLine?: boolean } }).navigator;
  if (nav?.onLine === false) lines.push("You appear to be offline: check your internet connection.");
  const host = hostedAPIHost(url, provider);
  if (host) {
    if (nav?.onLine !== false) lines.push("Check your internet connection.");
    lines.push(`Something between this page and ${host} may block it: an ad or privacy blocker, a firewall, or a company proxy.`, "If it keeps failing, the provider's status page tells whether its API is down.");
    return lines.join("\n");
  }
  lines.push(
    "The server may be down or unreachable, or it may not allow calls from a browser page (CORS).",
    "Ollama: start it with OLLAMA_ORIGINS=* (or this app's origin) set, then restart Ollama.",
    'LM Studio: turn on "Enable CORS" in the server settings.',
    "Other servers: allow this page's origin in their CORS settings.",
  );
  const page = (globalThis as { location?: { protocol?: string } }).location;
  if (page?.protocol === "https:" && url.startsWith("http:") && !isLocalURL(url)) {
    lines.push("This page is served over https, so the browser blocks plain http:// servers other than localhost.");
  }
  if (nav?.onLine !== false) lines.push("If you are offline, check your internet connection.");
  return lines.join("\n");
}

/** True for loopback hosts (localhost, 127.x, ::1). */
export function isLocalURL(url: string): boolean {
  try {
    const host = new URL(url).hostname;
    return /^(localhost|127\.\d+\.\d+\.\d+|\[::1\]|0\.0\.0\.0)$/i.test(host) || host.endsWith(".localhost");
  } catch {
    return false;
  }
}

function isNetworkError(f: ErrorFacts): boolean {
  if (f.statusCode !== undefined) return false;
  if (f.name === "TypeError" || f.name === "AI_APICallError" || f.name === "NetworkError" || f.name === "") {
    return NETWORK_MESSAGES.some((re) => re.test(f.message.trim()));
  }
  return false;
}

function isContextOverflow(f: ErrorFacts, message: string): boolean {
  if (f.codes.some((c) => /context_length_exceeded|context_window_exceeded/i.test(c))) return true;
  if (f.statusCode === 413) return true;
  if (f.statusCode === 429) return false; // tokens-per-minute limits mention tokens too
  // Gateways and proxies often answer a too-large request with a bare 400 and no body (OpenCode treats it so too).
  if (f.statusCode === 400 && !f.responseBody?.trim()) return true;
  if (/^4(00|13)\s*(status code)?\s*\(no body\)/i.test(f.message.trim())) return true;
  const texts = [message, f.message, f.responseBody ?? ""];
  return texts.some((t) => OVERFLOW_PATTERNS.some((re) => re.test(t)));
}

function providerMessage(f: ErrorFacts): string {
  return messageFromBody(f.responseBody) || f.message || (f.statusCode ? `HTTP ${f.statusCode}` : "Unknown error");
}

function body(f: ErrorFacts, scrub: (s: string) => string): { responseBody?: string } {
  return f.responseBody ? { responseBody: scrub(clip(f.responseBody, 4000)) } : {};
}

/** Best effort: names the model quoted in a "model 'x' not found" message. */
function modelHint(message: string): string {
  const m = /model[^'"`]*['"`]([^'"`]{1,100})['"`]/i.exec(message);
  return m?.[1] ? `The model "${m[1]}"` : "The model id";
}

const STREAM_HINT =
  "The stream from the provider was malformed or cut short. If this is a local or proxy server, it may not fully speak the OpenAI streaming format.";

function clip(s: string, max = 1000): string {
  return s.length > max ? `${s.slice(0, max)}…` : s;
}
