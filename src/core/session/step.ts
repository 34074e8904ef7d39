import type { Bus, SessionStatus } from "../bus";
import { isRetryable, namedError } from "../errors";
import type { PermissionBroker } from "../permission/broker";
import type { Clock } from "../ports/clock";
import type { LLM, LLMEvent, LLMRequest, ModelConfig } from "../ports/llm";
import type { Sandbox } from "../ports/sandbox";
import type { Store } from "../ports/store";
import type { AssistantMessage, NamedErrorData, PatchPart, RetryPart, Session, SnapshotPart, StepFinishPart, StepStartPart, ToolPart } from "../schema";
import { PermissionRefused } from "../permission/ask";
import { userWriteMark, withoutUserWrites } from "../snapshot/user-writes";
import type { Tool, ToolContext } from "../tools/tool";
import { RETRY_MAX_ATTEMPTS, retryDelay, retryMessage } from "../conversation/retry";
import { isServerTool } from "../conversation/server-tool";
import { StepWriter } from "./step-writer";
import { AWAITING_APPROVAL } from "./repair";
import { addStepUse, costOf, toTokens } from "../conversation/usage";
import { retryWait } from "./retry-now";

export const DOOM_LOOP_THRESHOLD = 3;

export type StepResult = "continue" | "stop" | "compact";

export interface StepDeps {
  store: Store;
  llm: LLM;
  clock: Clock;
  bus: Bus;
  permissions: PermissionBroker;
  /** Whether a provider context overflow may trigger compaction. */
  autoCompact: boolean;
  /** Called once, when the answer's first event arrives (the request is out and answered). */
  answered?: () => void;
}

export interface StepInput {
  session: Session;
  assistant: AssistantMessage;
  request: Omit<LLMRequest, "signal">;
  model: ModelConfig;
  tools: Tool[];
  sandbox?: Sandbox;
  toolState: Map<string, unknown>;
  /** Tool calls made earlier in this turn, oldest first (for the doom-loop guard). */
  recentTools: ToolPart[];
  signal: AbortSignal;
  /** Resolves once no command of the person's runs in the terminal: the starting snapshot (and so every tool) waits for it. */
  userCommandsDone?: (waiting: (command: string) => void) => Promise<void>;
  /** The line of the person's command running now, if one does: the status says the step waits for it. */
  userCommand?: () => string | undefined;
}

function parseInput(raw: string): Record<string, unknown> | { __invalid: string } {
  if (raw.trim() === "") return {};
  try {
    const v: unknown = JSON.parse(raw);
    return v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : { __invalid: raw };
  } catch {
    return { __invalid: raw };
  }
}

/** `wait`, or less: Stop ends it (a step must never hang on the person's terminal command). */
function untilAborted(wait: Promise<void>, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const done = () => {
      signal.removeEventListener("abort", done);
      resolve();
    };
    signal.addEventListener("abort", done, { once: true });
    wait.then(done, done);
  });
}

/** Goes on with an iterator whose first result is already on its way; closing the loop closes the iterator. */
async function* resumed<T>(it: AsyncIterator<T>, first: Promise<IteratorResult<T>>): AsyncGenerator<T> {
  try {
    for (let r = await first; !r.done; r = await it.next()) yield r.value;
  } finally {
    await it.return?.();
  }
}

/**
 * Runs one step: stores the new assistant message, streams the model's answer, executes its tool calls,
 * records usage. The request goes out while the message is being stored: its events are handled only
 * once the message is stored, and a failed write stops the request and fails the step as before.
 */
export async function runStep(deps: StepDeps, input: StepInput): Promise<StepResult> {
  // Whether the step has ended, however it ended: what outlives it (the wait for the person's command) says nothing after.
  const life = { ended: false };
  try {
    return await stepBody(deps, input, life);
  } finally {
    life.ended = true;
  }
}

