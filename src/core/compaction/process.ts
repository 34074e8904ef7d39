import type { Bus } from "../bus";
import { namedError } from "../errors";
import { ascendingId } from "../ids";
import type { Clock } from "../ports/clock";
import type { LLM, LLMRequest, LLMToolSpec, ModelConfig } from "../ports/llm";
import type { Store } from "../ports/store";
import { type AssistantMessage, type CompactionPart, emptyTokens, type MessageWithParts, type NamedErrorData, type TextPart, type UserMessage } from "../schema";
import { toModelMessages } from "../conversation/to-model";
import { modelMessageOptions } from "../model-media";
import { takesMedia } from "../model-table";
import { conversationView, filterCompacted } from "../conversation/view";
import type { Calibration } from "../tokens/calibration";
import { estimateCounter, estimateTokens, type TokenCounter } from "../tokens/counter";
import { IMAGE_TOKENS, MESSAGE_OVERHEAD, PDF_TOKENS, REPLY_OVERHEAD } from "../tokens/part-text";
import { inputBudget, maxOutput } from "./overflow";
import { findReplay, hasUserContent, recreateUserMessage } from "./replay";
import { withAfterSummary } from "./after-summary";
import { applyCacheMarkers } from "./cache-markers";
import { buildSummaryRequest, cachedPrefixInstructions, COMPACTION_AGENT, previousSummary } from "./summarize";
import { streamSummary } from "./summary-stream";
import { selectTail, tailBudget } from "./tail";
import { mediaOf, renderToolLog, splitSummary, toolLog } from "./transcript";

/**
 * Runs a compaction request (spec §3.4–3.5): summarises the head of the
 * session into an assistant message with `summary: true`, keeps a verbatim
 * tail (or, after a provider overflow, replays the last user message), and
 * leaves the full history untouched when anything fails.
 */

export const COMPACTION_TOO_LARGE = "Session too large to compact — start a new session or choose a model with a larger context window.";
export const CONTINUE_PROMPT = "Continue if you have next steps. If you are unsure how to proceed, stop and ask the user for clarification.";
export const OVERFLOW_NOTE = "The previous request was too large for the model's context window, so the conversation before it was summarised; any images or files in it are placeholders now.";

export interface CompactionDeps {
  store: Store;
  llm: LLM;
  clock: Clock;
  /** The session's model (what the summary must fit, and the cache a `cached-prefix` summary reuses). */
  model: ModelConfig;
  /** The model that writes the summary (Settings' summary model); the session's model when absent. */
  summaryModel?: ModelConfig;
  /** For the summary-size check; estimates when absent. */
  counter?: TokenCounter;
  calibration?: Calibration;
  /** Live text for the UI, retry status and `session.error` on failure. */
  bus?: Bus;
}

/** The next chat request's fixed parts, for a `cached-prefix` summary (same bytes → provider cache hit). */
export interface RequestPrefix {
  system: string[];
  tools: LLMToolSpec[];
  cacheKey?: string;
  /**
   * The extra message the chat request carries after the summary in force (the user's earlier words,
   * anything re-added: core/pins/after-compaction). The summary request carries it too: in the same
   * place (a `cached-prefix` request then repeats the chat request's prefix), or before the transcript.
   */
  afterSummary?: string;
}

export interface ProcessCompactionInput {
  /** Given when the loop has built the next chat request; enables the `cached-prefix` mode. */
  prefix?: RequestPrefix;
  sessionID: string;
  /** The compaction request: a user message with a `compaction` part. */
  messageID: string;
  signal: AbortSignal;
}

export type CompactionResult =
  | {
      ok: true;
      summary: AssistantMessage;
      /** First message kept verbatim after the summary. */
      tailStartID?: string;
      /** The overflowing user message, re-created after the summary. */
      replayed?: UserMessage;
      /** The synthetic "continue" message (auto compaction without replay). */
      continued?: UserMessage;
      /** `continue` when the loop should answer a replayed or continue message; `stop` after a manual compaction. */
      next: "continue" | "stop";
    }
  /** The summary message (if created) carries the error; the history is unchanged. */
  | { ok: false; error: NamedErrorData; summary?: AssistantMessage };

const tooLarge = () => namedError("ContextOverflowError", { message: COMPACTION_TOO_LARGE });

