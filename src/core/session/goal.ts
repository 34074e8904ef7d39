import type { AssistantMessage, Goal, GoalBudget, MessageWithParts, Session, Tokens } from "../schema";
import { GOAL_DONE_TOOL, GoalDoneInput } from "../tools/goal-done-input";
import type { GoalSpec } from "./goal-syntax";
import { formatUSD } from "../util/money";

/**
 * `/goal` (pure parts): the command's syntax (goal-syntax.ts, re-exported), what a goal has used, and the
 * texts tabcode sends for it. `GoalRunner` (goal-runner.ts) runs it.
 *
 *   /goal <objective> [until <condition>] [budget <N>[k|M] tokens | budget $<X>]
 */

export { GOAL_DONE_TOOL };

export { DEFAULT_GOAL_BUDGET, type GoalSpec, parseBudget, parseGoal } from "./goal-syntax";

/** Every token a session's steps sent and received (cached input included). */
export function tokenTotal(t: Tokens): number {
  return t.input + t.output + t.reasoning + t.cache.read + t.cache.write;
}

/** What the goal has used so far (until it ended), and the fraction of its budget (may exceed 1). */
export function goalUsage(session: Pick<Session, "tokens" | "cost">, goal: Goal): { tokens: number; cost: number; fraction: number } {
  const tokens = Math.max(0, (goal.end?.tokens ?? tokenTotal(session.tokens)) - goal.start.tokens);
  const cost = Math.max(0, (goal.end?.cost ?? session.cost) - goal.start.cost);
  const fraction = goal.budget.kind === "tokens" ? tokens / goal.budget.limit : cost / goal.budget.limit;
  return { tokens, cost, fraction };
}

/** What one step used: the newest finished answer's tokens and cost. */
export type StepUse = Pick<AssistantMessage, "tokens" | "cost">;

/**
 * Whether the goal must stop before the next step: its budget is spent, or the next step would go past it.
 * A step costs about what the last one did (a conversation's requests only grow), so the goal stops under its
 * budget rather than a step over it.
 */
export function budgetWouldPass(session: Pick<Session, "tokens" | "cost">, goal: Goal, last: StepUse | undefined): boolean {
  const used = goalUsage(session, goal);
  if (used.fraction >= 1) return true;
  if (!last) return false;
  return goal.budget.kind === "tokens" ? used.tokens + tokenTotal(last.tokens) > goal.budget.limit : used.cost + last.cost > goal.budget.limit;
}

/**
 * The newest finished answer of a conversation (the step a next one is judged by); none when a summary came
 * after it (the requests shrank: the step before a summary says nothing about the one after).
 */
export function lastStep(msgs: readonly MessageWithParts[]): StepUse | undefined {
  for (let i = msgs.length - 1; i >= 0; i--) {
    const info = msgs[i]?.info;
    if (info?.role !== "assistant") continue;
    if (info.summary) return undefined;
    if (info.finish) return info;
  }
  return undefined;
}

export function formatBudget(b: GoalBudget): string {
  return b.kind === "cost" ? formatUSD(b.limit) : `${b.limit.toLocaleString("en-US")} tokens`;
}

const stopLine = (goal: { until?: string }) => `Stop when: ${goal.until ?? "the goal is achieved"}.`;

/** The first message of a goal (a system event, not the user's words). */
export function goalStartText(spec: GoalSpec): string {
  return [
    "The user set a goal for you to keep working on across turns.",
    `Goal: ${spec.objective}`,
    stopLine(spec),
    `Budget: ${formatBudget(spec.budget)}; tabcode stops the work when it is spent.`,
    `Work toward it step by step. When the stop condition is met, call the ${GOAL_DONE_TOOL} tool with outcome "met" and a short summary; do not call it before. If you cannot go on without the user, call ${GOAL_DONE_TOOL} with outcome "blocked" and say what you need.`,
  ].join("\n");
}

/** The message sent after a turn that ended with the goal unmet. */
export function goalContinueText(goal: Goal, session: Pick<Session, "tokens" | "cost">): string {
  const used = goalUsage(session, goal);
  const spent = goal.budget.kind === "cost" ? formatUSD(used.cost) : `${used.tokens.toLocaleString("en-US")} tokens`;
  return [
    `Continue toward the goal: ${goal.objective}`,
    stopLine(goal),
    `Used so far: ${spent} of ${formatBudget(goal.budget)}.`,
    `If the stop condition is met, call ${GOAL_DONE_TOOL}; otherwise take the next step.`,
  ].join("\n");
}

/** The model's `goal_done` call after the goal was set, if any. */
export function goalDoneCall(msgs: MessageWithParts[], goal: Goal): { outcome: "met" | "blocked"; summary: string } | undefined {
  for (const m of msgs) {
    if (m.info.role !== "assistant" || m.info.id < goal.messageID) continue;
    for (const p of m.parts) {
      if (p.type !== "tool" || p.tool !== GOAL_DONE_TOOL || p.state.status !== "completed") continue;
      const input = GoalDoneInput.safeParse(p.state.input);
      if (input.success) return input.data;
    }
  }
  return undefined;
}

/** How many turns in a row without a tool call make a goal stall (the model answers "continue" with words only). */
export const GOAL_STALL_TURNS = 2;

/**
 * Whether the goal's newest turns made no progress: the last `GOAL_STALL_TURNS` turns since it was set (its
 * start and each "continue", or a message of the user's) were answered without a single tool call. A model
 * that only talks would otherwise be asked to continue until the budget is spent.
 */
export function goalStalled(msgs: readonly MessageWithParts[], goal: Goal): boolean {
  // Whether each answered turn called a tool (a turn not answered yet is left out).
  const turns: boolean[] = [];
  let current: { answered: boolean; acted: boolean } | undefined;
  const close = () => {
    if (current?.answered) turns.push(current.acted);
  };
  for (const m of msgs) {
    if (m.info.id < goal.messageID) continue;
    // A summary (its request and its answer) is tabcode's housekeeping, not a turn of the model's.
    if (m.info.role === "assistant" ? m.info.summary === true : m.parts.some((p) => p.type === "compaction")) continue;
    if (m.info.role === "user") {
      close();
      current = { answered: false, acted: false };
    } else if (current) {
      current.answered = true;
      if (m.parts.some((p) => p.type === "tool")) current.acted = true;
    }
  }
  close();
  return turns.length >= GOAL_STALL_TURNS && turns.slice(-GOAL_STALL_TURNS).every((acted) => !acted);
}
