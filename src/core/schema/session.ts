import { z } from "zod";
import { ModelRef, Ruleset, Tokens } from "./common";

/**
 * Something the user wants kept in every request, whatever compaction does:
 * the session's goal or a constraint. Pins suggested from the user's own
 * messages are derived on the fly (core/pins); a stored record overrides one
 * (accepted, edited or dismissed) or adds the user's own.
 */
export const Pin = z.object({
  id: z.string().min(1),
  kind: z.enum(["goal", "constraint"]),
  text: z.string().min(1).max(2_000),
  /** `suggested`: found in a user message, in force until dismissed; `accepted`: confirmed or added by the user; `dismissed`: not sent. */
  state: z.enum(["suggested", "accepted", "dismissed"]),
  /** The user message it came from. */
  messageID: z.string().optional(),
  time: z.number(),
});
export type Pin = z.infer<typeof Pin>;

/** A conversation: the root record that owns messages and their parts. */
export const Session = z.object({
  id: z.string().startsWith("ses_"),
  title: z.string(),
  /** Set for child sessions (subagent runs). */
  parentID: z.string().optional(),
  /** The working directory of the session inside the sandbox. */
  directory: z.string(),
  /** The app version that created it. */
  version: z.string(),
  time: z.object({
    created: z.number(),
    updated: z.number(),
    compacting: z.number().optional(),
    archived: z.number().optional(),
  }),
  /** Session-level permission rules, appended after the global ones. */
  permission: Ruleset.optional(),
  /** Soft revert state: messages at or after `messageID` are hidden until the next prompt. */
  revert: z
    .object({
      messageID: z.string(),
      partID: z.string().optional(),
      snapshot: z.string().optional(),
      diff: z.string().optional(),
    })
    .optional(),
  share: z.object({ url: z.string() }).optional(),
  /** Selected branch at each branch point: `prev` key → chosen user message id (default: the newest). */
  branches: z.record(z.string(), z.string()).optional(),
  /** Runs on the built-in demo model whatever the settings (the demo and sample sessions). */
  demo: z.boolean().optional(),
  /** Where this session was forked from. */
  fork: z.object({ sessionID: z.string(), messageID: z.string() }).optional(),
  /** Running totals over every step of every assistant message. */
  tokens: Tokens,
  cost: z.number().nonnegative(),
  agent: z.string().optional(),
  model: ModelRef.optional(),
  /** Pinned goal and constraints the user accepted, edited, dismissed or added (suggestions live in the messages). */
  pins: z.array(Pin).max(200).optional(),
});
export type Session = z.infer<typeof Session>;

export const DEFAULT_TITLE_PREFIX = "New session – ";
export function defaultTitle(now: number): string {
  return `${DEFAULT_TITLE_PREFIX}${new Date(now).toISOString().slice(0, 16).replace("T", " ")}`;
}
export function isDefaultTitle(title: string): boolean {
  return title.startsWith(DEFAULT_TITLE_PREFIX);
}
