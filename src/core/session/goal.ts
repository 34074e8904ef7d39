import type { Goal, GoalBudget, MessageWithParts, Session, Tokens } from "../schema";
import { GOAL_DONE_TOOL, GoalDoneInput } from "../tools/goal-done-input";

/**
 * `/goal` (pure parts): the command's syntax, what a goal has used, and the
 * texts tabcode sends for it. `GoalRunner` (goal-runner.ts) runs it.
 *
 *   /goal <objective> [until <condition>] [budget <N>[k|M] tokens | budget $<X>]
 */

export { GOAL_DONE_TOOL };

export const GOAL_SYNTAX = "/goal <objective> [until <condition>] [budget 200k tokens | budget $2]";
export const DEFAULT_GOAL_BUDGET: GoalBudget = {
  kind: "tokens",
  limit: 200_000,
};

export interface GoalSpec {
  objective: string;
  until?: string;
  budget: GoalBudget;
}

export type ParsedGoal = { ok: true; spec: GoalSpec } | { ok: false; error: string };

/** Reads a budget: `200k tokens`, `50000 tokens`, `1.5M tokens`, `$2`, `$0.50`. */
export function parseBudget(text: string): GoalBudget | undefined {
  const t = text.trim();
  const cost = /^\$\s*(\d+(?:\.\d+)?)$/.exec(t) ?? /^(\d+(?:\.\d+)?)\s*(?:\$|usd|dollars?)$/i.exec(t);
  if (cost) {
    const limit = Number(cost[1]);
    return limit > 0 ? { kind: "cost", limit } : undefined;
  }
  const tokens = /^(\d+(?:\.\d+)?)\s*([km])?\s*(?:tokens?)?$/i.exec(t);
  if (!tokens) return undefined;
  const unit = (tokens[2] ?? "").toLowerCase();
  const limit = Math.round(Number(tokens[1]) * (unit === "k" ? 1_000 : unit === "m" ? 1_000_000 : 1));
  return limit > 0 ? { kind: "tokens", limit } : undefined;
}

/** Splits at the last ` <word> ` (case-insensitive), so the objective may use the word itself. */
function splitLast(text: string, word: string, atStart = false): [string, string | undefined] {
  const re = new RegExp(`${atStart ? "(?:^|\\s)" : "\\s"}${word}\\s`, "gi");
  let at = -1;
  let len = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    at = m.index;
    len = m[0].length;
  }
  return at < 0 ? [text, undefined] : [text.slice(0, at), text.slice(at + len)];
}

/** Parses the argument of `/goal`; errors are in words for the user. */
export function parseGoal(arg: string): ParsedGoal {
  // Padded at the end only: a keyword needs a word before it ("Until done" is an objective).
  let rest = `${arg.trim()} `;
  let budget = DEFAULT_GOAL_BUDGET;
  const [beforeBudget, budgetText] = splitLast(rest, "budget", true);
  if (budgetText !== undefined) {
    const b = parseBudget(budgetText);
    if (!b)
      return {
        ok: false,
        error: `The budget “${budgetText.trim()}” is not one tabcode reads: write e.g. budget 200k tokens or budget $2.`,
      };
    budget = b;
    rest = `${beforeBudget} `;
  }
  const [objectiveText, untilText] = splitLast(rest, "until");
  const objective = objectiveText.trim();
  const until = untilText?.trim();
  if (!objective) return { ok: false, error: `Say what the goal is: ${GOAL_SYNTAX}` };
  if (objective.length > 2_000)
    return {
      ok: false,
      error: "The goal is too long (at most 2,000 characters).",
    };
  if (untilText !== undefined && !until)
    return {
      ok: false,
      error: "Say when to stop after “until”, e.g. until the tests pass.",
    };
  if (until && until.length > 1_000)
    return {
      ok: false,
      error: "The stop condition is too long (at most 1,000 characters).",
    };
  return { ok: true, spec: { objective, ...(until ? { until } : {}), budget } };
}

/** Every token a session's steps sent and received (cached input included). */
export function tokenTotal(t: Tokens): number {
  return t.input + t.output + t.reasoning + t.cache.read + t.cache.write;
}

/** What the goal has used so far, and the fraction of its budget (may exceed 1). */
export function goalUsage(session: Pick<Session, "tokens" | "cost">, goal: Goal): { tokens: number; cost: number; fraction: number } {
  const tokens = Math.max(0, tokenTotal(session.tokens) - goal.start.tokens);
  const cost = Math.max(0, session.cost - goal.start.cost);
  const fraction = goal.budget.kind === "tokens" ? tokens / goal.budget.limit : cost / goal.budget.limit;
  return { tokens, cost, fraction };
}

export function budgetSpent(session: Pick<Session, "tokens" | "cost">, goal: Goal): boolean {
  return goalUsage(session, goal).fraction >= 1;
}

export function formatBudget(b: GoalBudget): string {
  return b.kind === "cost" ? `$${b.limit.toFixed(2)}` : `${b.limit.toLocaleString("en-US")} tokens`;
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
  const spent = goal.budget.kind === "cost" ? `$${used.cost.toFixed(2)}` : `${used.tokens.toLocaleString("en-US")} tokens`;
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
