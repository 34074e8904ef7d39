import type { Bus } from "../bus";
import { isRetryable, namedError } from "../errors";
import { ascendingId } from "../ids";
import type { Clock } from "../ports/clock";
import type { LLM, LLMRequest } from "../ports/llm";
import type { Store } from "../ports/store";
import type { AssistantMessage, NamedErrorData, RetryPart, StepFinishPart, TextPart } from "../schema";
import { RETRY_MAX_ATTEMPTS, retryDelay, retryMessage } from "../conversation/retry";
import { addStepUse, costOf, toTokens } from "../conversation/usage";

/**
 * One summary call: streams the model's text into a single text part of the
 * summary message (live on the bus), records usage and cost like a step,
 * and retries retryable provider errors while nothing was streamed.
 * Tool calls are ignored (none are offered).
 */

export interface SummaryStreamDeps {
  store: Store;
  llm: LLM;
  clock: Clock;
  bus?: Bus;
}

export type SummaryStreamResult = { ok: true; text: string; part: TextPart } | { ok: false; error: NamedErrorData; part?: TextPart };

export async function streamSummary(deps: SummaryStreamDeps, summary: AssistantMessage, request: Omit<LLMRequest, "signal">, signal: AbortSignal): Promise<SummaryStreamResult> {
  const { store, clock, bus } = deps;
  const base = () => ({ id: ascendingId("prt", clock.now()), sessionID: summary.sessionID, messageID: summary.id });
  let part: TextPart | undefined;
  for (let attempt = 1; ; attempt++) {
    let error: NamedErrorData | undefined;
    let finished = false;
    try {
      for await (const ev of deps.llm.stream({ ...request, signal })) {
        if (signal.aborted) break;
        if (ev.type === "text-delta") {
          if (!part) {
            part = { ...base(), type: "text", text: "", time: { start: clock.now() } };
            await store.upsertPart(part);
          }
          part.text += ev.delta;
          store.appendDelta({ sessionID: part.sessionID, messageID: part.messageID, partID: part.id, field: "text", delta: ev.delta });
          bus?.publish({ type: "part.live", part });
        } else if (ev.type === "finish") {
          finished = true;
          const tokens = toTokens(ev.usage);
          const cost = costOf(tokens, request.model.prices);
          summary.tokens = tokens;
          summary.cost += cost;
          summary.finish = ev.reason;
          // On a model with no known price the summary's cost is unknown, not $0: marked like a step's, and counted on the row.
          const unknown = request.model.pricesUnknown === true;
          const finish: StepFinishPart = { ...base(), type: "step-finish", reason: ev.reason, cost, tokens, ...(unknown ? { priceUnknown: true } : {}) };
          await store.upsertPart(finish);
          await store.updateSession(summary.sessionID, (s) => addStepUse(s, tokens, cost, unknown));
        } else if (ev.type === "error") {
          error = ev.error;
          break;
        }
      }
    } catch (e) {
      error = namedError("UnknownError", { message: e instanceof Error ? e.message : String(e) });
    }
    if (signal.aborted) return { ok: false, error: namedError("MessageAbortedError", { message: "Stopped by the user" }), part };
    if (error && isRetryable(error) && !part && attempt < RETRY_MAX_ATTEMPTS) {
      const delay = retryDelay(attempt, error, clock.now());
      const retry: RetryPart = { ...base(), type: "retry", attempt, error, time: { created: clock.now(), next: clock.now() + delay } };
      await store.upsertPart(retry);
      bus?.publish({ type: "session.status", sessionID: summary.sessionID, status: { type: "retry", attempt, message: retryMessage(error), next: clock.now() + delay } });
      try {
        await clock.sleep(delay, signal);
      } catch {
        return { ok: false, error: namedError("MessageAbortedError", { message: "Stopped by the user" }), part };
      }
      bus?.publish({ type: "session.status", sessionID: summary.sessionID, status: { type: "busy" } });
      continue;
    }
    if (error) return { ok: false, error, part };
    if (!finished) return { ok: false, error: namedError("StreamError", { message: "The response stream ended before the model finished." }), part };
    const text = part?.text.trim() ?? "";
    if (!part || !text) return { ok: false, error: namedError("UnknownError", { message: "The model returned an empty summary." }), part };
    return { ok: true, text, part };
  }
}
