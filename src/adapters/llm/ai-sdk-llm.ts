/**
 * The core `LLM` port over the AI SDK (`ai` + one provider package per
 * preset, see model-factory.ts), called straight from the browser with the
 * user's own key.
 *
 * - model-factory.ts: provider/model construction and the browser fetch.
 * - convert-request.ts: core request → instructions, messages, tools, options.
 * - map-stream.ts: `streamText` parts → core events.
 * - classify-error.ts: failures → named core errors (the core retries).
 *
 * One `stream()` call is one step: tools have no `execute`, so the step ends
 * at the model's tool calls and the core runs them.
 */
import { baseURLProblem } from "../../core/settings";
import { namedError } from "../../core/errors";
import { isStepCount, type LanguageModel, streamText, type TextStreamPart, type ToolSet } from "ai";
import type { LLM, LLMEvent, LLMRequest, ModelConfig } from "../../core/ports/llm";
import { type ClassifyContext, classifyError } from "./classify-error";
import { callProviderOptions, toInstructions, toModelMessages, toToolSet } from "./convert-request";
import { mapStream } from "./map-stream";
import { createModelFactory } from "./model-factory";

export interface AiSdkLLMOptions {
  /** Replaces `globalThis.fetch` (tests inject canned responses). */
  fetch?: typeof fetch;
  /**
   * Run once per provider after `preload` has built it (the model worker passes `rehearse`); a failure is ignored.
   * `signal` aborts when a real request for the provider starts: the rehearsal only prepares for that request and
   * must not share the worker's thread with it (a send right after a page load met a rehearsal still running).
   */
  rehearse?: (config: ModelConfig, signal: AbortSignal) => Promise<void>;
}

/**
 * The LLM port for every provider preset. `stream()` never throws.
 */
export function createAiSdkLLM(opts: AiSdkLLMOptions = {}): LLM & { preload(config: ModelConfig): Promise<void> } {
  const factory = createModelFactory(opts.fetch);
  /** Providers rehearsed or asked for real (a rehearsal after a real request would be moot). */
  const rehearsed = new Set<string>();
  const rehearsing = new Map<string, AbortController>();
  return {
    /** Loads the provider package and builds the provider for `config` ahead of its first request (nothing is sent), then rehearses its request path once. */
    async preload(config) {
      if (config.provider === "demo") return;
      await factory.model(config);
      if (!opts.rehearse || rehearsed.has(config.provider)) return;
      rehearsed.add(config.provider);
      const stop = new AbortController();
      rehearsing.set(config.provider, stop);
      try {
        await opts.rehearse(config, stop.signal).catch(() => undefined);
      } finally {
        rehearsing.delete(config.provider);
      }
    },
    async *stream(req) {
      rehearsed.add(req.model.provider);
      rehearsing.get(req.model.provider)?.abort();
      const ctx = classifyContext(req);
      // A setting that cannot work is said as one (the factory refuses it too).
      const problem = baseURLProblem(req.model.baseURL);
      if (problem) {
        yield { type: "error", error: namedError("UnknownError", { message: problem, kind: "settings" }) };
        return;
      }
      let model: LanguageModel;
      try {
        model = await factory.model(req.model);
      } catch (e) {
        yield { type: "error", error: classifyError(e, ctx) };
        return;
      }
      yield* streamWithModel(model, req, ctx);
    },
  };
}

function classifyContext(req: LLMRequest): ClassifyContext {
  return {
    provider: req.model.provider,
    ...(req.model.baseURL ? { baseURL: req.model.baseURL } : {}),
    ...(req.model.apiKey ? { apiKey: req.model.apiKey } : {}),
    contextWindow: req.model.contextWindow,
  };
}

/**
 * Runs one step of `req` on an already-built model. Separate from the
 * provider construction so it can be driven by a mock model in tests.
 * Never throws: every failure becomes one `error` event.
 */
export async function* streamWithModel(
  model: LanguageModel,
  req: LLMRequest,
  ctx: ClassifyContext = classifyContext(req),
): AsyncGenerator<LLMEvent> {
  let captured: unknown;
  const classify = (e: unknown) => classifyError(e, ctx);
  let parts: AsyncIterable<TextStreamPart<ToolSet>>;
  try {
    const providerOptions = callProviderOptions(req);
    const tools = toToolSet(req.tools);
    const result = streamText({
      model,
      instructions: toInstructions(req.system, req.model.provider),
      messages: toModelMessages(req.messages),
      ...(tools ? { tools } : {}),
      maxOutputTokens: req.maxOutputTokens,
      abortSignal: req.signal,
      // One step: the core runs the tools and calls again. It also owns retries and backoff.
      stopWhen: isStepCount(1),
      maxRetries: 0,
      ...(providerOptions ? { providerOptions } : {}),
      // Without onError a CORS or network failure surfaces only as "no output generated".
      onError: ({ error }) => {
        captured ??= error;
      },
    });
    parts = result.stream;
  } catch (e) {
    yield { type: "error", error: req.signal.aborted ? classify(abortError()) : classify(e) };
    return;
  }
  yield* mapStream(parts, { signal: req.signal, classify, capturedError: () => captured });
}

function abortError(): Error {
  const e = new Error("The request was aborted.");
  e.name = "AbortError";
  return e;
}
