import type { SessionStatus } from "../bus";
import { conversationView } from "../conversation/view";
import { BusyError, namedError } from "../errors";
import { descendingId } from "../ids";
import { noLocks, type RunReservation } from "../ports/locks";
import type { Sandbox } from "../ports/sandbox";
import type { Store } from "../ports/store";
import { defaultTitle, emptyTokens, type MessageWithParts, type Ruleset, type Session, type UserMessage } from "../schema";
import { AgentLoop } from "./agent-loop";
import { dropSavedOutputs } from "./collect";
import { ContextGuard } from "./context-guard";
import { editSummary, renameSession, setArchived, setSessionModel, setSessionRules, showBranchOf, switchBranch } from "./edits";
import { MirrorStore } from "./mirror-store";
import { messagesToRead } from "./read-messages";
import { repairSession } from "./repair";
import type { PromptInput, RequestRecord, SessionServiceDeps } from "./service-deps";
import { type PromptContext, type WrittenPrompt, writePrompt } from "./write-prompt";
import type { GoalSpec } from "./goal";
import type { LLMToolSpec } from "../ports/llm";
import type { CountMemo } from "../tokens/request-size";
import { type CompactionPreview, compactionPreview, turnAfter } from "../compaction/preview";
import { CompactionGrace, type PendingSummary, type SummaryChoice } from "./compaction-grace";
import type { Pin } from "../schema";
import { GoalRunner } from "./goal-runner";
import { summaryModelFor } from "../settings";

export type { PromptFile, PromptInput, RequestRecord, SessionServiceDeps, SystemInput } from "./service-deps";

interface Run {
  controller: AbortController;
  done: Promise<void>;
}

/** The longest a prompt's background work (its title) waits for the prompt's own answer to start. */
const BACKGROUND_WAIT_MS = 10_000;

/**
 * The session service: creates sessions, takes commands (prompt, branch
 * switch, summary edit, compact…) and controls runs (one per session, under
 * the session's Web Lock); the loop itself is `AgentLoop` (agent-loop.ts).
 */
export class SessionService {
  private runs = new Map<string, Run>();
  /** Run locks asked for by prompts still being written (see `reserveRun`); `gone` resolves once the lock is used or given back. */
  private reservations = new Map<string, { reserved: RunReservation; gone: Promise<void>; end(): void }>();
  private statuses = new Map<string, SessionStatus>();
  private listeners = new Set<() => void>();
  private statusSnapshot: ReadonlyMap<string, SessionStatus> = new Map();

  private readonly guard: ContextGuard;
  private readonly grace: CompactionGrace;
  /** The running sessions' messages in memory (see MirrorStore); off only to measure without it. */
  private readonly mirror: MirrorStore | undefined;
  /** Every read and write of the service goes through here. */
  private readonly store: Store;
  private readonly agentLoop: AgentLoop;
  /** `/goal`s: set, resumed, continued after each turn, stopped. */
  readonly goals: GoalRunner;

  constructor(private readonly deps: SessionServiceDeps) {
    this.mirror = deps.mirror === false ? undefined : new MirrorStore(deps.store);
    this.store = this.mirror ?? deps.store;
    this.grace = new CompactionGrace(deps.clock, () => {
      for (const l of this.listeners) l();
    });
    this.guard = new ContextGuard({ store: this.store, llm: deps.llm, clock: deps.clock, bus: deps.bus, settings: deps.settings, counter: deps.counter });
    this.goals = new GoalRunner({
      store: this.store,
      clock: deps.clock,
      bus: deps.bus,
      write: (sessionID, text, kind) => this.writePrompt(sessionID, { text, goal: kind }).then((w) => w.user),
      changed: () => this.notify(),
    });
    this.agentLoop = new AgentLoop(deps, this.store, this.guard, this.mirror, (id) => this.sandboxOf(id), (session, last) => this.goals.overBudget(session, last), this.grace);
    deps.bus.subscribe((ev) => {
      if (ev.type === "session.status") this.setStatus(ev.sessionID, ev.status);
    });
  }

