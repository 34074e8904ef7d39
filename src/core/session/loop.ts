import type { Bus, SessionStatus } from "../bus";
import { BusyError, namedError } from "../errors";
import { ascendingId, descendingId } from "../ids";
import type { PermissionBroker } from "../permission/broker";
import { buildSystem } from "../prompt/system";
import type { Clock } from "../ports/clock";
import type { LLM, LLMMessage, LLMToolSpec, ModelConfig } from "../ports/llm";
import type { Sandbox } from "../ports/sandbox";
import type { Store } from "../ports/store";
import { type AssistantMessage, defaultTitle, emptyTokens, isDefaultTitle, type MessageWithParts, type Part, type Ruleset, type Session, type ToolPart, type UserMessage } from "../schema";
import type { Settings } from "../settings";
import type { Tool } from "../tools/tool";
import { toModelMessages } from "../conversation/to-model";
import { type ConversationView, conversationView, snapshotAt } from "../conversation/view";
import { applyCacheMarkers } from "../compaction/cache-markers";
import type { TokenCounter } from "../tokens/counter";
import type { CountMemo, RequestSize } from "../tokens/request-size";
import { ContextGuard, MAX_AUTO_COMPACTIONS_PER_PROMPT } from "./context-guard";
import { MirrorStore } from "./mirror-store";
import { type MovePolicy, nextMove } from "./next-move";
import { siblings } from "../conversation/branches";
import { editSummary, enterBranch, leaveBranch, renameSession, setArchived, setSessionRules, snapshotBefore, switchBranch } from "./edits";
import { type Locks, noLocks } from "../ports/locks";
import { syncShownRules } from "../rules/nested";
import { repairSession } from "./repair";
import { commitRevert } from "./revert";
import { runStep, type StepResult } from "./step";
import { generateTitle } from "./title";

export const MAX_STEPS_PROMPT =
  "I have reached the maximum number of steps for this turn. I must not call any more tools. I will now answer in text: a summary of what was done and what remains.";

export interface SessionServiceDeps {
  store: Store;
  llm: LLM;
  clock: Clock;
  bus: Bus;
  permissions: PermissionBroker;
  settings(): Settings;
  /** The model a session runs on (the settings' model, or the demo model for demo sessions). */
  model(session?: Session): ModelConfig;
  /** Tools offered to the model for an agent in a session (tools denied by `deny *` removed); may load them first. */
  tools(agent: string, session: Session): Tool[] | Promise<Tool[]>;
  sandbox?(sessionID: string): Promise<Sandbox | undefined>;
  /** The system prompt sections ([header, rest]); defaults to the base prompt and environment. */
  system?(input: SystemInput): Promise<string[]>;
  locks?: Locks;
  /** Exact token counts (a tokenizer); estimates (chars/4) when absent. */
  counter?: TokenCounter;
  /** Keep a running session's messages in memory (default); `false` re-reads storage on every look (benchmarks). */
  mirror?: boolean;
  version: string;
}

export interface SystemInput {
  session: Session;
  model: ModelConfig;
  sandbox: Sandbox | undefined;
  agent: string;
  /** The user message's own system text. */
  userSystem?: string;
  /** The session's tool state (to seed what instruction files the prompt already holds). */
  toolState: Map<string, unknown>;
  /** The shown branch as stored (before compaction): where pinned suggestions come from. */
  history?: MessageWithParts[];
}

/** What the last request of a session held (for the debug view). */
export interface RequestRecord {
  system: string[];
  tools: LLMToolSpec[];
  time: number;
  /** How the request was sized: the tokenizer's exact count, or an estimate (tokenizer still loading, or failed). */
  count: "exact" | "estimate";
}

export interface PromptInput {
  text: string;
  /** Edit-and-resend: the user message this one is an alternative to (a new branch). */
  editOf?: string;
  agent?: string;
  files?: { mime: string; filename: string; url: string }[];
}

interface Run {
  controller: AbortController;
  done: Promise<void>;
}

/**
 * The session service: creates sessions, takes prompts, runs the agent loop
 * (spec §2.2) and exposes per-session status to the UI.
 */