async function stepBody(deps: StepDeps, input: StepInput, life: { ended: boolean }): Promise<StepResult> {
  const { store, clock, bus } = deps;
  const { assistant, signal } = input;
  const w = new StepWriter(store, bus, clock, assistant);
  const running: Promise<void>[] = [];
  let error: NamedErrorData | undefined;
  let blocked = false;
  let finished = false;
  const warnings: string[] = [];
  let finishPart: StepFinishPart | undefined;

  const uploadsMark = userWriteMark();
  // The request goes out while the message and its step-start are stored (one write, off the request's
  // path); the answer's events are handled once they are. A failed write stops the request.
  const early = new AbortController();
  const follow = () => early.abort(signal.reason);
  if (signal.aborted) early.abort(signal.reason);
  else signal.addEventListener("abort", follow, { once: true });
  const request = deps.llm.stream({ ...input.request, signal: early.signal })[Symbol.asyncIterator]();
  const first = request.next();
  let stepStart: StepStartPart;
  try {
    stepStart = await w.begin<StepStartPart>({ type: "step-start" });
  } catch (e) {
    early.abort();
    first.catch(() => undefined);
    void request.return?.(undefined)?.catch(() => undefined);
    signal.removeEventListener("abort", follow);
    throw e;
  }
  // The status while the step waits for the person's command (the wait's own, or a retry's meanwhile).
  let awaiting: string | undefined;
  let retrying = false;
  const sessionID = assistant.sessionID;
  const runningStatus = (): SessionStatus => (awaiting === undefined ? { type: "busy" } : { type: "awaiting-command", command: awaiting });

  // The workspace snapshot this step starts from is taken while the request goes out (it is not
  // on the request's path: on a first send it waits for the sandbox to boot). No tool runs before
  // it is stored on the step-start part, so a revert or a crash repair always has it.
  const sandbox = input.sandbox;
  const userCommandsDone = (): Promise<void> => {
    let over = false;
    let said = false;
    // The person sees what the turn waits for, and that stopping their command (or the turn) ends the wait.
    // Said again when the command waited for changes (this tab's ended, another tab's runs on).
    const say = (command: string) => {
      if (over || input.signal.aborted || (said && awaiting === command)) return;
      said = true;
      awaiting = command;
      if (!retrying) bus.publish({ type: "session.status", sessionID, status: runningStatus() });
    };
    const done = input.userCommandsDone?.(say) ?? Promise.resolve();
    const command = input.signal.aborted ? undefined : input.userCommand?.();
    if (command !== undefined) say(command);
    return untilAborted(done, input.signal).finally(() => {
      over = true;
      if (!said) return;
      awaiting = undefined;
      // A step that failed meanwhile has left the session to the loop (idle, or its next step): nothing to say.
      if (!retrying && !life.ended) bus.publish({ type: "session.status", sessionID, status: runningStatus() });
    });
  };
  const startSnapshot: Promise<string | undefined> = sandbox
    ? userCommandsDone()
        .catch(() => undefined)
        .then(() => safeSnapshot(sandbox))
        .then(async (snapshot) => {
          if (snapshot) await store.upsertPart({ ...stepStart, snapshot }).catch(() => undefined);
          return snapshot;
        })
    : Promise.resolve(undefined);

  /** Notes on the running tool part that a permission question waits for the user (`undefined`: no longer). */
  const awaitingApproval = async (callID: string, nested: boolean | undefined): Promise<void> => {
    const cur = w.tools.get(callID);
    if (cur?.state.status !== "running") return;
    const { [AWAITING_APPROVAL]: _was, ...metadata } = cur.state.metadata ?? {};
    const mark = nested === undefined ? {} : { [AWAITING_APPROVAL]: { since: clock.now(), ...(nested ? { nested: true } : {}) } };
    await w.putTool({ ...cur, state: { ...cur.state, metadata: { ...metadata, ...mark } } });
  };

  /**
   * Asks the broker; a question left to the user is noted on the stored part while it waits, so a reload before
   * the answer says the call waited for approval (repair.ts), not that it was running. The note goes once answered
   * (also when writing it failed).
   */
  const askNoted = async (callID: string, req: Parameters<PermissionBroker["ask"]>[1], nested: boolean): Promise<void> => {
    let noted: Promise<void> | undefined;
    try {
      await deps.permissions.ask(assistant.sessionID, req, { parked: () => (noted = awaitingApproval(callID, nested).catch(() => undefined)) });
    } finally {
      if (noted) await noted.then(() => awaitingApproval(callID, undefined)).catch(() => undefined);
    }
  };

  const execute = async (part: ToolPart, args: Record<string, unknown>): Promise<void> => {
    const tool = input.tools.find((t) => t.id === part.tool);
    const start = part.state.status === "running" ? part.state.time.start : clock.now();
    if (!tool) {
      const names = input.tools.map((t) => t.id).join(", ");
      await w.putTool({ ...part, state: { status: "error", input: args, error: `Unknown tool "${part.tool}". Available tools: ${names}.`, time: { start, end: clock.now() } } });
      return;
    }
    const ctx: ToolContext = {
      sessionID: assistant.sessionID,
      messageID: assistant.id,
      callID: part.callID,
      agent: assistant.agent,
      signal,
      sandbox: input.sandbox,
      state: input.toolState,
      update: (patch) => {
        const cur = w.tools.get(part.callID);
        if (cur?.state.status !== "running") return;
        cur.state = { ...cur.state, title: patch.title ?? cur.state.title, metadata: { ...cur.state.metadata, ...patch.metadata } };
        w.liveTool(cur);
      },
      ask: (req) => askNoted(part.callID, { ...req, title: part.tool, callID: part.callID }, req.metadata?.nested === true),
      rules: deps.permissions.rulesFor(assistant.sessionID),
      refused: (permission, pattern, rule) => deps.permissions.noteRefusal(assistant.sessionID, permission, pattern, rule),
    };
    await startSnapshot;
    const outcome = await tool.run("__invalid" in args ? args.__invalid : args, ctx);
    const cur = w.tools.get(part.callID) ?? part;
    const end = clock.now();
    if (outcome.ok) {
      const r = outcome.result;
      await w.putTool({ ...cur, state: { status: "completed", input: args, output: r.output, title: r.title, metadata: r.metadata ?? {}, time: { start, end }, attachments: r.attachments } });
    } else {
      if (outcome.rejected) blocked = true;
      const meta = cur.state.status === "running" ? cur.state.metadata : undefined;
      await w.putTool({ ...cur, state: { status: "error", input: args, error: outcome.error, metadata: signal.aborted ? { ...meta, interrupted: true } : meta, time: { start, end } } });
    }
  };

  const doomLoop = async (callID: string, tool: string, args: Record<string, unknown>): Promise<void> => {
    const mine = [...w.tools.values()].filter((p) => p.callID !== callID);
    // The new call plus the two before it make three identical calls in a row.
    const recent = [...input.recentTools, ...mine].slice(-(DOOM_LOOP_THRESHOLD - 1));
    if (recent.length < DOOM_LOOP_THRESHOLD - 1) return;
    const same = recent.every((p) => p.tool === tool && p.state.status !== "pending" && JSON.stringify(p.state.input) === JSON.stringify(args));
    if (same) await askNoted(callID, { permission: "doom_loop", patterns: [tool], always: [tool], title: "Repeated tool call", metadata: { tool, input: args } }, false);
  };

  let answered = false;
  const handle = async (ev: LLMEvent): Promise<void> => {
    if (!answered) {
      answered = true;
      deps.answered?.();
    }
    switch (ev.type) {
      case "text-start":
        return w.startText(ev.id, "text");
      case "text-delta":
        return w.delta(ev.id, "text", ev.delta);
      case "text-end":
        return w.endText(ev.id, "text", ev.providerMetadata);
      case "reasoning-start":
        return w.startText(ev.id, "reasoning");
      case "reasoning-delta":
        return w.delta(ev.id, "reasoning", ev.delta);
      case "reasoning-end":
        return w.endText(ev.id, "reasoning", ev.providerMetadata);
      case "tool-input-start": {
        const part = await w.add<ToolPart>({ type: "tool", callID: ev.callID, tool: ev.tool, state: { status: "pending", input: {}, raw: "" } });
        w.tools.set(ev.callID, part);
        w.rawInput.set(ev.callID, "");
        return;
      }
      case "tool-input-delta": {
        const raw = (w.rawInput.get(ev.callID) ?? "") + ev.delta;
        w.rawInput.set(ev.callID, raw);
        const part = w.tools.get(ev.callID);
        if (part && part.state.status === "pending") {
          part.state = { ...part.state, raw };
          bus.publish({ type: "part.live", part: { ...part } });
        }
        return;
      }
      case "tool-call": {
        const args = parseInput(ev.input);
        let part = w.tools.get(ev.callID);
        if (!part) {
          part = await w.add<ToolPart>({ type: "tool", callID: ev.callID, tool: ev.tool, state: { status: "pending", input: {}, raw: ev.input } });
        }
        // Provider state on the call (Gemini thought signatures, OpenAI item ids) goes back with it next request.
        const metadata = ev.providerMetadata ? { ...part.metadata, ...ev.providerMetadata } : part.metadata;
        const runningPart: ToolPart = { ...part, tool: ev.tool, ...(metadata ? { metadata } : {}), state: { status: "running", input: "__invalid" in args ? {} : args, time: { start: clock.now() } } };
        await w.putTool(runningPart);
        running.push(
          (async () => {
            try {
              await doomLoop(ev.callID, ev.tool, args);
            } catch (e) {
              // A plain reject stops the turn; a reject with feedback reaches the model, which goes on.
              if (!(e instanceof PermissionRefused) || e.stopsTurn) blocked = true;
              const cur = w.tools.get(ev.callID) ?? runningPart;
              await w.putTool({ ...cur, state: { status: "error", input: args, error: e instanceof Error ? e.message : "Stopped: repeated tool call", time: { start: clock.now(), end: clock.now() } } });
              return;
            }
            await execute(runningPart, args);
          })(),
        );
        return;
      }
      case "server-tool":
        return writeServerTool(w, clock, ev);
      case "warning":
        warnings.push(ev.message);
        return;
      case "finish": {
        finished = true;
        const tokens = toTokens(ev.usage);
        const cost = costOf(tokens, input.model.prices);
        assistant.finish = ev.reason;
        assistant.cost += cost;
        assistant.tokens = tokens;
        finishPart = await w.add<StepFinishPart>({ type: "step-finish", reason: ev.reason, cost, tokens, ...(ev.rawReason && ev.rawReason !== ev.reason ? { rawReason: ev.rawReason } : {}), ...(warnings.length ? { warnings: [...warnings] } : {}), ...(Object.keys(ev.usage).length === 0 ? { usageUnknown: true } : {}), ...(input.model.pricesUnknown ? { priceUnknown: true } : {}) });
        await store.upsertMessage(assistant);
        await store.updateSession(assistant.sessionID, (s) => ({ ...addStepUse(s, tokens, cost, input.model.pricesUnknown === true), time: { ...s.time, updated: clock.now() } }));
        return;
      }
      case "error":
        error = ev.error;
        return;
    }
  };

  // Attempts: retry only while nothing has been streamed in this attempt.
  for (let attempt = 1; ; attempt++) {
    error = undefined;
    const before = w.order.length;
    try {
      const events = attempt === 1 ? resumed(request, first) : deps.llm.stream({ ...input.request, signal });
      for await (const ev of events) {
        if (signal.aborted) break;
        await handle(ev);
        if (error) break;
      }
    } catch (e) {
      error = namedError("UnknownError", { message: e instanceof Error ? e.message : String(e) });
    }
    if (signal.aborted) break;
    const streamedSomething = w.order.length > before;
    if (error && isRetryable(error) && !streamedSomething && attempt < RETRY_MAX_ATTEMPTS) {
      const delay = retryDelay(attempt, error, clock.now());
      const next = clock.now() + delay;
      await w.add<RetryPart>({ type: "retry", attempt, error, time: { created: clock.now(), next } });
      retrying = true;
      bus.publish({ type: "session.status", sessionID: assistant.sessionID, status: { type: "retry", attempt, message: retryMessage(error), next } });
      // "Retry now" ends the wait early; Stop ends the run.
      const wait = retryWait(assistant.sessionID);
      try {
        await clock.sleep(delay, AbortSignal.any([signal, wait.signal]));
      } catch {
        if (signal.aborted) break;
      } finally {
        wait.done();
        retrying = false;
      }
      // Back to working, or to waiting for the person's command if that wait still lasts.
      bus.publish({ type: "session.status", sessionID: assistant.sessionID, status: runningStatus() });
      continue;
    }
    break;
  }

  signal.removeEventListener("abort", follow);
  await Promise.allSettled(running);
  w.cancelToolWrites();
  await w.closeOpenTexts();

  // Cleanup: anything left pending/running was interrupted.
  for (const part of w.tools.values()) {
    if (isServerTool(part) && part.state.status === "running") {
      // The provider ran it and reported no result in this step: what it was asked is all there is to show.
      await w.putTool({ ...part, state: { status: "completed", input: part.state.input, output: "", title: part.tool, metadata: {}, time: { start: part.state.time.start, end: clock.now() } } });
      continue;
    }
    if (part.state.status === "pending" || part.state.status === "running") {
      const start = part.state.status === "running" ? part.state.time.start : clock.now();
      // A call still being written when the step stopped never ran: the card says so, and keeps what had streamed of it.
      const meta = part.state.status === "running" ? part.state.metadata : { notStarted: true, ...(part.state.raw ? { raw: part.state.raw } : {}) };
      await w.putTool({ ...part, state: { status: "error", input: part.state.input, error: "Tool execution aborted", metadata: { ...meta, interrupted: true }, time: { start, end: clock.now() } } });
    }
  }

  const from = await startSnapshot;
  if (input.sandbox && from) {
    const after = await safeSnapshot(input.sandbox);
    if (after && after !== from) {
      // What the user uploaded meanwhile is theirs: reverting this step must not delete it.
      const changed = await input.sandbox.changed(from, after).catch(() => []);
      const files = await withoutUserWrites(input.sandbox, changed, uploadsMark);
      if (files.length) await w.add<PatchPart>({ type: "patch", hash: from, files });
      // Where this step left the workspace, so a branch can be restored to it (files follow branches).
      if (finishPart) await store.upsertPart({ ...finishPart, snapshot: after });
      else await w.add<SnapshotPart>({ type: "snapshot", snapshot: after });
    }
  }

  if (signal.aborted) {
    assistant.error = namedError("MessageAbortedError", { message: "Stopped by the user" });
  } else if (error) {
    if (error.name === "ContextOverflowError" && deps.autoCompact && !assistant.summary) {
      assistant.error = error;
      assistant.time.completed = clock.now();
      await store.upsertMessage(assistant);
      return "compact";
    }
    assistant.error = error;
    bus.publish({ type: "session.error", sessionID: assistant.sessionID, error });
  } else if (!finished) {
    assistant.error = namedError("StreamError", { message: "The response stream ended before the model finished." });
  }
  assistant.time.completed = clock.now();
  await store.flush();
  await store.upsertMessage(assistant);
  if (signal.aborted || assistant.error || blocked) return "stop";
  return "continue";
}

