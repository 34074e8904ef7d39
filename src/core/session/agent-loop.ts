import { lastStep, type StepUse } from "./goal";
import { applyCacheMarkers } from "../compaction/cache-markers";
import { providerCompactionRequest } from "../compaction/provider-policy";
import { compactionPreview } from "../compaction/preview";
import { pendingCompaction } from "../compaction/summarize";
import { summaryInForce } from "../compaction/after-summary";
import { stillTooLarge } from "../compaction/floor";
import { inputBudget } from "../compaction/overflow";
import { CompactionGrace } from "./compaction-grace";
import type { Settings } from "../settings";
import { toModelMessages } from "../conversation/to-model";
import { type ConversationView, conversationView } from "../conversation/view";
import { unpricedSteps } from "../export/totals";
import { ascendingId } from "../ids";
import { modelMessageOptions } from "../model-media";
import type { LLMMessage, LLMToolSpec, ModelConfig } from "../ports/llm";
import type { Sandbox } from "../ports/sandbox";
import type { Store } from "../ports/store";
import { buildSystem } from "../prompt/system";
import { syncShownRules } from "../rules/nested";
import { type AssistantMessage, emptyTokens, type MessageWithParts, type NamedErrorData, type Session } from "../schema";
import type { RequestSize } from "../tokens/request-size";
import type { ContextGuard } from "./context-guard";
import type { MirrorStore } from "./mirror-store";
import { messagesToRead } from "./read-messages";
import { type MovePolicy, nextMove } from "./next-move";
import { repairSession } from "./repair";
import type { RequestRecord, SessionServiceDeps } from "./service-deps";
import { runStep, type StepResult } from "./step";
import { MAX_STEPS_PROMPT, TurnCounter, type TurnRequest, turnTools } from "./turn";

/** The longest a request counts as being prepared (`ContextGuard.foreground`) when no answer starts (ms). */
const FOREGROUND_MAX_MS = 10_000;

/**
 * The agent loop (spec §2.2) and what it keeps per session in this tab (tool
 * state, agent, last request). `SessionService` owns run control and calls
 * `run` while it holds the session's lock.
 */
export class AgentLoop {
  private toolState = new Map<string, Map<string, unknown>>();
  private sessionDates = new Map<string, string>();
  private agents = new Map<string, string>();
  private requests = new Map<string, RequestRecord>();
  /** Who waits for a session's next answer to start (see `answerStarted`). */
  private waiting = new Map<string, (() => void)[]>();

  constructor(
    private readonly deps: SessionServiceDeps,
    private readonly store: Store,
    private readonly guard: ContextGuard,
    private readonly mirror: MirrorStore | undefined,
    private readonly sandboxOf: (sessionID: string) => Promise<Sandbox | undefined>,
    /** True when the session must not send another step (its `/goal` budget is spent). */
    private readonly overBudget: (session: Session, last: StepUse | undefined) => Promise<boolean> = async () => false,
    /** The pause before an automatic summary (Cancel / Summarise now). */
    private readonly grace: CompactionGrace = new CompactionGrace(deps.clock, () => undefined),
  ) {}

  agentOf(sessionID: string): string | undefined {
    return this.agents.get(sessionID);
  }
  lastRequest(sessionID: string): RequestRecord | undefined {
    return this.requests.get(sessionID);
  }

