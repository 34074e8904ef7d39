import type { Bus, SessionStatus } from "../bus";
import { BusyError, namedError } from "../errors";
import { ascendingId, descendingId } from "../ids";
import type { PermissionBroker } from "../permission/broker";
import { buildSystem } from "../prompt/system";
import type { Clock } from "../ports/clock";
import type { LLM, LLMMessage, LLMToolSpec, ModelConfig } from "../ports/llm";
import type { Sandbox } from "../ports/sandbox";
import type { Store } from "../ports/store";
import { type AssistantMessage, defaultTitle, emptyTokens, isDefaultTitle, type MessageWithParts, type Part, type Session, type ToolPart, type UserMessage } from "../schema";
import type { Settings } from "../settings";
import type { Tool } from "../tools/tool";
import { applyRevert, filterCompacted, isTurnDone, latest, toModelMessages } from "./history";
import { applyCacheMarkers } from "../compaction/cache-markers";
import type { TokenCounter } from "../tokens/counter";
import { ContextGuard, MAX_AUTO_COMPACTIONS_PER_RUN } from "./context-guard";
import { activePath, nextPrev, siblings } from "./branches";
import { repairSession } from "./repair";
import { commitRevert } from "./revert";
import { runStep, type StepResult } from "./step";
import { generateTitle } from "./title";

export const MAX_STEPS_PROMPT =
  "I have reached the maximum number of steps for this turn. I must not call any more tools. I will now answer in text: a summary of what was done and what remains.";

/** Cross-tab exclusivity for runs (Web Locks in the browser). */
export interface Locks {
  /**
   * Runs `fn` holding the session's lock. When another tab holds it, calls
   * `onBlocked` and waits for it (that tab answers queued prompts; what is left
   * is answered here afterwards).
   */
  run<T>(sessionID: string, fn: () => Promise<T>, onBlocked: () => void): Promise<T>;
  /** Whether some tab currently holds the session's lock. */
  held(sessionID: string): Promise<boolean>;
  /**
   * Runs `fn` holding the session's short write lock, which serialises prompt
   * writes across tabs (the new message's place in the branch is computed and
   * written under it). Optional: without it, writes are not serialised.
   */
  write?<T>(sessionID: string, fn: () => Promise<T>): Promise<T>;
}

export const noLocks: Locks = {
  run: (_id, fn) => fn(),
  held: async () => false,
};

export interface SessionServiceDeps {
  store: Store;
  llm: LLM;
  clock: Clock;
  bus: Bus;
  permissions: PermissionBroker;
  settings(): Settings;
  /** The model a session runs on (the settings' model, or the demo model for demo sessions). */
  model(session?: Session): ModelConfig;
  /** Tools offered to the model for an agent in a session (tools denied by `deny *` removed). */
  tools(agent: string, session: Session): Tool[];
  sandbox?(sessionID: string): Promise<Sandbox | undefined>;
  /** The system prompt sections ([header, rest]); defaults to the base prompt and environment. */
  system?(input: SystemInput): Promise<string[]>;
  locks?: Locks;
  /** Exact token counts (a tokenizer); estimates (chars/4) when absent. */
  counter?: TokenCounter;
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
}

/** What the last request of a session held (for the debug view). */
export interface RequestRecord {
  system: string[];
  tools: LLMToolSpec[];
  time: number;
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

