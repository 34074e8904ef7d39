import type { GoalBudget } from "../schema";

/**
 * The syntax of `/goal` and its parser: what the composer needs to check a command as it is typed (the rest of
 * `goal.ts`, what a goal has used and the texts tabcode sends for it, loads with the agent loop).
 *
 *   /goal <objective> [until <condition>] [budget <N>[k|M] tokens | budget $<X>]
 */

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
