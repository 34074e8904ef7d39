import type { Bus } from "../bus";
import { createCompactionRequest, isOverflow, lastStepTokens, pendingCompaction, processCompaction, pruneSession, wouldOverflow } from "../compaction";
import type { Clock } from "../ports/clock";
import type { LLM, LLMToolSpec, ModelConfig } from "../ports/llm";
import type { Store } from "../ports/store";
import type { AssistantMessage, MessageWithParts, Session } from "../schema";
import type { Settings } from "../settings";
import { Calibration, CountMemo, estimateCounter, measureRequest, reportedInputTokens, type RequestSize, type TokenCounter } from "../tokens";

/** Compactions one run may start by itself before it gives up and lets the provider decide. */
export const MAX_AUTO_COMPACTIONS_PER_RUN = 2;

export interface ContextGuardDeps {
  store: Store;
  llm: LLM;
  clock: Clock;
  bus: Bus;
  settings(): Settings;
  counter?: TokenCounter;
}

/**
 * The loop's context management (spec §3): runs pending compaction requests,
 * checks overflow after a step (provider usage) and before a call (our exact,
 * calibrated count), records counts on parts, and prunes after a run.
 * `compaction.auto = false` turns off every automatic path; manual requests still run.
 */
export class ContextGuard {
  readonly calibration = new Calibration();
  private readonly memo = new CountMemo();

  constructor(private readonly deps: ContextGuardDeps) {}

  private get counter(): TokenCounter {
    return this.deps.counter ?? estimateCounter;
  }

  /** Runs a pending compaction request, if any: `none` when there was none. */
  async runPending(sessionID: string, msgs: MessageWithParts[], model: ModelConfig, signal: AbortSignal): Promise<"none" | "continue" | "stop"> {
    const pending = pendingCompaction(msgs);
    if (!pending) return "none";
    const { store, llm, clock, bus } = this.deps;
    const r = await processCompaction({ store, llm, clock, model, counter: this.counter, calibration: this.calibration, bus }, { sessionID, messageID: pending.message.info.id, signal });
    if (!r.ok) {
      if (r.error.name !== "MessageAbortedError") bus.publish({ type: "session.error", sessionID, error: r.error });
      return "stop";
    }
    return r.next;
  }

  /** After a finished step: did the provider's reported usage reach the compaction point? */
  overflowedAfterStep(msgs: MessageWithParts[], model: ModelConfig): boolean {
    const tokens = lastStepTokens(msgs);
    return tokens !== undefined && isOverflow(tokens, model, this.deps.settings());
  }

  /** Our count of the request about to be sent (cached per part; new counts are persisted). */
  async measure(system: string[], msgs: MessageWithParts[], tools: LLMToolSpec[], model: ModelConfig): Promise<RequestSize> {
    const size = await measureRequest(this.counter, { system, messages: msgs, tools, encoding: this.counter.encodingFor(model.modelID) }, this.memo);
    const { store } = this.deps;
    if (store.saveCounts) await store.saveCounts(size.upserts);
    else for (const p of size.upserts) await store.upsertPart(p);
    return size;
  }

  /** Would this request overflow, after calibration against the provider's past answers? */
  wouldOverflow(size: RequestSize, model: ModelConfig): boolean {
    return wouldOverflow(this.calibration.apply(model.modelID, size.total), model, this.deps.settings());
  }

  /** Learns how our count compares with what the provider reported for the same request. */
  observe(model: ModelConfig, assistant: AssistantMessage, size: RequestSize): void {
    if (!assistant.error && assistant.finish) this.calibration.observe(model.modelID, reportedInputTokens(assistant.tokens), size.total);
  }

  async request(session: Session, opts: { auto: boolean; overflow?: boolean }): Promise<void> {
    await createCompactionRequest(this.deps.store, session, { ...opts, now: this.deps.clock.now() });
  }

  /** After a run: clear old tool outputs from what the model sees (kept in storage and in the UI). */
  async prune(sessionID: string): Promise<void> {
    if (!this.deps.settings().compaction.prune) return;
    try {
      await pruneSession(this.deps.store, sessionID, this.deps.clock.now());
    } catch (e) {
      console.warn(`tabcode: pruning failed: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
}
