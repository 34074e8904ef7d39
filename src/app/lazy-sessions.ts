/**
 * The session service, loaded on demand. The agent loop (steps, compaction,
 * the context policy, prompts, skills, rules) is not needed to paint the
 * first screen, so it stays out of the entry bundle: this facade answers the
 * UI's synchronous questions with "nothing is running" until the service is
 * there (no run can exist before it is), and every command waits for it.
 * `warmUp` loads it when the page is idle after start-up, ahead of the first send.
 */
import type { SessionStatus } from "../core/bus";
import type { CompactionPreview } from "../core/compaction/preview";
import type { LLMToolSpec } from "../core/ports/llm";
import type { Pin, Ruleset, Session, UserMessage } from "../core/schema";
import type { PendingSummary, SummaryChoice } from "../core/session/compaction-grace";
import type { GoalSpec } from "../core/session/goal-syntax";
import type { PromptInput, RequestRecord, SessionService, SessionServiceDeps } from "../core/session/loop";
import { CountMemo } from "../core/tokens/count-memo";

const NO_STATUSES: ReadonlyMap<string, SessionStatus> = new Map();
const NO_SUMMARIES: ReadonlyMap<string, PendingSummary> = new Map();

export class LazySessions {
  private service: SessionService | undefined;
  private loading: Promise<SessionService> | undefined;
  private readonly listeners = new Set<() => void>();
  /** Where counts go before the service is loaded (the service keeps its own from then on). */
  private readonly earlyMemo = new CountMemo();

  constructor(private readonly deps: SessionServiceDeps) {}

  /** Loads the service (once; a failed load is tried again next time). */
  load = (): Promise<SessionService> => {
    this.loading ??= import("../core/session/loop").then(
      ({ SessionService }) => {
        const service = new SessionService(this.deps);
        this.service = service;
        service.subscribe(() => this.emit());
        this.emit();
        return service;
      },
      (e: unknown) => {
        this.loading = undefined;
        throw e;
      },
    );
    return this.loading;
  };

  private emit(): void {
    for (const l of [...this.listeners]) l();
  }

  // ── synchronous questions: nothing runs before the service is loaded ──────

  subscribe = (l: () => void): (() => void) => {
    this.listeners.add(l);
    return () => {
      this.listeners.delete(l);
    };
  };
  getStatuses = (): ReadonlyMap<string, SessionStatus> => this.service?.getStatuses() ?? NO_STATUSES;
  getPendingSummaries = (): ReadonlyMap<string, PendingSummary> => this.service?.getPendingSummaries() ?? NO_SUMMARIES;
  status(sessionID: string): SessionStatus {
    return this.service?.status(sessionID) ?? { type: "idle" };
  }
  calibrationRatio(modelID: string): number {
    return this.service?.calibrationRatio(modelID) ?? 1;
  }
  agentOf(sessionID: string): string | undefined {
    return this.service?.agentOf(sessionID);
  }
  lastRequest(sessionID: string): RequestRecord | undefined {
    return this.service?.lastRequest(sessionID);
  }
  get preparing(): boolean {
    return this.service?.preparing ?? false;
  }
  whenQuiet(): Promise<void> {
    return this.service?.whenQuiet() ?? Promise.resolve();
  }
  get countMemo(): CountMemo {
    return this.service?.countMemo ?? this.earlyMemo;
  }
  isBusy(sessionID: string): boolean {
    return this.service?.isBusy(sessionID) ?? false;
  }
  assertIdle(sessionID: string): void {
    this.service?.assertIdle(sessionID);
  }
  chooseSummary(sessionID: string, choice: SummaryChoice): void {
    this.service?.chooseSummary(sessionID, choice);
  }
  abort(sessionID: string): void {
    this.service?.abort(sessionID);
  }
  readonly goals = {
    isArmed: (sessionID: string): boolean => this.service?.goals.isArmed(sessionID) ?? false,
    stop: async (sessionID: string): Promise<void> => (await this.load()).goals.stop(sessionID),
    clear: async (sessionID: string): Promise<void> => (await this.load()).goals.clear(sessionID),
  };

