import { z } from "../zod";
import { ModelRef, Ruleset, Tokens } from "./common";

/**
 * Something the user wants kept in every request, whatever compaction does:
 * the session's goal or a constraint. Pins suggested from the user's own
 * messages are derived on the fly (core/pins); a stored record overrides one
 * (accepted, edited or dismissed) or adds the user's own.
 */
export const Pin = z.object({
  id: z.string().check(z.minLength(1)),
  kind: z.enum(["goal", "constraint"]),
  text: z.string().check(z.minLength(1), z.maxLength(2_000)),
  /** `suggested`: found in a user message, in force until dismissed; `accepted`: confirmed or added by the user; `dismissed`: not sent. */
  state: z.enum(["suggested", "accepted", "dismissed"]),
  /** The user message it came from. */
  messageID: z.optional(z.string()),
  time: z.number(),
});
export type Pin = z.infer<typeof Pin>;

/** What a goal may spend: tokens (everything sent and received, cached input included) or US dollars. */
export const GoalBudget = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("tokens"), limit: z.int().check(z.positive()) }),
  z.object({ kind: z.literal("cost"), limit: z.number().check(z.positive()) }),
]);
export type GoalBudget = z.infer<typeof GoalBudget>;

/**
 * A `/goal`: an objective the agent keeps working on across turns until the
 * model declares the stop condition met (`goal_done`) or the budget is spent.
 */
export const Goal = z.object({
  objective: z.string().check(z.minLength(1), z.maxLength(2_000)),
  /** The stop condition, in the user's words (else: the objective is achieved). */
  until: z.optional(z.string().check(z.minLength(1), z.maxLength(1_000))),
  budget: GoalBudget,
  /** `active` until: `met`/`blocked` (the model's `goal_done`), `spent` (budget), `stopped` (the user). */
  state: z.enum(["active", "met", "blocked", "spent", "stopped"]),
  /** The session's totals when the goal was set: what it used is the difference. */
  start: z.object({ tokens: z.number().check(z.nonnegative()), cost: z.number().check(z.nonnegative()) }),
  /** The session's totals when the goal ended: what it used stays that after the session goes on without it. */
  end: z.optional(z.object({ tokens: z.number().check(z.nonnegative()), cost: z.number().check(z.nonnegative()) })),
  /** The message that set the goal; only `goal_done` calls after it count. */
  messageID: z.string(),
  /** "Continue toward the goal" messages sent so far. */
  continues: z.int().check(z.nonnegative()),
  time: z.object({ created: z.number(), ended: z.optional(z.number()) }),
  /** The model's summary when it called `goal_done`. */
  result: z.optional(z.string().check(z.maxLength(4_000))),
});
export type Goal = z.infer<typeof Goal>;

/** A conversation: the root record that owns messages and their parts. */
export const Session = z.object({
  id: z.string().check(z.startsWith("ses_")),
  title: z.string(),
  /** Set for child sessions (subagent runs). */
  parentID: z.optional(z.string()),
  /** The working directory of the session inside the sandbox. */
  directory: z.string(),
  /** The app version that created it. */
  version: z.string(),
  time: z.object({
    created: z.number(),
    updated: z.number(),
    archived: z.optional(z.number()),
  }),
  /** Session-level permission rules, appended after the global ones. */
  permission: z.optional(Ruleset),
  /** The user's "always" answers in this session (allow rules; never beat a configured deny). Not imported. */
  approved: z.optional(Ruleset),
  /** Soft revert state: messages at or after `messageID` are hidden until the next prompt. */
  revert: z.optional(
    z.object({
      messageID: z.string(),
      partID: z.optional(z.string()),
      snapshot: z.optional(z.string()),
      /** The workspace as the revert left it: what changes after it is the user's, and unrevert keeps it. */
      after: z.optional(z.string()),
      diff: z.optional(z.string()),
      /** The files could not go back: the earlier versions of some are not in this browser (an imported session). */
      filesKept: z.optional(z.boolean()),
      /** Files the revert put back that had been changed after the reverted steps, not by the model (the user's own changes). */
      undone: z.optional(z.array(z.string())),
      /** Of those, the ones whose user's version was put back ("Keep my changes"). */
      ownKept: z.optional(z.array(z.string())),
    }),
  ),
  share: z.optional(z.object({ url: z.string() })),
  /** Selected branch at each branch point: `prev` key → chosen user message id (default: the newest). */
  branches: z.optional(z.record(z.string(), z.string())),
  /** Runs on the built-in demo model whatever the settings (the demo and sample sessions). */
  demo: z.optional(z.boolean()),
  /** Where this session was forked from. */
  fork: z.optional(z.object({ sessionID: z.string(), messageID: z.string() })),
  /** Running totals over every step of every assistant message. */
  tokens: Tokens,
  cost: z.number().check(z.nonnegative()),
  /**
   * Steps and summaries that ran on a model with no known price, counted where `cost` is kept (their cost is
   * not in it). Missing on rows stored before it was kept: readers count the messages' `priceUnknown`
   * step-finish parts instead, and the session's next run fills it in. An unreadable count is dropped the same
   * way, never the session.
   */
  unpriced: z.catch(z.optional(z.int().check(z.nonnegative())), undefined),
  agent: z.optional(z.string()),
  model: z.optional(ModelRef),
  /** Pinned goal and constraints the user accepted, edited, dismissed or added (suggestions live in the messages). */
  pins: z.optional(z.array(Pin).check(z.maxLength(200))),
  /** The session's `/goal` (an unreadable one is dropped alone, never the session). */
  goal: z.catch(z.optional(Goal), undefined),
  /** Imported from another agent's history: which tool, its version, the session's id there. Re-imports are keyed by `tool` + `id`. */
  source: z.optional(
    z.object({
      tool: z.string(),
      version: z.optional(z.string()),
      id: z.string(),
      /** The source's own last-update time (ms), to tell an unchanged re-import. */
      updated: z.number(),
      /** When it was imported here (ms). */
      importedAt: z.number(),
    }),
  ),
});
export type Session = z.infer<typeof Session>;

export const DEFAULT_TITLE_PREFIX = "New session – ";
export function defaultTitle(now: number): string {
  return `${DEFAULT_TITLE_PREFIX}${new Date(now).toISOString().slice(0, 16).replace("T", " ")}`;
}
export function isDefaultTitle(title: string): boolean {
  return title.startsWith(DEFAULT_TITLE_PREFIX);
}