  subscribe = (l: () => void): (() => void) => {
    this.listeners.add(l);
    return () => {
      this.listeners.delete(l);
    };
  };
  getStatuses = (): ReadonlyMap<string, SessionStatus> => this.statusSnapshot;
  status(sessionID: string): SessionStatus {
    return this.statuses.get(sessionID) ?? { type: "idle" };
  }
  /** How our token counts compare with the provider's for a model (1 = identical, learnt from usage). */
  calibrationRatio(modelID: string): number {
    return this.guard.calibration.ratio(modelID);
  }
  /** The agent of the session's current (or last) turn in this tab. */
  agentOf(sessionID: string): string | undefined {
    return this.agentLoop.agentOf(sessionID);
  }
  /** The system prompt and tools of the session's last request in this tab. */
  lastRequest(sessionID: string): RequestRecord | undefined {
    return this.agentLoop.lastRequest(sessionID);
  }
  /** The system prompt and tool specs of the session's next request (for the views that size it). */
  requestShape(sessionID: string): Promise<{ system: string[]; tools: LLMToolSpec[] } | undefined> {
    return this.agentLoop.requestShape(sessionID);
  }
  /**
   * Whether a request is being prepared in this tab (a prompt written, a step sized and sent, until its answer
   * starts): work a view can put off (sizing the next request over a long history) waits for `whenQuiet`.
   */
  get preparing(): boolean {
    return this.guard.preparing;
  }
  /** Resolves when no request is being prepared in this tab. */
  whenQuiet(): Promise<void> {
    return this.guard.whenQuiet();
  }
  /** Exact counts of system sections and tool specs the loop (or a view) has made, by text. */
  get countMemo(): CountMemo {
    return this.guard.memo;
  }
  /** Automatic summaries waiting for the user's answer (the grace), by session. */
  getPendingSummaries = (): ReadonlyMap<string, PendingSummary> => this.grace.get();
  /** The user's answer to a pending automatic summary: start it now, or send without it. */
  chooseSummary(sessionID: string, choice: SummaryChoice): void {
    this.grace.choose(sessionID, choice);
  }
  isBusy(sessionID: string): boolean {
    return this.runs.has(sessionID);
  }

  private setStatus(sessionID: string, status: SessionStatus): void {
    if (status.type === "idle") this.statuses.delete(sessionID);
    else this.statuses.set(sessionID, status);
    this.notify();
  }

  private notify(): void {
    this.statusSnapshot = new Map(this.statuses);
    for (const l of this.listeners) l();
  }

  /** Sets a `/goal` and starts working on it (a new goal replaces the old one). */
  async setGoal(sessionID: string, spec: GoalSpec): Promise<void> {
    await this.goals.set(sessionID, spec);
    this.ensureRunning(sessionID);
  }

  /** Resumes an active goal this tab is not working on (after a reload, Stop or an error). */
  async resumeGoal(sessionID: string): Promise<void> {
    await this.goals.resume(sessionID);
    this.ensureRunning(sessionID);
  }

  async createSession(opts: { title?: string; directory?: string; demo?: boolean } = {}): Promise<Session> {
    const now = this.deps.clock.now();
    const session: Session = {
      id: descendingId("ses", now),
      title: opts.title ?? defaultTitle(now),
      directory: opts.directory ?? "/workspace",
      version: this.deps.version,
      time: { created: now, updated: now },
      tokens: emptyTokens(),
      cost: 0,
      unpriced: 0,
      ...(opts.demo ? { demo: true } : {}),
    };
    await this.store.createSession(session);
    return session;
  }

  /** Adds a user message and makes sure the loop runs. A prompt sent during a run is picked up by that run. */
  async prompt(sessionID: string, input: PromptInput): Promise<UserMessage> {
    // From now until the answer starts, background counting waits (see `ContextGuard.foreground`).
    this.agentLoop.foreground(sessionID);
    const reserved = this.reserveRun(sessionID, input);
    let written: WrittenPrompt;
    try {
      written = await this.writePrompt(sessionID, input);
    } catch (e) {
      this.releaseReservation(sessionID, reserved);
      throw e;
    }
    // The run that starts for this prompt takes the session's row from the prompt's own transaction: read again,
    // it queued behind the frame that paints the prompt (see AGENTS.md, "The send path").
    this.ensureRunning(sessionID, reserved, written.session);
    return written.user;
  }

