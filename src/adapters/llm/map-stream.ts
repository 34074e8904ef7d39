/**
 * AI SDK `streamText` parts → core `LLMEvent`s for one step.
 * Guarantees: it never throws, it ends with exactly one `finish` or one
 * `error` event, and nothing follows that event.
 */
import type { LanguageModelUsage, TextStreamPart, ToolSet } from "ai";
import type { LLMEvent, LLMUsage } from "../../core/ports/llm";
import { namedError } from "../../core/errors";
import type { NamedErrorData } from "../../core/schema/common";

export interface MapStreamOptions {
  /** The request's signal: an end after abort is reported as an abort. */
  signal?: AbortSignal;
  /** Turns a raw failure into a named error. */
  classify: (e: unknown) => NamedErrorData;
  /** The error captured by `streamText`'s `onError`, if any (often more precise than what the stream throws). */
  capturedError?: () => unknown;
}

type Part = TextStreamPart<ToolSet>;
type Metadata = Record<string, unknown>;

/** The error reported when the request's signal aborted the step. */
export const ABORTED = namedError("MessageAbortedError", { message: "The request was aborted." });

/** The error reported when the stream closed without a finish. */
export function unexpectedEnd(): NamedErrorData {
  return namedError("StreamError", {
    message: "The response stream ended unexpectedly",
    hint: "The connection closed before the model finished. Try again; if it keeps happening, the server may be cutting long responses.",
  });
}

/** Maps one step's `streamText` parts to core events (see the module comment for the guarantees). */
export async function* mapStream(parts: AsyncIterable<Part>, opts: MapStreamOptions): AsyncGenerator<LLMEvent> {
  // Provider metadata (item ids, signatures) can arrive on start, delta or end: keep the latest.
  const meta = new Map<string, Metadata | undefined>();
  const remember = (id: string, m: Metadata | undefined) => {
    if (m !== undefined) meta.set(id, m);
  };
  const captured = () => opts.capturedError?.();
  let streamError: unknown;
  const fail = (e: unknown): LLMEvent => ({
    type: "error",
    error: opts.signal?.aborted ? ABORTED : opts.classify(e),
  });

  try {
    for await (const part of parts) {
      switch (part.type) {
        case "text-start":
        case "reasoning-start":
          meta.delete(part.id);
          remember(part.id, part.providerMetadata);
          yield { type: part.type, id: part.id };
          break;
        case "text-delta":
        case "reasoning-delta":
          remember(part.id, part.providerMetadata);
          yield { type: part.type, id: part.id, delta: part.text };
          break;
        case "text-end":
        case "reasoning-end": {
          remember(part.id, part.providerMetadata);
          const providerMetadata = meta.get(part.id);
          meta.delete(part.id);
          yield { type: part.type, id: part.id, ...(providerMetadata ? { providerMetadata } : {}) };
          break;
        }
        case "tool-input-start":
          if (part.providerExecuted) break;
          yield { type: "tool-input-start", callID: part.id, tool: part.toolName };
          break;
        case "tool-input-delta":
          yield { type: "tool-input-delta", callID: part.id, delta: part.delta };
          break;
        case "tool-call":
          if (part.providerExecuted) {
            yield { type: "server-tool", callID: part.toolCallId, tool: part.toolName, input: inputText(part), status: "called" };
            break;
          }
          yield {
            type: "tool-call",
            callID: part.toolCallId,
            tool: part.toolName,
            input: inputText(part),
            ...(part.providerMetadata ? { providerMetadata: part.providerMetadata } : {}),
          };
          break;
        case "tool-result":
        case "tool-error":
          if (!part.providerExecuted) break;
          yield {
            type: "server-tool",
            callID: part.toolCallId,
            tool: part.toolName,
            input: JSON.stringify(part.input ?? {}),
            status: part.type === "tool-error" ? "error" : "done",
            output: outputText(part.type === "tool-error" ? part.error : part.output),
          };
          break;
        case "tool-approval-request":
          // A provider-run tool (e.g. a remote MCP server) waits for an approval tabcode cannot send.
          yield { type: "server-tool", callID: part.toolCall.toolCallId, tool: part.toolCall.toolName, input: JSON.stringify(part.toolCall.input ?? {}), status: "approval" };
          break;
        case "finish-step":
        case "finish": {
          const usage = part.type === "finish-step" ? part.usage : part.totalUsage;
          const reason: string = part.finishReason;
          if (opts.signal?.aborted) {
            yield { type: "error", error: ABORTED };
          } else if (reason === "error" && isCutChunk(part, streamError)) {
            // The connection closed in the middle of a chunk: the provider's parser reports the half chunk.
            yield { type: "error", error: unexpectedEnd() };
          } else if (reason === "error") {
            // The provider's own words (an in-stream error chunk) beat a generic message.
            yield fail(streamError ?? captured() ?? new Error("The provider ended the response with an error."));
          } else if (reason === "interrupted" || isSyntheticFinish(part)) {
            // The SDK reports a stream that closed without the provider's completion signal this way
            // (a chunk cut in half by the close is part of the same failure, not a separate one).
            yield { type: "error", error: unexpectedEnd() };
          } else {
            // A bad chunk the provider recovered from: the answer, usage and finish still count; the chunk is reported.
            if (streamError !== undefined) yield { type: "warning", message: warningText(opts.classify(streamError)) };
            yield { type: "finish", reason, usage: toUsage(usage), ...rawReasonOf(part) };
          }
          return;
        }
        case "error":
          // Not the end yet: providers go on after a chunk they could not parse and end with their own finish.
          streamError ??= part.error;
          break;
        case "abort":
          yield { type: "error", error: ABORTED };
          return;
        case "custom":
          // OpenAI's server-side compaction: an encrypted item, kept as an empty text part that carries it back.
          if (part.kind === "openai.compaction" && part.providerMetadata) {
            const id = `compaction:${String(part.providerMetadata.openai?.itemId ?? "")}`;
            yield { type: "text-start", id };
            yield { type: "text-end", id, providerMetadata: part.providerMetadata };
          }
          break;
        default:
          break;
      }
    }
  } catch (e) {
    // A thrown wrapper (e.g. "no output generated") hides the real error that onError saw.
    yield fail(captured() ?? e);
    return;
  }
  // The stream ended with neither a finish nor an error.
  const late = streamError ?? captured();
  yield late !== undefined ? fail(late) : { type: "error", error: opts.signal?.aborted ? ABORTED : unexpectedEnd() };
}

