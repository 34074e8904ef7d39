/**
 * The script language of the mock OpenAI server: a queue of turns, one consumed per model request
 * (Chat Completions and Responses share the queue). Each turn says what the "model" answers:
 * a streamed reply, an HTTP error, or a reply with a transport fault.
 */

/** Why the model stopped; mapped to `finish_reason` (Chat) or the response status (Responses). */
export type FinishReason = "stop" | "tool_calls" | "length";

/** One function call the model makes. */
export interface ToolCallSpec {
  /** Tool name as the app registered it. */
  name: string;
  /** Arguments; serialised with `JSON.stringify` and streamed in small pieces. */
  args: Record<string, unknown>;
  /** Call id (`call_…`); generated when omitted. */
  id?: string;
}

/** Token usage reported at the end of the stream. Omitted fields default to estimates from the request/response sizes. */
export interface UsageSpec {
  /** Prompt tokens, including cached ones. */
  input?: number;
  /** Completion tokens, including reasoning ones. */
  output?: number;
  /** Prompt tokens served from the provider's cache (`cached_tokens`). */
  cached?: number;
  /** Completion tokens spent on reasoning (`reasoning_tokens`). */
  reasoning?: number;
}

/** A normal streamed answer. */
export interface ReplyTurn {
  /** Assistant text: a string is split into small word-sized deltas; an array is sent as exactly those deltas. */
  text?: string | readonly string[];
  /** Reasoning text: `delta.reasoning_content` (Chat) or a reasoning summary (Responses). */
  reasoning?: string | readonly string[];
  /** Function calls, streamed after the text. */
  toolCalls?: readonly ToolCallSpec[];
  usage?: UsageSpec;
  /** Defaults to `tool_calls` when `toolCalls` is non-empty, else `stop`. */
  finish?: FinishReason;
  /** Delay between two stream events (ms); 0 (default) sends them as fast as possible. */
  chunkDelayMs?: number;
}

/** HTTP status codes the mock has realistic default error bodies for. */
export type ErrorStatus = 400 | 401 | 403 | 404 | 429 | 500 | 502 | 503;

/** The request fails with an HTTP error before any stream starts. */
export interface ErrorTurn {
  error: {
    status: ErrorStatus;
    /** Replaces the default OpenAI-shaped body `{ error: { message, type, code, param } }`. */
    body?: Record<string, unknown>;
    /** Extra or replacing response headers (e.g. `retry-after`). */
    headers?: Record<string, string>;
    /** Replaces only the default `error.message`. */
    message?: string;
  };
}

/** The reply starts, then the socket is destroyed after `cutAfterChunks` stream events (the first event is the role/created one). */
export interface CutTurn extends ReplyTurn {
  cutAfterChunks: number;
}

/** The reply contains one event whose JSON is invalid, then goes on to its normal end. */
export interface MalformedTurn extends ReplyTurn {
  malformed: true;
  /** Events sent before the invalid one (default 2). */
  malformedAfterChunks?: number;
}

/** The reply stops after `hangAfterChunks` events but the connection stays open until the client goes away. */
export interface HangTurn extends ReplyTurn {
  hangAfterChunks: number;
}

/**
 * A recorded provider stream sent back as it was recorded (see e2e/fixtures/providers/MANIFEST.md),
 * framed for its provider (`chat`, `responses`, `anthropic` or `gemini`). Works on every model path.
 */
export interface RecordedTurn {
  recorded: { format: "chat" | "responses" | "anthropic" | "gemini"; lines: readonly string[] };
}

/** One scripted model answer. */
export type Turn = ReplyTurn | ErrorTurn | CutTurn | MalformedTurn | HangTurn | RecordedTurn;

/** A queue of turns, consumed front to back, one per model request. */
export type Script = readonly Turn[];

/** What the stream writer does besides sending the events. */
export type Fault =
  | { kind: "none" }
  | { kind: "cut"; after: number }
  | { kind: "malformed"; after: number }
  | { kind: "hang"; after: number };

/** A turn split into what to say and how the transport misbehaves. */
export type ResolvedTurn =
  | { kind: "error"; error: ErrorTurn["error"] }
  | { kind: "recorded"; recorded: RecordedTurn["recorded"] }
  | { kind: "reply"; reply: ReplyTurn; fault: Fault };

/** The answer given when the script is empty. */
export const DEFAULT_TURN: ReplyTurn = { text: "(mock) no scripted turn left" };

/** Classifies a turn; exhaustive over the `Turn` union. */
export function resolveTurn(turn: Turn): ResolvedTurn {
  if ("error" in turn) return { kind: "error", error: turn.error };
  if ("recorded" in turn) return { kind: "recorded", recorded: turn.recorded };
  if ("cutAfterChunks" in turn)
    return { kind: "reply", reply: turn, fault: { kind: "cut", after: turn.cutAfterChunks } };
  if ("hangAfterChunks" in turn)
    return { kind: "reply", reply: turn, fault: { kind: "hang", after: turn.hangAfterChunks } };
  if ("malformed" in turn) {
    return { kind: "reply", reply: turn, fault: { kind: "malformed", after: turn.malformedAfterChunks ?? 2 } };
  }
  return { kind: "reply", reply: turn, fault: { kind: "none" } };
}

/** The finish reason a reply ends with. */
export function finishOf(reply: ReplyTurn): FinishReason {
  if (reply.finish) return reply.finish;
  return reply.toolCalls && reply.toolCalls.length > 0 ? "tool_calls" : "stop";
}

/** Splits text into word-sized deltas (each word keeps its leading whitespace), long words in 8-char pieces. */
export function splitText(text: string | readonly string[] | undefined): string[] {
  if (text === undefined) return [];
  if (typeof text !== "string") return [...text];
  const out: string[] = [];
  for (const word of text.match(/\s*\S+|\s+$/g) ?? []) {
    for (let i = 0; i < word.length; i += 8) out.push(word.slice(i, i + 8));
  }
  return out;
}

/** Splits serialised tool arguments into small pieces, as providers stream them. */
export function splitArgs(json: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < json.length; i += 6) out.push(json.slice(i, i + 6));
  return out;
}

/** Full text of a text or delta list. */
export function joinText(text: string | readonly string[] | undefined): string {
  if (text === undefined) return "";
  return typeof text === "string" ? text : text.join("");
}

/** Resolved usage numbers for one reply. */
export interface Usage {
  input: number;
  output: number;
  cached: number;
  reasoning: number;
}

/** Usage for a reply: scripted numbers win; the rest is estimated at ~4 characters per token. */
export function usageOf(reply: ReplyTurn, requestChars: number): Usage {
  const reasoningChars = joinText(reply.reasoning).length;
  const outChars =
    joinText(reply.text).length +
    reasoningChars +
    (reply.toolCalls ?? []).reduce((n, c) => n + c.name.length + JSON.stringify(c.args).length, 0);
  const reasoning = reply.usage?.reasoning ?? Math.ceil(reasoningChars / 4);
  return {
    input: reply.usage?.input ?? Math.max(1, Math.ceil(requestChars / 4)),
    output: reply.usage?.output ?? Math.max(1, Math.ceil(outChars / 4)),
    cached: reply.usage?.cached ?? 0,
    reasoning,
  };
}