  /**
   * The run lock for the prompt's run, asked for while the prompt is written: the lock's round trip
   * to the browser (and the frame the written prompt paints, which the grant used to wait behind)
   * no longer stands between the write and the request. Only for a session with no run here;
   * an edit starts no early run (it must see the session idle everywhere).
   */
  private reserveRun(sessionID: string, input: PromptInput): RunReservation | undefined {
    if (input.editOf || this.runs.has(sessionID) || this.reservations.has(sessionID)) return undefined;
    const reserved = this.deps.locks?.reserve?.(sessionID);
    if (!reserved) return undefined;
    let end: () => void = () => undefined;
    const gone = new Promise<void>((resolve) => {
      end = resolve;
    });
    this.reservations.set(sessionID, { reserved, gone, end });
    return reserved;
  }

  /** The reservation is used by its run or given back: later runs of the session ask for the lock themselves. */
  private settleReservation(sessionID: string, reserved: RunReservation): void {
    const entry = this.reservations.get(sessionID);
    if (entry?.reserved !== reserved) return;
    this.reservations.delete(sessionID);
    entry.end();
  }

  private releaseReservation(sessionID: string, reserved: RunReservation | undefined): void {
    if (!reserved) return;
    this.settleReservation(sessionID, reserved);
    reserved.cancel();
  }

  /** Writes a user message (under the session's prompt lock: two tabs sending at once queue as two turns). */
  private writePrompt(sessionID: string, input: PromptInput): Promise<WrittenPrompt> {
    const { clock, llm, bus } = this.deps;
    const ctx: PromptContext = {
      store: this.store,
      clock,
      llm,
      bus,
      model: (s: Session) => this.deps.model(s),
      titleModel: (s: Session) => summaryModelFor(this.deps.settings(), this.deps.model(s)),
      isBusy: (id: string) => this.isBusy(id),
      sandboxOf: (id: string) => this.sandboxOf(id),
      assertIdleEverywhere: (id: string) => this.assertIdleEverywhere(id),
      dropped: (id: string, messages: MessageWithParts[]) => this.historyDropped(id, messages),
      backgroundAfter: (id: string) => this.agentLoop.answerStarted(id, BACKGROUND_WAIT_MS),
    };
    const locks = this.deps.locks;
    return locks?.write ? locks.write(sessionID, () => writePrompt(ctx, sessionID, input)) : writePrompt(ctx, sessionID, input);
  }

  /** Frees what deleted messages alone used: their saved outputs now, snapshot storage through the app. */
  private async historyDropped(sessionID: string, dropped: MessageWithParts[]): Promise<void> {
    if (dropped.length === 0) return;
    const sandbox = await this.sandboxOf(sessionID);
    if (sandbox) await dropSavedOutputs(sandbox, dropped, await this.store.messages(sessionID)).catch(() => undefined);
    this.deps.historyDropped?.(sessionID);
  }

  private async sandboxOf(sessionID: string): Promise<Sandbox | undefined> {
    return this.deps.sandbox?.(sessionID).catch(() => undefined);
  }

  /** Shows another alternative at a message's branch point (±1); the workspace follows the branch. */
  async switchBranch(sessionID: string, messageID: string, step: number): Promise<void> {
    await this.assertIdleEverywhere(sessionID);
    await switchBranch(this.store, await this.sandboxOf(sessionID), sessionID, messageID, step);
  }

  /** Shows the branch a message is on (a search hit elsewhere in the tree); the workspace follows the branch. */
  async showBranchOf(sessionID: string, messageID: string): Promise<void> {
    await this.assertIdleEverywhere(sessionID);
    await showBranchOf(this.store, await this.sandboxOf(sessionID), sessionID, messageID);
  }

  /** Rewrites a summary's text (refused while the session runs anywhere). */
  async editSummary(sessionID: string, messageID: string, text: string): Promise<void> {
    await this.assertIdleEverywhere(sessionID);
    await editSummary(this.store, sessionID, messageID, text);
  }