/**
 * When the model stream closes without a finish chunk after some output,
 * `streamText` makes up a finish: reason "other", no raw reason, no usage.
 * A real provider finish always carries its raw reason or usage.
 */
function isSyntheticFinish(part: Extract<Part, { type: "finish-step" | "finish" }>): boolean {
  const usage = part.type === "finish-step" ? part.usage : part.totalUsage;
  return (
    part.finishReason === "other" &&
    part.rawFinishReason === undefined &&
    usage.inputTokens === undefined &&
    usage.outputTokens === undefined
  );
}

/**
 * A stream that closed before its finish chunk: the compatible provider
 * reports it as its own "error" finish ("ended without a finish reason"), with
 * no raw reason or usage. That is a cut stream, not an error the provider sent.
 */
function isCutChunk(part: Extract<Part, { type: "finish-step" | "finish" }>, err: unknown): boolean {
  const usage = part.type === "finish-step" ? part.usage : part.totalUsage;
  const message = err instanceof Error ? err.message : "";
  return part.rawFinishReason === undefined && usage.inputTokens === undefined && usage.outputTokens === undefined && /ended without a finish reason/i.test(message);
}

/** The provider's own finish word, kept where tabcode's reason says little (a filter, a refusal, "other"). */
function rawReasonOf(part: Extract<Part, { type: "finish-step" | "finish" }>): { rawReason?: string } {
  const raw = part.rawFinishReason;
  if (!raw || (part.finishReason !== "content-filter" && part.finishReason !== "other")) return {};
  return { rawReason: raw };
}

/** A warning line for a recovered stream error: its message, without the hint. */
function warningText(e: NamedErrorData): string {
  const m = typeof e.data.message === "string" ? e.data.message : "";
  // The error's own words only where they add something ("could not be read" says it twice).
  const extra = /could not be (read|parsed)/i.test(m) ? "" : m;
  return `The provider sent a chunk tabcode could not read; the rest of the answer was used. ${extra}`.trim();
}

/** A provider-run tool's output as text (JSON for structured results). */
function outputText(v: unknown): string {
  if (typeof v === "string") return v;
  if (v instanceof Error) return v.message;
  try {
    return JSON.stringify(v ?? null, null, 2);
  } catch {
    return String(v);
  }
}

/** The tool input as JSON text; an unparsable input stays the model's raw text so the core can report it. */
function inputText(part: Extract<Part, { type: "tool-call" }>): string {
  if (part.invalid === true && typeof part.input === "string") return part.input;
  return JSON.stringify(part.input ?? {});
}

/** AI SDK step usage → core usage; unknown numbers stay absent. */
export function toUsage(u: LanguageModelUsage): LLMUsage {
  const out: LLMUsage = {};
  const set = (k: keyof LLMUsage, v: number | undefined) => {
    if (typeof v === "number" && Number.isFinite(v)) out[k] = v;
  };
  set("inputTokens", u.inputTokens);
  set("noCacheInputTokens", u.inputTokenDetails?.noCacheTokens);
  set("cacheReadTokens", u.inputTokenDetails?.cacheReadTokens);
  set("cacheWriteTokens", u.inputTokenDetails?.cacheWriteTokens);
  set("outputTokens", u.outputTokens);
  set("reasoningTokens", u.outputTokenDetails?.reasoningTokens);
  set("totalTokens", u.totalTokens);
  return out;
}
