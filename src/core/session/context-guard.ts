import type { Bus } from "../bus";
import { applyPrune, createCompactionRequest, pendingCompaction, processCompaction } from "../compaction";
import { overflowAt } from "../compaction/overflow";
import { cachePriceOf, cacheWritePriceOf, type ContextPolicy, DEFAULT_POLICY, type PolicyDecision } from "../compaction/policy";
import type { RequestPrefix } from "../compaction/process";
import { floorError, summaryFloor } from "../compaction/floor";
import type { Clock } from "../ports/clock";
import type { LLM, LLMToolSpec, ModelConfig } from "../ports/llm";
import type { Store } from "../ports/store";
import type { AssistantMessage, MessageWithParts, NamedErrorData, Session, ToolPart } from "../schema";
import { type Settings, summaryModelFor } from "../settings";
import { Calibration, CountMemo, estimateCounter, reportedInputTokens, type RequestSize, type TokenCounter } from "../tokens";
import { countPlan, estimatePlan, pendingChars, planRequestSize, type RequestSizePlan } from "../tokens/request-size";
import { estimateTokens } from "../tokens/counter";

/** Characters of never-counted history above which a request far from the window goes out on the estimate (about 12k tokens, tens of milliseconds of tokenizing). */
export const COUNT_BEHIND_CHARS = 50_000;

/** Characters per slice of a count behind a request (tens of milliseconds of tokenizing): a request prepared meanwhile waits for one slice at most. */
const BEHIND_SLICE_CHARS = 8_000;

/** Compactions the loop may start by itself for one prompt before it gives up and lets the provider decide. */
export const MAX_AUTO_COMPACTIONS_PER_PROMPT = 2;

export interface ContextGuardDeps {
  store: Store;
  llm: LLM;
  clock: Clock;
  bus: Bus;
  settings(): Settings;
  counter?: TokenCounter;
  /** The context policy; the benchmarked default unless a test injects another. */
  policy?: ContextPolicy;
}

/**
 * The loop's context management (spec §3): runs pending compaction requests,
 * and before every call asks the context policy (src/core/compaction/policy.ts,
 * measured in bench/context) what to do with our exact, calibrated count of
 * the request: send, prune a batch of old tool outputs, or summarise.
 * `compaction.auto = false` turns off automatic summaries on every path; manual requests still run.
 */
export class ContextGuard {
  readonly calibration = new Calibration();
  /** Exact counts of system sections and tool specs (shared with the views that size the next request). */
  readonly memo = new CountMemo();
  /** When each session's last request went out (the provider's cache cools down after a while). */
  private readonly lastSent = new Map<string, number>();
  /** Sessions whose exact count runs behind a request sent on an estimate. */
  private readonly countingBehind = new Set<string>();
  /** Requests being prepared in this tab (`foreground`), and who waits for there to be none. */
  private preparingCount = 0;
  private readonly quiet: (() => void)[] = [];
  /** User messages compaction wrote itself (requests, replayed prompts, "continue" messages). */
  private readonly made = new Set<string>();

  constructor(private readonly deps: ContextGuardDeps) {}

  private get counter(): TokenCounter {
    return this.deps.counter ?? estimateCounter;
  }

  /** The tokenizer encoding of a model (for cached counts). */
  encodingFor(model: ModelConfig): string {
    return this.counter.encodingFor(model.modelID);
  }

  /** Runs a pending compaction request, if any: `none` when there was none. */
  async runPending(
    sessionID: string,
    msgs: MessageWithParts[],
    model: ModelConfig,
    signal: AbortSignal,
    prefix?: RequestPrefix,
  ): Promise<"none" | "continue" | "stop"> {
    const pending = pendingCompaction(msgs);
    if (!pending) return "none";
    const { store, llm, clock, bus } = this.deps;
    const summaryModel = summaryModelFor(this.deps.settings(), model);
    const r = await processCompaction(
      { store, llm, clock, model, summaryModel, counter: this.counter, calibration: this.calibration, bus },
      { sessionID, messageID: pending.message.info.id, signal, prefix },
    );
    this.made.add(pending.message.info.id);
    if (r.ok) {
      this.lastSent.set(sessionID, clock.now());
      for (const m of [r.replayed, r.continued]) if (m) this.made.add(m.id);
    }
    if (!r.ok) {
      if (r.error.name !== "MessageAbortedError") bus.publish({ type: "session.error", sessionID, error: r.error });
      return "stop";
    }
    return r.next;
  }