/** Our (calibrated) size of a summary request. */
async function requestTokens(deps: CompactionDeps, req: Omit<LLMRequest, "signal">): Promise<number> {
  const texts = [
    ...req.system,
    ...req.tools.map((t) => `${t.name}\n${t.description}\n${JSON.stringify(t.inputSchema)}`),
    ...req.messages.flatMap((m) =>
      m.content.flatMap((c) => {
        if (c.type === "text" || c.type === "reasoning") return [c.text];
        if (c.type === "tool-call") return [JSON.stringify(c.input)];
        if (c.type === "tool-result") return [c.output];
        return [];
      }),
    ),
  ];
  const mediaTokens = (mime: string) => (mime === "application/pdf" ? PDF_TOKENS : IMAGE_TOKENS);
  const media = req.messages
    .flatMap((m): { mime: string }[] => (m.role === "user" ? m.content.filter((c) => c.type === "file") : m.role === "tool" ? m.content.flatMap((r) => r.media ?? []) : []))
    .reduce((n, c) => n + mediaTokens(c.mime), 0);
  const overhead = (req.messages.length + 1) * MESSAGE_OVERHEAD + REPLY_OVERHEAD + media;
  const estimate = texts.reduce((n, t) => n + estimateTokens(t), overhead);
  // Far beyond any window: do not spend a tokenizer pass on it.
  if (estimate > 2 * inputBudget(req.model, req.maxOutputTokens)) return estimate;
  const counter = deps.counter ?? estimateCounter;
  const counts = await counter.count(texts, counter.encodingFor(req.model.modelID)).catch(() => texts.map(estimateTokens));
  const total = counts.reduce((a, b) => a + b, overhead);
  return deps.calibration ? deps.calibration.apply(req.model.modelID, total) : total;
}

interface Plan {
  head: MessageWithParts[];
  previous?: ReturnType<typeof previousSummary>;
  replay?: MessageWithParts & { info: UserMessage };
  tailStartID?: string;
}

/** Chooses what to summarise: the head, the tail kept verbatim, or the message to replay. */
function plan(before: MessageWithParts[], part: CompactionPart, deps: CompactionDeps): Plan {
  const previous = previousSummary(before);
  const prevIDs = new Set([previous?.message.info.id, previous?.message.info.parentID]);
  const body = before.filter((m) => !prevIDs.has(m.info.id));
  if (part.overflow) {
    const r = findReplay(body);
    const replay = r === undefined ? undefined : body[r];
    if (r !== undefined && replay?.info.role === "user" && (previous || body.slice(0, r).some(hasUserContent)))
      return { head: body.slice(0, r), previous, replay: { info: replay.info, parts: replay.parts } };
    return { head: body, previous };
  }
  // A request made by the context policy says whether to keep a tail (its benchmarked default: none).
  if (part.mode !== undefined) {
    const at = part.tail_start_id ? body.findIndex((m) => m.info.id === part.tail_start_id) : -1;
    return at > 0 ? { head: body.slice(0, at), previous, tailStartID: part.tail_start_id } : { head: body, previous };
  }
  const encoding = (deps.counter ?? estimateCounter).encodingFor(deps.model.modelID);
  const start = selectTail(body, { budget: tailBudget(deps.model), encoding, after: previous?.message.info.parentID });
  if (start === undefined) return { head: body, previous };
  return { head: body.slice(0, start), previous, tailStartID: body[start]?.info.id };
}

/** A summary request that re-sends the next chat request (system, tools, history) with the instructions last. */
function cachedPrefixRequest(model: ModelConfig, prefix: RequestPrefix, head: MessageWithParts[], updating: boolean): Omit<LLMRequest, "signal"> {
  const messages = applyCacheMarkers(withAfterSummary(toModelMessages(head, modelMessageOptions(model)), prefix.afterSummary));
  messages.push({ role: "user", content: [{ type: "text", text: cachedPrefixInstructions(updating) }] });
  return { model, system: prefix.system, messages, tools: prefix.tools, maxOutputTokens: maxOutput(model), cacheKey: prefix.cacheKey, purpose: "summary" };
}