  // ── commands: wait for the service ───────────────────────────────────────

  async requestShape(sessionID: string): Promise<{ system: string[]; tools: LLMToolSpec[] } | undefined> {
    return (await this.load()).requestShape(sessionID);
  }
  async setGoal(sessionID: string, spec: GoalSpec): Promise<void> {
    return (await this.load()).setGoal(sessionID, spec);
  }
  async resumeGoal(sessionID: string): Promise<void> {
    return (await this.load()).resumeGoal(sessionID);
  }
  async createSession(opts: { title?: string; directory?: string; demo?: boolean } = {}): Promise<Session> {
    return (await this.load()).createSession(opts);
  }
  async prompt(sessionID: string, input: PromptInput): Promise<UserMessage> {
    return (await this.load()).prompt(sessionID, input);
  }
  async switchBranch(sessionID: string, messageID: string, step: number): Promise<void> {
    return (await this.load()).switchBranch(sessionID, messageID, step);
  }

  /** Ends a retry wait of the session's run in this tab now; false when this tab has none. */
  async retryNow(sessionID: string): Promise<boolean> {
    const { retryNow } = await import("../core/session/retry-now");
    return retryNow(sessionID);
  }

  async showBranchOf(sessionID: string, messageID: string): Promise<void> {
    return (await this.load()).showBranchOf(sessionID, messageID);
  }
  async editSummary(sessionID: string, messageID: string, text: string): Promise<void> {
    return (await this.load()).editSummary(sessionID, messageID, text);
  }
  async rename(sessionID: string, title: string): Promise<Session | undefined> {
    return (await this.load()).rename(sessionID, title);
  }
  async archive(sessionID: string, archived: boolean): Promise<Session | undefined> {
    return (await this.load()).archive(sessionID, archived);
  }
  async setRules(sessionID: string, rules: Ruleset): Promise<Session | undefined> {
    return (await this.load()).setRules(sessionID, rules);
  }
  async setModel(sessionID: string, model: { providerID: string; modelID: string }): Promise<Session | undefined> {
    return (await this.load()).setModel(sessionID, model);
  }
  async savePin(sessionID: string, pin: Pin): Promise<{ ok: true } | { ok: false; error: string }> {
    return (await this.load()).savePin(sessionID, pin);
  }
  async addPin(sessionID: string, input: { kind: Pin["kind"]; text: string; messageID?: string }): Promise<{ ok: true; pin: Pin } | { ok: false; error: string }> {
    return (await this.load()).addPin(sessionID, input);
  }
  async removePin(sessionID: string, pin: Pin): Promise<void> {
    return (await this.load()).removePin(sessionID, pin);
  }
  async startFresh(sessionID: string, messageID: string): Promise<{ session: Session; brief: string; filesAt: string | undefined }> {
    return (await this.load()).startFresh(sessionID, messageID);
  }
  async ensureRunning(sessionID: string): Promise<void> {
    return (await this.load()).ensureRunning(sessionID);
  }
  async stop(sessionID: string): Promise<void> {
    return (await this.load()).stop(sessionID);
  }
  async runningElsewhere(sessionID: string): Promise<boolean> {
    // Before the service is loaded nothing runs in this tab, so a held lock is another tab's (no need to load it).
    if (!this.service) return (await this.deps.locks?.held(sessionID)) ?? false;
    return this.service.runningElsewhere(sessionID);
  }
  async repair(sessionID: string): Promise<number> {
    return (await this.load()).repair(sessionID);
  }
  async previewCompaction(sessionID: string, upTo?: string): Promise<CompactionPreview> {
    return (await this.load()).previewCompaction(sessionID, upTo);
  }
  async compact(sessionID: string, opts: { upTo?: string } = {}): Promise<void> {
    return (await this.load()).compact(sessionID, opts);
  }
  async assertIdleEverywhere(sessionID: string): Promise<void> {
    return (await this.load()).assertIdleEverywhere(sessionID);
  }
}