  /** The newest user message of `shown` a person sent (not one compaction wrote). */
  latestPrompt(shown: MessageWithParts[]): string | undefined {
    for (let i = shown.length - 1; i >= 0; i--) {
      const m = shown[i];
      if (m?.info.role !== "user" || this.made.has(m.info.id)) continue;
      if (m.parts.some((p) => p.type === "compaction")) continue;
      if (m.parts.some((p) => p.type === "text" && p.metadata?.compaction_continue)) continue;
      return m.info.id;
    }
    return undefined;
  }

  /**
   * Our count of the request about to be sent (cached per part; new counts are persisted).
   * With `sessionID`, a request far from the window is not held back by counting: while the tokenizer
   * loads (the first send after a page load), or when much of the history has never been counted (a
   * long or imported session's first exact count: hundreds of milliseconds of tokenizing per megabyte).
   * The same while a count behind an earlier request of the session still runs (it is counting these parts).
   * If even the upper bound of the estimate (calibrated) is below the auto-compaction point and gets
   * "send" from the policy, the estimate is used (`exact: false`, `estimate` set) and the exact count
   * runs behind the request, for the next one; near the window the loop waits for the exact count.
   */
  async measure(system: string[], msgs: MessageWithParts[], tools: LLMToolSpec[], model: ModelConfig, sessionID?: string, reuse?: Map<string, unknown>): Promise<RequestSize> {
    const input = { system, messages: msgs, tools, encoding: this.counter.encodingFor(model.modelID) };
    const plan = planRequestSize(input, this.memo);
    if (sessionID !== undefined && plan.jobs.length > 0) {
      const ready = this.counter.ready?.(input.encoding) !== false;
      if (!ready) this.counter.warm?.(input.encoding);
      // While a count behind an earlier request still runs, what is left of it is not counted twice (once here, in the request's way).
      if (!ready || this.countingBehind.has(sessionID) || pendingChars(plan) > COUNT_BEHIND_CHARS) {
        const quick = estimatePlan(plan, msgs, this.memo);
        const upper = quick.estimate?.upper ?? Number.POSITIVE_INFINITY;
        const far = this.calibration.apply(model.modelID, upper) < overflowAt(model, this.deps.settings());
        if (far && this.decide(sessionID, msgs, { ...quick, total: upper }, model, "step", 0, reuse).kind === "send") {
          // Also while the tokenizer loads: the count queues behind the load in its worker.
          this.countBehind(sessionID, plan);
          return quick;
        }
      }
    }
    // The counts land on the parts: what a question on the estimate worked out from them (growth, prune batch) is stale.
    if (plan.jobs.length > 0) reuse?.clear();
    const size = await countPlan(this.counter, plan, this.memo);
    await this.saveCounts(size);
    return size;
  }

  /**
   * Marks a request being prepared in this tab (a prompt being written, a step being sized and sent) until
   * the returned function is called (the loop: at its answer's first event). Counts behind earlier requests
   * wait meanwhile: on 2 cores the tokenizer's Worker took the CPU the request needed (a send in a 2,000-part
   * session right after the first: ~200 ms with a count running, ~160 ms without).
   */
  foreground(): () => void {
    this.preparingCount++;
    let done = false;
    return () => {
      if (done) return;
      done = true;
      this.preparingCount--;
      if (this.preparingCount === 0) for (const resolve of this.quiet.splice(0)) resolve();
    };
  }

  /** Whether a request is being prepared in this tab now (`foreground`). */
  get preparing(): boolean {
    return this.preparingCount > 0;
  }

  /** Resolves when no request is being prepared in this tab. */
  whenQuiet(): Promise<void> {
    return this.preparingCount === 0 ? Promise.resolve() : new Promise<void>((resolve) => this.quiet.push(resolve));
  }

  /**
   * Counts a plan after its request went out on an estimate (one at a time per session), in slices of
   * `BEHIND_SLICE_CHARS`, each once no request is being prepared (`foreground`); the counts land on the
   * parts (and, for the very objects counted, beside them: `rememberCount`).
   */
  private countBehind(sessionID: string, plan: RequestSizePlan): void {
    if (this.countingBehind.has(sessionID)) return;
    this.countingBehind.add(sessionID);
    const slices: RequestSizePlan[] = [];
    let jobs: RequestSizePlan["jobs"] = [];
    let chars = 0;
    for (const job of plan.jobs) {
      jobs.push(job);
      chars += job.text.length;
      if (chars >= BEHIND_SLICE_CHARS) {
        slices.push({ ...plan, jobs });
        jobs = [];
        chars = 0;
      }
    }
    if (jobs.length) slices.push({ ...plan, jobs });
    const run = async () => {
      for (const slice of slices) {
        await this.whenQuiet();
        const size = await countPlan(this.counter, slice, this.memo);
        if (!size.exact) return;
        await this.saveCounts(size);
      }
    };
    void run()
      .catch(() => undefined)
      .finally(() => this.countingBehind.delete(sessionID));
  }

