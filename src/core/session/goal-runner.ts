import type { Bus } from "../bus";
import { conversationView } from "../conversation/view";
import type { Clock } from "../ports/clock";
import type { Store } from "../ports/store";
import type { Goal, Session, UserMessage } from "../schema";
import { messagesToRead } from "./read-messages";
import { budgetWouldPass, formatBudget, GOAL_STALL_TURNS, goalContinueText, goalDoneCall, type GoalSpec, goalStalled, goalStartText, goalUsage, lastStep, type StepUse, tokenTotal } from "./goal";
import { formatUSD } from "../util/money";

export interface GoalRunnerDeps {
  store: Store;
  clock: Clock;
  bus: Bus;
  /** Writes a synthetic user message of the goal (a system event in the UI) on the shown branch. */
  write(sessionID: string, text: string, kind: "start" | "continue"): Promise<UserMessage>;
  /** Something the UI shows changed (armed or not). */
  changed(): void;
}

/**
 * Runs `/goal`s. A goal is stored on the session; this tab keeps working on it
 * only while it is *armed* here (set or resumed in this tab, not stopped, no
 * error): after a reload the goal is still `active` but not armed, so the UI
 * asks "Resume goal?" instead of spending the budget on its own.
 */
export class GoalRunner {
  private readonly armed = new Set<string>();

  constructor(private readonly deps: GoalRunnerDeps) {}

  isArmed(sessionID: string): boolean {
    return this.armed.has(sessionID);
  }

  private arm(sessionID: string, on: boolean): void {
    if (on === this.armed.has(sessionID)) return;
    if (on) this.armed.add(sessionID);
    else this.armed.delete(sessionID);
    this.deps.changed();
  }

  /** Sets a goal (replacing any other) and arms it; the caller starts the run. */
  async set(sessionID: string, spec: GoalSpec): Promise<Goal> {
    const { store, clock } = this.deps;
    const session = await store.getSession(sessionID);
    if (!session) throw new Error("This session no longer exists.");
    const start = { tokens: tokenTotal(session.tokens), cost: session.cost };
    const message = await this.deps.write(sessionID, goalStartText(spec), "start");
    const goal: Goal = {
      ...spec,
      state: "active",
      start,
      messageID: message.id,
      continues: 0,
      time: { created: clock.now() },
    };
    await store.updateSession(sessionID, (s) => ({ ...s, goal }));
    // One meaning of "goal": the objective becomes the session's pinned goal too (kept through every summary).
    const { addPin } = await import("./pin-edits");
    await addPin(store, sessionID, { kind: "goal", text: spec.objective, messageID: message.id, now: clock.now() });
    this.arm(sessionID, true);
    return goal;
  }

  /** Arms an active goal again (after a reload, a Stop or an error) and asks the model to continue. */
  async resume(sessionID: string): Promise<void> {
    const session = await this.deps.store.getSession(sessionID);
    const goal = session?.goal;
    if (!session || goal?.state !== "active") throw new Error("There is no goal to resume.");
    // The same rule as before each step: resuming must not write a "continue" the next step would refuse.
    const last = lastStep(conversationView(session, await messagesToRead(this.deps.store, sessionID)).shown);
    if (budgetWouldPass(session, goal, last)) {
      await this.end(session, goal, "spent", undefined, last);
      throw new Error(`The goal's budget (${formatBudget(goal.budget)}) has no room for another step.`);
    }
    await this.continueWith(session, goal);
    this.arm(sessionID, true);
  }

  /** The user ends the goal (the session keeps everything it did). */
  async stop(sessionID: string): Promise<void> {
    const session = await this.deps.store.getSession(sessionID);
    if (session?.goal?.state === "active") await this.end(session, session.goal, "stopped");
    this.arm(sessionID, false);
  }

  /** Removes an ended goal from the session (the bar goes away). */
  async clear(sessionID: string): Promise<void> {
    this.arm(sessionID, false);
    await this.deps.store.updateSession(sessionID, (s) => ({
      ...s,
      goal: undefined,
    }));
  }