/** The text shown for a provider-run tool that waits for an approval tabcode cannot give. */
export const SERVER_APPROVAL_MESSAGE = "This provider asks for approval — tabcode cannot grant it here. Approve it in the provider's own console or turn the approval requirement off there.";

/** Writes a provider-run tool (web search, code interpreter, MCP, image generation) as its own tool card. */
async function writeServerTool(w: StepWriter, clock: Clock, ev: Extract<LLMEvent, { type: "server-tool" }>): Promise<void> {
  const input = parseInput(ev.input);
  const args = "__invalid" in input ? {} : input;
  const metadata = { providerExecuted: true };
  let part = w.tools.get(ev.callID);
  if (!part) {
    part = await w.add<ToolPart>({ type: "tool", callID: ev.callID, tool: ev.tool, metadata, state: { status: "running", input: args, time: { start: clock.now() } } });
    w.tools.set(ev.callID, part);
  }
  const start = part.state.status === "running" ? part.state.time.start : clock.now();
  const stateInput = Object.keys(args).length > 0 ? args : part.state.input;
  switch (ev.status) {
    case "called":
      return w.putTool({ ...part, metadata, state: { status: "running", input: stateInput, time: { start } } });
    case "done":
      return w.putTool({ ...part, metadata, state: { status: "completed", input: stateInput, output: ev.output ?? "", title: ev.tool, metadata: {}, time: { start, end: clock.now() } } });
    case "error":
      return w.putTool({ ...part, metadata, state: { status: "error", input: stateInput, error: ev.output ?? "The provider's tool failed.", time: { start, end: clock.now() } } });
    case "approval":
      return w.putTool({ ...part, metadata: { ...metadata, approvalRequested: true }, state: { status: "error", input: stateInput, error: SERVER_APPROVAL_MESSAGE, time: { start, end: clock.now() } } });
  }
}

async function safeSnapshot(sandbox: Sandbox): Promise<string | undefined> {
  try {
    return await sandbox.snapshot();
  } catch {
    return undefined;
  }
}
