/**
 * OpenAI-shaped error responses for the mock server: `{ error: { message, type, param, code } }`
 * with the messages and headers OpenAI really sends for each status.
 */
import type { ErrorStatus, ErrorTurn } from "./script";

/** Which endpoint failed: the context-length message differs between the two APIs. */
export type Api = "chat" | "responses";

/** Facts about the failing request used to fill in realistic messages. */
export interface ErrorContext {
  api: Api;
  model: string;
  /** Bearer token the request carried ("" when none). */
  apiKey: string;
  /** Rough prompt size in tokens, for the context-length message. */
  promptTokens: number;
}

/** What the server writes for an error turn. */
export interface ErrorResponse {
  status: number;
  headers: Record<string, string>;
  body: Record<string, unknown>;
}

/** Masks a key the way OpenAI echoes it: first 8 characters, stars, last 4. */
export function maskKey(key: string): string {
  if (key.length <= 12) return `${key.slice(0, 3)}${"*".repeat(Math.max(0, key.length - 3))}`;
  return `${key.slice(0, 8)}${"*".repeat(key.length - 12)}${key.slice(-4)}`;
}

const CONTEXT_LIMIT = 128_000;

function defaults(
  status: ErrorStatus,
  ctx: ErrorContext,
): { message: string; type: string; param: string | null; code: string | null; headers: Record<string, string> } {
  switch (status) {
    case 400: {
      const requested = Math.max(CONTEXT_LIMIT + 1, ctx.promptTokens);
      return ctx.api === "chat"
        ? {
            message: `This model's maximum context length is ${CONTEXT_LIMIT} tokens. However, your messages resulted in ${requested} tokens. Please reduce the length of the messages.`,
            type: "invalid_request_error",
            param: "messages",
            code: "context_length_exceeded",
            headers: {},
          }
        : {
            message: "Your input exceeds the context window of this model. Please adjust your input and try again.",
            type: "invalid_request_error",
            param: "input",
            code: "context_length_exceeded",
            headers: {},
          };
    }
    case 401:
      return {
        message: `Incorrect API key provided: ${maskKey(ctx.apiKey)}. You can find your API key at https://platform.openai.com/account/api-keys.`,
        type: "invalid_request_error",
        param: null,
        code: "invalid_api_key",
        headers: {},
      };
    case 403:
      return {
        message: "You are not allowed to sample from this model",
        type: "invalid_request_error",
        param: null,
        code: "model_not_found",
        headers: {},
      };
    case 404:
      return {
        message: `The model \`${ctx.model}\` does not exist or you do not have access to it.`,
        type: "invalid_request_error",
        param: null,
        code: "model_not_found",
        headers: {},
      };
    case 429:
      return {
        message: `Rate limit reached for ${ctx.model} in organization org-mock on tokens per min (TPM): Limit 30000, Used 29950, Requested ${Math.max(1, ctx.promptTokens)}. Please try again in 100ms. Visit https://platform.openai.com/account/rate-limits to learn more.`,
        type: "tokens",
        param: null,
        code: "rate_limit_exceeded",
        headers: {
          "retry-after": "1",
          "retry-after-ms": "100",
          "x-ratelimit-limit-tokens": "30000",
          "x-ratelimit-remaining-tokens": "50",
        },
      };
    case 500:
      return {
        message: "The server had an error while processing your request. Sorry about that!",
        type: "server_error",
        param: null,
        code: null,
        headers: {},
      };
    case 502:
      return { message: "Bad gateway.", type: "server_error", param: null, code: null, headers: {} };
    case 503:
      return {
        message: "The engine is currently overloaded, please try again later.",
        type: "server_error",
        param: null,
        code: null,
        headers: {},
      };
  }
}

/** Builds the status, headers and JSON body for an error turn. */
export function errorResponse(spec: ErrorTurn["error"], ctx: ErrorContext): ErrorResponse {
  const d = defaults(spec.status, ctx);
  const body = spec.body ?? {
    error: { message: spec.message ?? d.message, type: d.type, param: d.param, code: d.code },
  };
  return { status: spec.status, headers: { ...d.headers, ...spec.headers }, body };
}