  /** The counts are kept for the next page load; nothing waits for that write (the parts in memory have them). */
  private async saveCounts(size: RequestSize): Promise<void> {
    const { store } = this.deps;
    if (size.upserts.length === 0) return;
    if (store.saveCounts) void store.saveCounts(size.upserts).catch(() => undefined);
    else for (const p of size.upserts) await store.upsertPart(p);
  }

  /** What to do before sending `size`: the policy's decision on the calibrated count. */
  decide(
    sessionID: string,
    view: MessageWithParts[],
    size: RequestSize,
    model: ModelConfig,
    moment: "step" | "overflow" = "step",
    afterSummary = 0,
    /** Shared by the decisions of one step about this same `view` (see `PolicyInput.reuse`). */
    reuse?: Map<string, unknown>,
  ): PolicyDecision {
    const last = this.lastSent.get(sessionID);
    return (this.deps.policy ?? DEFAULT_POLICY).decide({
      moment,
      view,
      request: this.calibration.apply(model.modelID, size.total),
      afterSummary,
      model,
      settings: this.deps.settings(),
      cachePrice: cachePriceOf(model.prices),
      cacheWritePrice: cacheWritePriceOf(model.prices),
      encoding: this.counter.encodingFor(model.modelID),
      sinceLastRequest: last === undefined ? undefined : this.deps.clock.now() - last,
      ...(reuse ? { reuse } : {}),
    });
  }

  /**
   * Why no summary can make the request fit, or undefined when one can (`core/compaction/floor.ts`): the parts a
   * summary keeps verbatim, counted as `size` counted them (the extra message after a summary in force, `afterSummary`
   * calibrated tokens, is left out: a new summary writes a new one). Off with `compaction.auto` (the provider decides).
   */
  unfixable(
    view: MessageWithParts[],
    size: RequestSize,
    model: ModelConfig,
    opts: { afterSummary: number; promptID: string | undefined; replay: boolean; tailStartID?: string },
  ): NamedErrorData | undefined {
    const settings = this.deps.settings();
    if (settings.compaction.auto === false || model.contextWindow === 0) return undefined;
    const calibrate = (n: number) => this.calibration.apply(model.modelID, n);
    const floor = summaryFloor({
      prefix: Math.max(0, calibrate(size.system + size.tools) - opts.afterSummary),
      sent: view,
      promptID: opts.promptID,
      replay: opts.replay,
      ...(opts.tailStartID ? { tailStartID: opts.tailStartID } : {}),
      encoding: this.encodingFor(model),
      calibrate,
    });
    return floorError(floor, model, summaryModelFor(settings, model));
  }

  /** Our calibrated count of a text `measure` counted as a system section (the extra message after a summary). */
  sectionTokens(text: string, model: ModelConfig): number {
    const n = this.memo.get(this.encodingFor(model), text) ?? estimateTokens(text);
    return this.calibration.apply(model.modelID, n);
  }

  /** Marks the policy's batch of old tool outputs as pruned (kept in storage and in the UI). */
  async prune(parts: ToolPart[]): Promise<void> {
    await applyPrune(this.deps.store, { parts, pruned: 0, kept: 0 }, this.deps.clock.now());
  }

  /** A request is going out now. */
  sent(sessionID: string): void {
    this.lastSent.set(sessionID, this.deps.clock.now());
  }

  /** Learns how our count compares with what the provider reported for the same request. */
  observe(model: ModelConfig, assistant: AssistantMessage, size: RequestSize): void {
    // Calibrating on an estimate would teach the ratio the estimate's error.
    if (!assistant.error && assistant.finish && !size.estimate) this.calibration.observe(model.modelID, reportedInputTokens(assistant.tokens), size.total);
  }

  async request(session: Session, opts: { auto: boolean; overflow?: boolean; mode?: "transcript" | "cached-prefix"; tailStartID?: string }): Promise<void> {
    const { tailStartID, ...rest } = opts;
    const { part } = await createCompactionRequest(this.deps.store, session, { ...rest, now: this.deps.clock.now() });
    if (tailStartID) await this.deps.store.upsertPart({ ...part, tail_start_id: tailStartID });
  }
}