export class SessionService {
  private runs = new Map<string, Run>();
  private statuses = new Map<string, SessionStatus>();
  private toolState = new Map<string, Map<string, unknown>>();
  private sessionDates = new Map<string, string>();
  private agents = new Map<string, string>();
  private requests = new Map<string, RequestRecord>();
  private listeners = new Set<() => void>();
  private statusSnapshot: ReadonlyMap<string, SessionStatus> = new Map();

  private readonly guard: ContextGuard;
  /** The running sessions' messages in memory (see MirrorStore); off only to measure without it. */
  private readonly mirror: MirrorStore | undefined;
  /** Every read and write of the service goes through here. */
  private readonly store: Store;

  constructor(private readonly deps: SessionServiceDeps) {
    this.mirror = deps.mirror === false ? undefined : new MirrorStore(deps.store);
    this.store = this.mirror ?? deps.store;
    this.guard = new ContextGuard({ store: this.store, llm: deps.llm, clock: deps.clock, bus: deps.bus, settings: deps.settings, counter: deps.counter });
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
    return this.agents.get(sessionID);
  }
  /** The system prompt and tools of the session's last request in this tab. */
  lastRequest(sessionID: string): RequestRecord | undefined {
    return this.requests.get(sessionID);
  }
  /**
   * The system prompt and tool specs the session's next request carries, for
   * the views that size it (`nextRequestSize`): this tab's last request, or —
   * after a reload — built as the loop would build them (the newest prompt's agent).
   */
  async requestShape(sessionID: string): Promise<{ system: string[]; tools: LLMToolSpec[] } | undefined> {
    const last = this.requests.get(sessionID);
    if (last) return { system: last.system, tools: last.tools };
    const session = await this.store.getSession(sessionID);
    if (!session) return undefined;
    const view = conversationView(session, await this.store.messages(sessionID));
    const user = view.latest.lastUser?.info;
    // A preview: built on a copy of the tool state, so nothing a run reads is changed.
    const req = await this.buildRequest(session, this.deps.model(session), user?.agent ?? session.agent ?? "build", user?.system, view.shown, new Map(this.stateFor(sessionID)));
    return { system: req.system, tools: req.specs };
  }
  /** Exact counts of system sections and tool specs the loop (or a view) has made, by text. */
  get countMemo(): CountMemo {
    return this.guard.memo;
  }
  isBusy(sessionID: string): boolean {
    return this.runs.has(sessionID);
  }