  rename(sessionID: string, title: string): Promise<Session | undefined> {
    return renameSession(this.store, sessionID, title);
  }

  archive(sessionID: string, archived: boolean): Promise<Session | undefined> {
    return setArchived(this.store, sessionID, archived, this.deps.clock.now());
  }

  setRules(sessionID: string, rules: Ruleset): Promise<Session | undefined> {
    return setSessionRules(this.store, sessionID, rules);
  }

  /** Switches the session's model: the next step uses it. */
  setModel(sessionID: string, model: { providerID: string; modelID: string }): Promise<Session | undefined> {
    return setSessionModel(this.store, sessionID, model);
  }

  /** Accepts, edits or dismisses a pin (the Pinned panel); sent from the next request on. */
  async savePin(sessionID: string, pin: Pin): Promise<{ ok: true } | { ok: false; error: string }> {
    const { savePin } = await import("./pin-edits");
    return savePin(this.store, sessionID, pin);
  }

  /** Adds the user's own goal or constraint (`/pin`, "Pin as constraint", the panel); one already in force is not added again, and a notice says so. */
  async addPin(
    sessionID: string,
    input: { kind: Pin["kind"]; text: string; messageID?: string },
  ): Promise<{ ok: true; pin: Pin; already?: "pinned" | "suggested" } | { ok: false; error: string }> {
    const [{ addPin, alreadyPinnedText }, session, all] = await Promise.all([import("./pin-edits"), this.store.getSession(sessionID), messagesToRead(this.store, sessionID)]);
    // The suggestions in force come from the branch shown, as in the Pinned panel.
    const history = session ? conversationView(session, all).shown : [];
    const r = await addPin(this.store, sessionID, { ...input, history, now: this.deps.clock.now() });
    if (r.ok && r.already) this.deps.bus.publish({ type: "session.notice", sessionID, message: alreadyPinnedText(r.pin, r.already) });
    return r;
  }

  async removePin(sessionID: string, pin: Pin): Promise<void> {
    const { deletePin } = await import("./pin-edits");
    return deletePin(this.store, sessionID, pin);
  }

  /** "Start fresh from here": a linked child session with the parent's pins, and the brief to send first. */
  async startFresh(sessionID: string, messageID: string): Promise<{ session: Session; brief: string; filesAt: string | undefined }> {
    const { startFresh } = await import("./fresh");
    return startFresh(this.store, { sessionID, messageID, now: this.deps.clock.now() });
  }

  /**
   * Starts the loop unless it is already running; returns when the run ends. `written`: the session's row as a
   * prompt written a moment ago left it (a new run's first look uses it instead of reading it again).
   */
  ensureRunning(sessionID: string, reserved?: RunReservation, written?: Session): Promise<void> {
    const existing = this.runs.get(sessionID);
    // A run here already answers the prompt: the lock asked for it is not needed.
    if (existing) this.releaseReservation(sessionID, reserved);
    // A stopped run is unwinding: it will not look at new prompts, so a fresh run starts once it is gone.
    if (existing?.controller.signal.aborted) return existing.done.then(() => this.ensureRunning(sessionID));
    if (existing) return existing.done;
    if (reserved) this.settleReservation(sessionID, reserved);
    else {
      // A prompt being written holds the run lock it asked for: its run answers this too (asking now would find the lock taken, as if by another tab).
      const pending = this.reservations.get(sessionID);
      if (pending) return pending.gone.then(() => this.ensureRunning(sessionID));
    }
    const controller = new AbortController();
    let first = written;
    const locks = this.deps.locks ?? noLocks;
    const hold = <T>(fn: () => Promise<T>, onBlocked: () => void): Promise<T> => (reserved ? reserved.run(fn, onBlocked) : locks.run(sessionID, fn, onBlocked));
    const done = (async () => {
      this.setStatus(sessionID, { type: "busy" });
      try {
        await hold(
          // Kept in memory only while this tab holds the session's lock (prompts other tabs queue are read before the run stops).
          async () => {
            this.mirror?.hold(sessionID);
            try {
              await this.agentLoop.run(sessionID, controller.signal, first);
              // A goal goes on after each turn that left it unmet.
              while (await this.goals.next(sessionID, controller.signal)) await this.agentLoop.run(sessionID, controller.signal);
            } finally {
              this.mirror?.release(sessionID);
            }
          },
          () => {
            // The run here starts after the other tab's, which changes the row meanwhile: its first look reads it.
            first = undefined;
            this.deps.bus.publish({
              type: "session.notice",
              sessionID,
              message: "This session is running in another tab. Your message is saved; that tab answers it, or this one will when that run ends.",
            });
          },
        );
      } catch (e) {
        console.error("session loop failed", e);
        this.deps.bus.publish({ type: "session.error", sessionID, error: namedError("UnknownError", { message: e instanceof Error ? e.message : String(e) }) });
      } finally {
        this.runs.delete(sessionID);
        this.setStatus(sessionID, { type: "idle" });
      }
    })();
    this.runs.set(sessionID, { controller, done });
    return done;
  }