/** Processes one compaction request. Never throws for expected failures. */
export async function processCompaction(deps: CompactionDeps, input: ProcessCompactionInput): Promise<CompactionResult> {
  const { store, clock, model } = deps;
  const writer = deps.summaryModel ?? model;
  const session = await store.getSession(input.sessionID);
  // Only the branch being shown is summarised.
  const all = session ? conversationView(session, await store.messages(input.sessionID)).shown : [];
  const idx = all.findIndex((m) => m.info.id === input.messageID);
  const target = all[idx];
  const part = target?.parts.find((p): p is CompactionPart => p.type === "compaction");
  if (target?.info.role !== "user" || !part) return { ok: false, error: namedError("UnknownError", { message: "Not a compaction request." }) };
  const request = target.info;

  const p = plan(filterCompacted(all.slice(0, idx)), part, deps);
  if (p.tailStartID) await store.upsertPart({ ...part, tail_start_id: p.tailStartID });

  const started = clock.now();
  const summary: AssistantMessage = {
    id: ascendingId("msg", started),
    sessionID: input.sessionID,
    role: "assistant",
    parentID: request.id,
    time: { created: started },
    modelID: writer.modelID,
    providerID: writer.provider,
    agent: COMPACTION_AGENT,
    summary: true,
    cost: 0,
    tokens: emptyTokens(),
  };
  await store.upsertMessage(summary);
  // With media first (the summariser may need to see it), then stripped to placeholders.
  // Media first where the writer takes it (a text-only writer would refuse the request), then without.
  const attempts = mediaOf(p.head).length > 0 && takesMedia(writer.modelID) ? [true, false] : [false];
  let error: NamedErrorData = tooLarge();
  let text: string | undefined;
  let textPart: TextPart | undefined;
  // First choice when the policy asked for it: the next chat request itself plus the instructions, so the
  // provider serves the whole history from its prompt cache. Anything odd falls back to the transcript request.
  // Another summary model has no cache of this session: it reads the transcript.
  if (part.mode === "cached-prefix" && input.prefix && !p.replay && !p.tailStartID && writer.modelID === model.modelID) {
    // The very history the chat request sends (previous summary included), so the provider's cache serves it.
    const req = cachedPrefixRequest(model, input.prefix, filterCompacted(all.slice(0, idx)), p.previous !== undefined);
    if ((await requestTokens(deps, req)) <= inputBudget(model, req.maxOutputTokens)) {
      const r = await streamSummary(deps, summary, req, input.signal);
      if (r.ok && /(^|\n)#+\s*Goal/i.test(r.text)) {
        text = r.text;
        textPart = r.part;
      } else {
        if (!r.ok && r.error.name === "MessageAbortedError") return await fail(deps, summary, r.error);
        // Keep what was written, but out of the summary and out of what the model sees.
        if (r.part) await store.upsertPart({ ...r.part, ignored: true, metadata: { ...r.part.metadata, rejectedSummary: true } });
      }
    }
  }
  for (const withMedia of text === undefined ? attempts : []) {
    const req = buildSummaryRequest({ model: writer, head: p.head, previous: p.previous?.body, withMedia, earlier: p.previous ? input.prefix?.afterSummary : undefined });
    if ((await requestTokens(deps, req)) > inputBudget(writer, req.maxOutputTokens)) continue;
    const r = await streamSummary(deps, summary, req, input.signal);
    if (r.ok) {
      text = r.text;
      textPart = r.part;
      break;
    }
    // Only a rejection before any text is worth another try without media.
    error = r.error.name === "ContextOverflowError" && !r.part ? tooLarge() : r.error;
    if (r.part || error.name !== "ContextOverflowError") break;
  }
  if (text === undefined || !textPart) return await fail(deps, summary, error);

  const log = toolLog(p.head, p.previous?.log);
  textPart.text = `${splitSummary(text).body}\n\n${renderToolLog(log)}`;
  textPart.time = { start: textPart.time?.start ?? started, end: clock.now() };
  await store.upsertPart(textPart);
  summary.finish = summary.finish ?? "stop";
  summary.time.completed = clock.now();
  await store.upsertMessage(summary);
  deps.bus?.publish({ type: "part.live", part: textPart });

  if (p.replay) {
    const replayed = await recreateUserMessage(store, p.replay, clock.now());
    return { ok: true, summary, tailStartID: p.tailStartID, replayed: replayed.info, next: "continue" };
  }
  if (!part.auto) return { ok: true, summary, tailStartID: p.tailStartID, next: "stop" };
  const continued = await addContinue(store, request, part.overflow === true, clock.now());
  return { ok: true, summary, tailStartID: p.tailStartID, continued, next: "continue" };
}

async function fail(deps: CompactionDeps, summary: AssistantMessage, error: NamedErrorData): Promise<CompactionResult> {
  summary.error = error;
  summary.finish = "error";
  summary.time.completed = deps.clock.now();
  await deps.store.upsertMessage(summary);
  if (error.name !== "MessageAbortedError") deps.bus?.publish({ type: "session.error", sessionID: summary.sessionID, error });
  return { ok: false, error, summary };
}

/** The synthetic user message that lets an auto compaction carry on with the task. */
async function addContinue(store: Store, request: UserMessage, overflow: boolean, now: number): Promise<UserMessage> {
  const info: UserMessage = { id: ascendingId("msg", now), sessionID: request.sessionID, role: "user", time: { created: now }, agent: request.agent, model: request.model };
  const text = overflow ? `${OVERFLOW_NOTE}\n\n${CONTINUE_PROMPT}` : CONTINUE_PROMPT;
  await store.upsertMessage(info);
  await store.upsertPart({ id: ascendingId("prt", now), sessionID: info.sessionID, messageID: info.id, type: "text", text, synthetic: true, metadata: { compaction_continue: true } });
  return info;
}