  /** Before a step: true when the armed goal's budget is spent or the step would go past it (the run stops there). */
  async overBudget(session: Session, last?: StepUse): Promise<boolean> {
    const goal = session.goal;
    if (!this.armed.has(session.id) || goal?.state !== "active" || !budgetWouldPass(session, goal, last)) return false;
    await this.end(session, goal, "spent", undefined, last);
    return true;
  }

  /**
   * After a run ended: true when the goal goes on (a "continue toward the
   * goal" message was written; run again). Stops on the model's `goal_done`,
   * a spent budget, a Stop, or an error (then the UI offers to resume).
   */
  async next(sessionID: string, signal: AbortSignal): Promise<boolean> {
    if (!this.armed.has(sessionID)) return false;
    const session = await this.deps.store.getSession(sessionID);
    const goal = session?.goal;
    if (signal.aborted || !session || goal?.state !== "active") {
      this.arm(sessionID, false);
      return false;
    }
    const { shown } = conversationView(session, await this.deps.store.messages(sessionID));
    const done = goalDoneCall(shown, goal);
    if (done) {
      await this.end(session, goal, done.outcome, done.summary);
      return false;
    }
    const last = lastStep(shown);
    if (budgetWouldPass(session, goal, last)) {
      await this.end(session, goal, "spent", undefined, last);
      return false;
    }
    // A turn that failed (or never got an answer) is the user's to look at first.
    const newest = shown.at(-1)?.info;
    if (newest?.role !== "assistant" || newest.error) {
      this.arm(sessionID, false);
      return false;
    }
    // A model that only answers in words is not working toward the goal: paused (still active), so the user
    // decides whether another "continue" is worth its budget.
    if (goalStalled(shown, goal)) {
      this.arm(sessionID, false);
      this.deps.bus.publish({
        type: "session.notice",
        sessionID,
        message: `Goal paused: the model's last ${GOAL_STALL_TURNS} answers called no tool, so it is not getting closer to the goal. Resume it to try again, or give it directions.`,
      });
      return false;
    }
    await this.continueWith(session, goal);
    return true;
  }

  private async continueWith(session: Session, goal: Goal): Promise<void> {
    await this.deps.write(session.id, goalContinueText(goal, session), "continue");
    await this.deps.store.updateSession(session.id, (s) => (s.goal?.messageID === goal.messageID ? { ...s, goal: { ...s.goal, continues: s.goal.continues + 1 } } : s));
  }

  private async end(session: Session, goal: Goal, state: Goal["state"], result?: string, last?: StepUse): Promise<void> {
    const { store, clock, bus } = this.deps;
    this.arm(session.id, false);
    const ended: Goal = {
      ...goal,
      state,
      end: { tokens: tokenTotal(session.tokens), cost: session.cost },
      time: { ...goal.time, ended: clock.now() },
      ...(result ? { result } : {}),
    };
    await store.updateSession(session.id, (s) => (s.goal?.messageID === goal.messageID ? { ...s, goal: ended } : s));
    const used = goalUsage(session, goal);
    const amount = (tokens: number, cost: number) => (goal.budget.kind === "cost" ? formatUSD(cost) : `${tokens.toLocaleString("en-US")} tokens`);
    const spent = amount(used.tokens, used.cost);
    const message =
      state === "met"
        ? `Goal met: ${result || goal.objective}`
        : state === "blocked"
          ? `Goal paused: the model needs you. ${result ?? ""}`.trim()
          : state === "spent"
            ? used.fraction < 1 && last
              ? `Goal stopped within its budget of ${formatBudget(goal.budget)}: ${spent} used, and a step takes about ${amount(tokenTotal(last.tokens), last.cost)}.`
              : `Goal stopped: its budget of ${formatBudget(goal.budget)} is spent (${spent} used).`
            : "Goal stopped.";
    bus.publish({ type: "session.notice", sessionID: session.id, message });
  }
}