  /**
   * Resolves when the session's next step has its first answer event in this tab, or when its run ends, or
   * after `maxMs` (another tab may be answering: no run here to say so); nothing is kept after that.
   * Background work for a prompt (its title) waits for it, so it never delays the prompt's own request.
   */
  answerStarted(sessionID: string, maxMs: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        const rest = (this.waiting.get(sessionID) ?? []).filter((w) => w !== done);
        if (rest.length) this.waiting.set(sessionID, rest);
        else this.waiting.delete(sessionID);
        resolve();
      };
      const timer = setTimeout(done, maxMs) as unknown as ReturnType<typeof setTimeout> & { unref?: () => void };
      timer.unref?.();
      this.waiting.set(sessionID, [...(this.waiting.get(sessionID) ?? []), done]);
    });
  }

  /**
   * Marks the session's next request as being prepared (`ContextGuard.foreground`: counts behind earlier
   * requests wait) until its answer's first event, the run's end, or `FOREGROUND_MAX_MS`.
   */
  foreground(sessionID: string): void {
    const release = this.guard.foreground();
    void this.answerStarted(sessionID, FOREGROUND_MAX_MS).then(release);
  }

  /** How many waits for an answer are pending for the session (tests: none is left behind). */
  waitsFor(sessionID: string): number {
    return this.waiting.get(sessionID)?.length ?? 0;
  }

  private answering(sessionID: string): void {
    const waiting = this.waiting.get(sessionID);
    this.waiting.delete(sessionID);
    for (const resolve of waiting ?? []) resolve();
  }

  /** Look at the conversation, let `nextMove` decide, do it, look again. `written`: the session's row as the prompt that started the run left it. */
  async run(sessionID: string, signal: AbortSignal, written?: Session): Promise<void> {
    try {
      await this.runTurns(sessionID, signal, written);
    } finally {
      this.answering(sessionID);
    }
  }

  private async runTurns(sessionID: string, signal: AbortSignal, written?: Session): Promise<void> {
    const { store, guard } = this;
    await repairSession(store, sessionID, this.deps.clock.now(), () => this.sandboxOf(sessionID));
    const turn = new TurnCounter(this.deps.settings().maxSteps);
    let checkedElsewhere = false;
    let first = written;
    while (!signal.aborted) {
      this.foreground(sessionID);
      // The first look takes the row the prompt's transaction just wrote; every later one reads it again.
      const session = first ?? (await store.getSession(sessionID));
      first = undefined;
      if (!session) return;
      const messages = await store.messages(sessionID);
      // A row stored before it counted its unpriced steps gets the count here, once: every message is read and,
      // with the session's lock held, no step or summary is being written (each adds to the count once it is there).
      if (session.unpriced === undefined) await store.updateSession(sessionID, (s) => (s.unpriced === undefined ? { ...s, unpriced: unpricedSteps(messages) } : s));
      const view = conversationView(session, messages);
      const user = view.latest.lastUser;
      if (!user) break;
      turn.look(guard.latestPrompt(view.shown), user.info.id);
      const model = this.deps.model(session);
      /** Tokens of the extra message after the summary in force, counted with the request (the policy leaves it out where it compares with OpenCode). */
      let afterTokens = 0;
      // What the policy works out from this step's view (a walk of the whole history), shared by its questions.
      const reuse = new Map<string, unknown>();
      const policy: MovePolicy = { decide: (v, size) => guard.decide(sessionID, v.sent, size, model, "step", afterTokens, v === view ? reuse : undefined), summariesLeft: turn.summariesLeft };
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
        // The summary request carries the extra message the chat requests carried after the summary in force (same bytes, so a cached-prefix summary is served from cache).
        const before = await this.afterSummary(session, beforePending(view), req, model);
        const prefix = { system: req.system, tools: req.specs, cacheKey: sessionID, ...(before.text ? { afterSummary: before.text } : {}) };
        const pending = await guard.runPending(sessionID, view.sent, model, signal, prefix);
        // After a manual summary, a prompt sent while it was written is still owed an answer.
        if (pending === "stop" && (signal.aborted || !(await this.newerPrompt(sessionID, user.info.id)))) break;
        continue;
      }
      // After a summary: the user's earlier words and anything pinned the request lost, right after the summary (counted with the request).
      const extra = await this.afterSummary(session, view, req, model);
      const size = await guard.measure(extra.text ? [...req.system, extra.text] : req.system, view.sent, req.specs, model, sessionID, reuse);
      afterTokens = extra.text ? guard.sectionTokens(extra.text, model) : 0;
      const request = guard.calibration.apply(model.modelID, size.total);
      turn.measured(request);
      move = nextMove(view, size, policy);
      const floor = { afterSummary: afterTokens, promptID: guard.latestPrompt(view.shown) };
      // Before paying for a summary: when what it keeps verbatim is over the window, none can help. Say so at once.
      // The same for a request we know is over the window (an exact count): the provider would only refuse it.
      const unfixable =
        move.kind === "summarize"
          ? guard.unfixable(view.sent, size, model, { ...floor, replay: false, tailStartID: move.tailStartID })
          : move.kind === "send" && size.exact && !size.estimate && request > inputBudget(model)
            ? (guard.unfixable(view.sent, size, model, { ...floor, replay: true }) ?? (turn.justSummarized ? stillTooLarge(model) : undefined))
            : undefined;
      if (unfixable) {
        await this.refuse(session, view, model, user.info.agent, unfixable);
        break;
      }
      if (move.kind === "prune") await guard.prune(move.parts);
      else if (move.kind === "summarize") {
        const { mode, tailStartID } = move;
        const preview = compactionPreview(view.sent, guard.encodingFor(model), tailStartID);
        // The guided demo (a scripted model on a tiny window) runs through without the pause.
        const graceMs = session.demo ? 0 : (this.deps.compactionGraceMs ?? 0);
        if ((await this.grace.wait(sessionID, preview, graceMs, signal)) === "cancel") {
          turn.decline();
          continue;
        }
        await turn.summarize(() => guard.request(session, { auto: true, mode, tailStartID }), request);
      }
      if (move.kind !== "send") continue;
      // Stopped while measuring or building the request: nothing was asked, so nothing is recorded.
      if (signal.aborted) break;
      if (await this.overBudget(session, lastStep(view.shown))) break;
      const { result, assistant } = await this.sendStep(session, model, view, req, turn.step(), signal, size, extra.messages);
      if (result === "compact") {
        // Reactive: the provider said the request was too large. Summarise, then replay the last prompt — once per
        // prompt, and never when no summary can help: what it keeps is over the window, or a summary made this turn
        // has had no answer since (another would only fold that summary again).
        const said = typeof assistant.error?.data.message === "string" ? assistant.error.data.message : undefined;
        const problem =
          guard.unfixable(view.sent, size, model, { ...floor, replay: true }) ?? (turn.summariesLeft <= 0 || turn.justSummarized ? stillTooLarge(model, said) : undefined);
        if (problem) {
          await this.store.upsertMessage({ ...assistant, error: problem });
          this.deps.bus.publish({ type: "session.error", sessionID, error: problem });
          break;
        }
        // Our count did not see this overflow coming, so it cannot tell whether the summary helped: no size to compare.
        await turn.summarize(() => guard.request(session, { auto: true, overflow: true }));
        continue;
      }
      turn.answered();
      // A prompt queued during this turn is still owed an answer, even if this turn stopped.
      if ((result === "stop" || turn.lastStep) && (signal.aborted || !(await this.newerPrompt(sessionID, user.info.id)))) break;
    }
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
    // Read only (conversationView changes nothing): the screen's own rows where the store shares them (a deep copy of a long session costs tens of milliseconds).
    const view = conversationView(session, await messagesToRead(this.store, sessionID));
    const user = view.latest.lastUser?.info;
    // A preview: built on a copy of the tool state, so nothing a run reads is changed.
    const req = await this.buildRequest(
      session,
      this.deps.model(session),
      user?.agent ?? session.agent ?? "build",
      user?.system,
      view.shown,
      new Map(this.stateFor(sessionID)),
      true,
    );
    return { system: req.system, tools: req.specs };
  }

  /** The next request's fixed parts (also what a cached-prefix summary re-sends). */
  private async turnRequest(
    session: Session,
    model: ModelConfig,
    agent: string,
    userSystem: string | undefined,
    history: MessageWithParts[],
  ): Promise<TurnRequest> {
    this.agents.set(session.id, agent);
    return this.buildRequest(session, model, agent, userSystem, history);
  }

  private async buildRequest(
    session: Session,
    model: ModelConfig,
    agent: string,
    userSystem: string | undefined,
    history: MessageWithParts[],
    toolState = this.stateFor(session.id),
    preview = false,
  ): Promise<TurnRequest> {
    const sandbox = await this.sandboxOf(session.id);
    const [tools, system] = await Promise.all([
      this.deps.tools(agent, session),
      this.deps.system
        ? this.deps.system({ session, model, sandbox, agent, userSystem, toolState, history, ...(preview ? { preview } : {}) })
        : buildSystem({
            model,
            directory: sandbox?.root ?? session.directory,
            sandbox: sandbox ? `${sandbox.kind} (in-browser)` : "none",
            date: this.sessionDate(session),
          }),
    ]);
    return { sandbox, agent, tools, toolState, system, specs: tools.map((t) => t.spec()) };
  }

  /** The next request's messages; after a summary with the extra message (see core/pins/after-compaction), its check stored. */
  private async afterSummary(
    session: Session,
    view: ConversationView,
    req: TurnRequest,
    model: ModelConfig,
  ): Promise<{ messages: LLMMessage[]; text?: string }> {
    const options = modelMessageOptions(model);
    // The code loads only once a summary is in force (its request and the summary come first).
    if (!summaryInForce(view.sent)) return { messages: toModelMessages(view.sent, options) };
    const { requestAfterSummary } = await import("../pins/after-compaction");
    return requestAfterSummary(this.store, session, view, req.system, model, this.deps.clock.now(), options);
  }

  /** One step: a new assistant message answering the newest prompt, streamed and its tools run. */
  private async sendStep(
    session: Session,
    model: ModelConfig,
    view: ConversationView,
    req: TurnRequest,
    isLastStep: boolean,
    signal: AbortSignal,
    size: RequestSize,
    sent: LLMMessage[],
  ): Promise<{ result: StepResult; assistant: AssistantMessage }> {
    const { clock } = this.deps;
    const store = this.store;
    const parentID = view.latest.lastUser?.info.id ?? "";
    const messages: LLMMessage[] = applyCacheMarkers(sent);
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
    const result = await runStep(
      {
        store,
        llm: this.deps.llm,
        clock,
        bus: this.deps.bus,
        permissions: this.deps.permissions,
        autoCompact: this.deps.settings().compaction.auto,
        answered: () => this.answering(session.id),
      },
      {
        session,
        assistant,
        model,
        tools: req.tools,
        sandbox: req.sandbox,
        toolState: req.toolState,
        recentTools: turnTools(view.sent, parentID),
        signal,
        ...(this.deps.userCommandsDone ? { userCommandsDone: (waiting: (command: string) => void) => this.deps.userCommandsDone?.(session.id, waiting) ?? Promise.resolve() } : {}),
        ...(this.deps.userCommand ? { userCommand: () => this.deps.userCommand?.(session.id) } : {}),
        request: {
          model,
          system: req.system,
          messages,
          tools: req.specs,
          maxOutputTokens: Math.min(model.maxOutputTokens, 32_000),
          cacheKey: session.id,
          purpose: "chat",
          ...providerCompactionOption(model, this.deps.settings()),
        },
      },
    );
    this.guard.observe(model, assistant, size);
    return { result, assistant };
  }

  /** Answers the newest user message with `error` and no request: nothing could make the request fit. */
  private async refuse(session: Session, view: ConversationView, model: ModelConfig, agent: string, error: NamedErrorData): Promise<void> {
    const now = this.deps.clock.now();
    await this.store.upsertMessage({
      id: ascendingId("msg", now),
      sessionID: session.id,
      role: "assistant",
      parentID: view.latest.lastUser?.info.id ?? "",
      time: { created: now, completed: now },
      modelID: model.modelID,
      providerID: model.provider,
      agent,
      cost: 0,
      tokens: emptyTokens(),
      error,
    });
    this.deps.bus.publish({ type: "session.error", sessionID: session.id, error });
  }

  private async newerPrompt(sessionID: string, userID: string): Promise<boolean> {
    const session = await this.store.getSession(sessionID);
    return conversationView(session, await this.store.messages(sessionID)).shown.some((m) => m.info.role === "user" && m.info.id > userID);
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
}

function providerCompactionOption(model: ModelConfig, settings: Settings): { providerCompaction?: { threshold: number } } {
  const providerCompaction = providerCompactionRequest(model, settings);
  return providerCompaction ? { providerCompaction } : {};
}

/** The view as the chat requests before the pending compaction request sent it (what that summary folds). */
function beforePending(view: ConversationView): ConversationView {
  const id = pendingCompaction(view.sent)?.message.info.id;
  const at = id === undefined ? -1 : view.sent.findIndex((m) => m.info.id === id);
  return at > 0 ? { ...view, sent: view.sent.slice(0, at) } : view;
}