  private setStatus(sessionID: string, status: SessionStatus): void {
    if (status.type === "idle") this.statuses.delete(sessionID);
    else this.statuses.set(sessionID, status);
    this.statusSnapshot = new Map(this.statuses);
    for (const l of this.listeners) l();
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
      ...(opts.demo ? { demo: true } : {}),
    };
    await this.store.createSession(session);
    return session;
  }

  /** Adds a user message and makes sure the loop runs. A prompt sent during a run is picked up by that run. */
  async prompt(sessionID: string, input: PromptInput): Promise<UserMessage> {
    // Two tabs sending at once: the second computes its place after the first is written, so both queue as turns.
    const locks = this.deps.locks;
    const user = locks?.write ? await locks.write(sessionID, () => this.writePrompt(sessionID, input)) : await this.writePrompt(sessionID, input);
    this.ensureRunning(sessionID);
    return user;
  }

  private async writePrompt(sessionID: string, input: PromptInput): Promise<UserMessage> {
    const store = this.store;
    const { clock } = this.deps;
    const session = await store.getSession(sessionID);
    if (!session) throw new Error(`Session ${sessionID} not found`);
    // After a revert, the new prompt takes the reverted turn's place (in the branch that was reverted).
    let revertKey: string | undefined;
    if (session.revert && !this.isBusy(sessionID)) {
      revertKey = siblings(await store.messages(sessionID), session.revert.messageID).key;
      await commitRevert(store, session);
    }
    const model = this.deps.model(session);
    const now = clock.now();
    const all = await store.messages(sessionID);
    // Edit-and-resend: the old branch keeps its files; the new one starts from the files as they were before the edited message.
    const sandbox = input.editOf ? await this.sandboxOf(sessionID) : undefined;
    if (input.editOf) {
      await this.assertIdleEverywhere(sessionID);
      const v = conversationView(session, all);
      await leaveBranch(store, sandbox, v);
      // The new branch starts from the files as they were before the edited message (files first, then the branch).
      const at = v.shown.findIndex((m) => m.info.id === input.editOf);
      await enterBranch(sandbox, snapshotBefore(all, input.editOf) ?? (at >= 0 ? snapshotAt(v.shown.slice(0, at)) : undefined));
    }
    const prev = input.editOf ? siblings(all, input.editOf).key : (revertKey ?? conversationView(session, all).next);
    const user: UserMessage = {
      id: ascendingId("msg", now),
      sessionID,
      role: "user",
      time: { created: now },
      agent: input.agent ?? session.agent ?? "build",
      model: { providerID: model.provider, modelID: model.modelID },
      prev,
    };
    // Parts first: a running loop that reads in between must never see a user message without its text.
    await store.upsertPart({ id: ascendingId("prt"), sessionID, messageID: user.id, type: "text", text: input.text });
    for (const f of input.files ?? [])
      await store.upsertPart({ id: ascendingId("prt"), sessionID, messageID: user.id, type: "file", mime: f.mime, filename: f.filename, url: f.url });
    await store.upsertMessage(user);
    await store.updateSession(sessionID, (s) => ({
      ...s,
      agent: user.agent,
      model: user.model,
      time: { ...s.time, updated: now },
      // A new branch (an edit, or the prompt that replaces a reverted turn) becomes the one shown.
      ...(input.editOf || revertKey !== undefined ? { branches: { ...s.branches, [prev]: user.id } } : {}),
    }));
    this.maybeTitle(session, input.text);
    return user;
  }

  private async sandboxOf(sessionID: string): Promise<Sandbox | undefined> {
    return this.deps.sandbox?.(sessionID).catch(() => undefined);
  }

  /** Shows another alternative at a message's branch point (±1); the workspace follows the branch. */
  async switchBranch(sessionID: string, messageID: string, step: number): Promise<void> {
    await this.assertIdleEverywhere(sessionID);
    await switchBranch(this.store, await this.sandboxOf(sessionID), sessionID, messageID, step);
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

  /** Starts the loop unless it is already running; returns when the run ends. */
  ensureRunning(sessionID: string): Promise<void> {
    const existing = this.runs.get(sessionID);
    // A stopped run is unwinding: it will not look at new prompts, so a fresh run starts once it is gone.
    if (existing?.controller.signal.aborted) return existing.done.then(() => this.ensureRunning(sessionID));
    if (existing) return existing.done;
    const controller = new AbortController();
    const locks = this.deps.locks ?? noLocks;
    const done = (async () => {
      this.setStatus(sessionID, { type: "busy" });
      try {
        await locks.run(
          sessionID,
          // Kept in memory only while this tab holds the session's lock (prompts other tabs queue are read before the run stops).
          async () => {
            this.mirror?.hold(sessionID);
            try {
              await this.loop(sessionID, controller.signal);
            } finally {
              this.mirror?.release(sessionID);
            }
          },
          () =>
            this.deps.bus.publish({
              type: "session.notice",
              sessionID,
              message: "This session is running in another tab. Your message is saved; that tab answers it, or this one will when that run ends.",
            }),
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
    if (this.isBusy(sessionID)) return 0;
    if (await (this.deps.locks ?? noLocks).held(sessionID)) return 0;
    return repairSession(this.store, sessionID, this.deps.clock.now(), () => this.sandboxOf(sessionID));
  }

  /** The agent loop (spec §2.2): look at the conversation, let `nextMove` decide, do it, look again. */
  private async loop(sessionID: string, signal: AbortSignal): Promise<void> {
    const { clock } = this.deps;
    const store = this.store;
    await repairSession(store, sessionID, clock.now(), () => this.sandboxOf(sessionID));
    const guard = this.guard;
    const turn = new TurnCounter(this.deps.settings().maxSteps);
    let checkedElsewhere = false;
    while (!signal.aborted) {
      const session = await store.getSession(sessionID);
      if (!session) return;
      const view = conversationView(session, await store.messages(sessionID));
      const user = view.latest.lastUser;
      if (!user) break;
      turn.look(guard.latestPrompt(view.shown), user.info.id);
      const policy: MovePolicy = { decide: (v, size) => guard.decide(sessionID, v.sent, size, model), summariesLeft: turn.summariesLeft };
      const model = this.deps.model(session);
      let move = nextMove(view, undefined, policy);
      if (move.kind === "done") {
        // Before stopping, look once at storage itself: another tab may have queued a prompt.
        if (checkedElsewhere || !this.mirror) break;
        this.mirror.refresh(sessionID);
        checkedElsewhere = true;
        continue;
      }
      checkedElsewhere = false;
      // Nested AGENTS.md count as shown only while a read that carried them is still sent.
      syncShownRules(this.stateFor(sessionID), view.sent);
      const req = await this.turnRequest(session, model, user.info.agent, user.info.system, view.shown);
      if (move.kind === "compact") {
        const pending = await guard.runPending(sessionID, view.sent, model, signal, { system: req.system, tools: req.specs, cacheKey: sessionID });
        // After a manual summary, a prompt sent while it was written is still owed an answer.
        if (pending === "stop" && (signal.aborted || !(await this.newerPrompt(sessionID, user.info.id)))) break;
        continue;
      }
      const size = await guard.measure(req.system, view.sent, req.specs, model, sessionID);
      move = nextMove(view, size, policy);
      if (move.kind === "prune") await guard.prune(move.parts);
      else if (move.kind === "summarize") {
        const { mode, tailStartID } = move;
        await turn.summarize(() => guard.request(session, { auto: true, mode, tailStartID }));
      }
      if (move.kind !== "send") continue;
      // Stopped while measuring or building the request: nothing was asked, so nothing is recorded.
      if (signal.aborted) break;
      const result = await this.sendStep(session, model, view, req, turn.step(), signal, size);
      if (result === "compact") {
        // Reactive: the provider said the request was too large. Summarise, then replay the last prompt — capped per prompt.
        if (turn.summariesLeft <= 0) break;
        await turn.summarize(() => guard.request(session, { auto: true, overflow: true }));
        continue;
      }
      // A prompt queued during this turn is still owed an answer, even if this turn stopped.
      if ((result === "stop" || turn.lastStep) && (signal.aborted || !(await this.newerPrompt(sessionID, user.info.id)))) break;
    }
  }

  /** The next request's fixed parts (also what a cached-prefix summary re-sends). */
  private async turnRequest(session: Session, model: ModelConfig, agent: string, userSystem: string | undefined, history: MessageWithParts[]): Promise<TurnRequest> {
    this.agents.set(session.id, agent);
    return this.buildRequest(session, model, agent, userSystem, history);
  }

  private async buildRequest(session: Session, model: ModelConfig, agent: string, userSystem: string | undefined, history: MessageWithParts[], toolState = this.stateFor(session.id)): Promise<TurnRequest> {
    const sandbox = await this.sandboxOf(session.id);
    const tools = await this.deps.tools(agent, session);
    const system = this.deps.system
      ? await this.deps.system({ session, model, sandbox, agent, userSystem, toolState, history })
      : buildSystem({ model, directory: sandbox?.root ?? session.directory, sandbox: sandbox ? `${sandbox.kind} (in-browser)` : "none", date: this.sessionDate(session) });
    return { sandbox, agent, tools, toolState, system, specs: tools.map((t) => t.spec()) };
  }

  /** One step: a new assistant message answering the newest prompt, streamed and its tools run. */
  private async sendStep(session: Session, model: ModelConfig, view: ConversationView, req: TurnRequest, isLastStep: boolean, signal: AbortSignal, size: RequestSize): Promise<StepResult> {
    const { clock } = this.deps;
    const store = this.store;
    const parentID = view.latest.lastUser?.info.id ?? "";
    const messages: LLMMessage[] = applyCacheMarkers(toModelMessages(view.sent));
    if (isLastStep) messages.push({ role: "assistant", content: [{ type: "text", text: MAX_STEPS_PROMPT }] });
    this.requests.set(session.id, { system: req.system, tools: req.specs, time: clock.now(), count: size.exact ? "exact" : "estimate" });
    this.guard.sent(session.id);
    const assistant: AssistantMessage = {
      id: ascendingId("msg", clock.now()),
      sessionID: session.id,
      role: "assistant",
      parentID,
      time: { created: clock.now() },
      modelID: model.modelID,
      providerID: model.provider,
      agent: req.agent,
      cost: 0,
      tokens: emptyTokens(),
    };
    await store.upsertMessage(assistant);
    const result = await runStep(
      { store, llm: this.deps.llm, clock, bus: this.deps.bus, permissions: this.deps.permissions, autoCompact: this.deps.settings().compaction.auto },
      {
        session,
        assistant,
        model,
        tools: req.tools,
        sandbox: req.sandbox,
        toolState: req.toolState,
        recentTools: turnTools(view.sent, parentID),
        signal,
        request: { model, system: req.system, messages, tools: req.specs, maxOutputTokens: Math.min(model.maxOutputTokens, 32_000), cacheKey: session.id, purpose: "chat" },
      },
    );
    this.guard.observe(model, assistant, size);
    return result;
  }

  private async newerPrompt(sessionID: string, userID: string): Promise<boolean> {
    const session = await this.store.getSession(sessionID);
    return conversationView(session, await this.store.messages(sessionID)).shown.some((m) => m.info.role === "user" && m.info.id > userID);
  }

  /** Asks for a summary of the session now (the "Compact now" button); runs even when auto-compaction is off. */
  async compact(sessionID: string): Promise<void> {
    await this.assertIdleEverywhere(sessionID);
    const session = await this.store.getSession(sessionID);
    if (!session) return;
    const { next } = conversationView(session, await this.store.messages(sessionID));
    await this.guard.request(session, { auto: false });
    // Attach the request to the branch being shown (it is the newest message, but maybe not on the newest branch).
    const request = (await this.store.messages(sessionID)).at(-1)?.info;
    if (request?.role === "user") await this.store.upsertMessage({ ...request, prev: next });
    await this.ensureRunning(sessionID);
  }

  private stateFor(sessionID: string): Map<string, unknown> {
    let s = this.toolState.get(sessionID);
    if (!s) {
      s = new Map();
      this.toolState.set(sessionID, s);
    }
    return s;
  }

  private sessionDate(session: Session): string {
    let d = this.sessionDates.get(session.id);
    if (!d) {
      d = new Date(this.deps.clock.now()).toDateString();
      this.sessionDates.set(session.id, d);
    }
    return d;
  }

  private maybeTitle(session: Session, text: string): void {
    if (session.parentID || !isDefaultTitle(session.title)) return;
    const store = this.store;
    const { bus } = this.deps;
    void (async () => {
      const msgs = await store.messages(session.id);
      const realUsers = msgs.filter((m) => m.info.role === "user" && m.parts.some((p) => p.type === "text" && !p.synthetic));
      if (realUsers.length !== 1) return;
      const title = await generateTitle(this.deps.llm, this.deps.model(session), text, AbortSignal.timeout(60_000));
      if (!title) return;
      const updated = await store.updateSession(session.id, (s) => (isDefaultTitle(s.title) ? { ...s, title } : s));
      if (updated?.title === title) bus.publish({ type: "session.title", sessionID: session.id, title });
    })().catch(() => undefined);
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

function turnTools(msgs: MessageWithParts[], userID: string): ToolPart[] {
  const out: ToolPart[] = [];
  for (const m of msgs)
    if (m.info.role === "assistant" && m.info.parentID === userID)
      for (const p of m.parts as Part[]) if (p.type === "tool") out.push(p);
  return out;
}

/** The fixed parts of the next request. */
interface TurnRequest {
  sandbox: Sandbox | undefined;
  agent: string;
  tools: Tool[];
  toolState: Map<string, unknown>;
  system: string[];
  specs: LLMToolSpec[];
}

/** Steps per prompt (max steps) and automatic summaries per prompt a person sent. */
class TurnCounter {
  private steps = 0;
  private stepsFor: string | undefined;
  private promptID: string | undefined;
  private summaries = 0;
  lastStep = false;

  constructor(private readonly maxSteps: number) {}

  /** Called with the newest prompt a person sent and the newest user message (replays and continues included). */
  look(promptID: string | undefined, userID: string): void {
    if (promptID !== this.promptID) {
      this.promptID = promptID;
      this.summaries = 0;
    }
    if (userID !== this.stepsFor) {
      this.stepsFor = userID;
      this.steps = 0;
    }
  }

  get summariesLeft(): number {
    return MAX_AUTO_COMPACTIONS_PER_PROMPT - this.summaries;
  }

  async summarize(request: () => Promise<void>): Promise<void> {
    this.summaries++;
    await request();
  }

  /** Counts a step; true when it is the last one allowed. */
  step(): boolean {
    this.steps++;
    this.lastStep = this.steps >= this.maxSteps;
    return this.lastStep;
  }
}