  constructor(private readonly deps: SessionServiceDeps) {
    this.guard = new ContextGuard({ store: deps.store, llm: deps.llm, clock: deps.clock, bus: deps.bus, settings: deps.settings, counter: deps.counter });
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
    await this.deps.store.createSession(session);
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
    const { store, clock } = this.deps;
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
    const path = activePath(all, session.branches);
    if (input.editOf) await this.assertIdleEverywhere(sessionID);
    const prev = input.editOf ? siblings(all, input.editOf).key : (revertKey ?? nextPrev(path));
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

  /** Starts the loop unless it is already running; returns when the run ends. */
  ensureRunning(sessionID: string): Promise<void> {
    const existing = this.runs.get(sessionID);
    if (existing) return existing.done;
    const controller = new AbortController();
    const locks = this.deps.locks ?? noLocks;
    const done = (async () => {
      this.setStatus(sessionID, { type: "busy" });
      try {
        await locks.run(
          sessionID,
          () => this.loop(sessionID, controller.signal),
          () =>
            this.deps.bus.publish({
              type: "session.error",
              sessionID,
              error: namedError("UnknownError", { message: "This session is running in another tab. Your message is saved; that tab answers it, or this one will when that run ends." }),
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
    return repairSession(this.deps.store, sessionID, this.deps.clock.now());
  }

  private async loop(sessionID: string, signal: AbortSignal): Promise<void> {
    const { store, clock } = this.deps;
    await repairSession(store, sessionID, clock.now());
    const maxSteps = this.deps.settings().maxSteps;
    const guard = this.guard;
    let step = 0;
    let stepsFor: string | undefined;
    let autoCompactions = 0;
    while (!signal.aborted) {
      const session = await store.getSession(sessionID);
      if (!session) return;
      const msgs = filterCompacted(applyRevert(activePath(await store.messages(sessionID), session.branches), session.revert?.messageID));
      const model = this.deps.model(session);
      const l = latest(msgs);
      if (!l.lastUser) break;
      // Max steps counts the steps answering one prompt: a new prompt (queued, replayed) starts again.
      if (l.lastUser.info.id !== stepsFor) {
        stepsFor = l.lastUser.info.id;
        step = 0;
      }

      // The next request's fixed parts: also what a cached-prefix summary re-sends.
      const sandbox = await this.deps.sandbox?.(sessionID).catch(() => undefined);
      const agent = l.lastUser.info.agent;
      this.agents.set(sessionID, agent);
      const tools = this.deps.tools(agent, session);
      const toolState = this.stateFor(sessionID);
      const system = this.deps.system
        ? await this.deps.system({ session, model, sandbox, agent, userSystem: l.lastUser.info.system, toolState })
        : buildSystem({ model, directory: sandbox?.root ?? session.directory, sandbox: sandbox ? `${sandbox.kind} (in-browser)` : "none", date: this.sessionDate(session) });
      const specs = tools.map((t) => t.spec());

      // A compaction request (manual, or created below) is a task of its own.
      const pending = await guard.runPending(sessionID, msgs, model, signal, { system, tools: specs, cacheKey: sessionID });
      if (pending === "stop") {
        // A prompt sent while the summary was written is still owed an answer.
        const pendingID = msgs.filter((m) => m.info.role === "user").at(-1)?.info.id;
        if (!signal.aborted && pendingID && (await this.newerPrompt(sessionID, pendingID))) continue;
        break;
      }
      if (pending === "continue") continue;
      if (isTurnDone(l)) break;

      // Before the call: our exact count of what is about to be sent, and the policy's decision on it.
      const size = await guard.measure(system, msgs, specs, model);
      const decision = guard.decide(sessionID, msgs, size, model);
      if (decision.kind === "prune" && decision.parts.length > 0) {
        await guard.prune(decision.parts);
        continue;
      }
      if (decision.kind === "summarize" && autoCompactions < MAX_AUTO_COMPACTIONS_PER_RUN && msgs.length > 1) {
        autoCompactions++;
        await guard.request(session, { auto: true, mode: decision.mode === "cached-prefix" ? "cached-prefix" : "transcript", tailStartID: decision.tailStartID });
        continue;
      }

      step++;
      const isLastStep = step >= maxSteps;
      const messages: LLMMessage[] = applyCacheMarkers(toModelMessages(msgs));
      if (isLastStep) messages.push({ role: "assistant", content: [{ type: "text", text: MAX_STEPS_PROMPT }] });
      this.requests.set(sessionID, { system, tools: specs, time: clock.now() });
      guard.sent(sessionID);
      const assistant: AssistantMessage = {
        id: ascendingId("msg", clock.now()),
        sessionID,
        role: "assistant",
        parentID: l.lastUser.info.id,
        time: { created: clock.now() },
        modelID: model.modelID,
        providerID: model.provider,
        agent,
        cost: 0,
        tokens: emptyTokens(),
      };
      await store.upsertMessage(assistant);
      const result: StepResult = await runStep(
        { store, llm: this.deps.llm, clock, bus: this.deps.bus, permissions: this.deps.permissions, autoCompact: this.deps.settings().compaction.auto },
        {
          session,
          assistant,
          model,
          tools,
          sandbox,
          toolState,
          recentTools: turnTools(msgs, l.lastUser.info.id),
          signal,
          request: { model, system, messages, tools: specs, maxOutputTokens: Math.min(model.maxOutputTokens, 32_000), cacheKey: sessionID, purpose: "chat" },
        },
      );
      guard.observe(model, assistant, size);
      if (result === "compact") {
        // Reactive: the provider said the request was too large. Summarise, then replay the last prompt — once.
        if (autoCompactions >= MAX_AUTO_COMPACTIONS_PER_RUN) break;
        autoCompactions++;
        await guard.request(session, { auto: true, overflow: true });
        continue;
      }
      if (result === "stop" || isLastStep) {
        // A prompt queued during this turn is still owed an answer, even if this turn stopped.
        if (!signal.aborted && (await this.newerPrompt(sessionID, l.lastUser.info.id))) continue;
        break;
      }
    }
  }

  private async newerPrompt(sessionID: string, userID: string): Promise<boolean> {
    const session = await this.deps.store.getSession(sessionID);
    const path = activePath(await this.deps.store.messages(sessionID), session?.branches);
    return path.some((m) => m.info.role === "user" && m.info.id > userID);
  }

  /** Asks for a summary of the session now (the "Compact now" button); runs even when auto-compaction is off. */
  async compact(sessionID: string): Promise<void> {
    await this.assertIdleEverywhere(sessionID);
    const session = await this.deps.store.getSession(sessionID);
    if (!session) return;
    const path = activePath(await this.deps.store.messages(sessionID), session.branches);
    await this.guard.request(session, { auto: false });
    // Attach the request to the branch being shown (it is the newest message, but maybe not on the newest branch).
    const request = (await this.deps.store.messages(sessionID)).at(-1)?.info;
    if (request?.role === "user") await this.deps.store.upsertMessage({ ...request, prev: nextPrev(path) });
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
    const { store, bus } = this.deps;
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