  abort(sessionID: string): void {
    this.runs.get(sessionID)?.controller.abort();
    this.deps.permissions.cancelSession(sessionID);
  }

  /** Aborts the session's run and waits until its last writes are done. */
  async stop(sessionID: string): Promise<void> {
    const run = this.runs.get(sessionID);
    this.abort(sessionID);
    await run?.done;
  }

  /** Whether another tab is running this session right now. */
  async runningElsewhere(sessionID: string): Promise<boolean> {
    if (this.isBusy(sessionID)) return false;
    return (this.deps.locks ?? noLocks).held(sessionID);
  }

  /** Marks work left unfinished by a closed tab as interrupted (skipped while another tab runs it). */
  async repair(sessionID: string): Promise<number> {
    const locks = this.deps.locks ?? noLocks;
    const runStarted = async () => this.isBusy(sessionID) || (await locks.held(sessionID));
    if (await runStarted()) return 0;
    return repairSession(this.store, sessionID, this.deps.clock.now(), () => this.sandboxOf(sessionID), runStarted);
  }

  /** What "Compact now" (or "Summarise up to here" on `upTo`) would fold: messages, tokens, the summary's size. */
  async previewCompaction(sessionID: string, upTo?: string): Promise<CompactionPreview> {
    const session = await this.store.getSession(sessionID);
    const { sent } = conversationView(session, await messagesToRead(this.store, sessionID));
    const tail = upTo ? turnAfter(sent, upTo) : undefined;
    return compactionPreview(sent, this.guard.encodingFor(this.deps.model(session)), tail);
  }

  /**
   * Asks for a summary of the session now (the "Compact now" button); runs even when auto-compaction is off.
   * With `upTo` ("Summarise up to here"), the turns after that message's turn are kept verbatim.
   */
  async compact(sessionID: string, opts: { upTo?: string } = {}): Promise<void> {
    await this.assertIdleEverywhere(sessionID);
    const session = await this.store.getSession(sessionID);
    if (!session) return;
    const { next, sent } = conversationView(session, await messagesToRead(this.store, sessionID));
    const tailStartID = opts.upTo ? turnAfter(sent, opts.upTo) : undefined;
    await this.guard.request(session, tailStartID ? { auto: false, mode: "transcript", tailStartID } : { auto: false });
    // Attach the request to the branch being shown (it is the newest message, but maybe not on the newest branch).
    const request = (await messagesToRead(this.store, sessionID)).at(-1)?.info;
    if (request?.role === "user") await this.store.upsertMessage({ ...request, prev: next });
    await this.ensureRunning(sessionID);
  }

  /** Refuses while busy (revert, fork and the like need an idle session). */
  assertIdle(sessionID: string): void {
    if (this.isBusy(sessionID)) throw new BusyError(sessionID);
  }

  /** Like assertIdle, and also refuses while another tab runs the session. */
  async assertIdleEverywhere(sessionID: string): Promise<void> {
    this.assertIdle(sessionID);
    if (await (this.deps.locks ?? noLocks).held(sessionID)) throw new BusyError(sessionID, "it is running in another tab");
  }
}
