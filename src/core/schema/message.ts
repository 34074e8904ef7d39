import { z } from "../zod";
import { ModelRef, NamedErrorSchema, Tokens } from "./common";

const MessageBase = z.object({
  id: z.string().check(z.startsWith("msg_")),
  sessionID: z.string().check(z.startsWith("ses_")),
});

/** A message typed by the user (or injected by the system on the user's side). */
export const UserMessage = z.extend(MessageBase, {
  role: z.literal("user"),
  time: z.object({ created: z.number() }),
  agent: z.string(),
  model: ModelRef,
  /** Extra system text for this turn only. */
  system: z.optional(z.string()),
  /**
   * Branches: the user message whose turn this one follows (`"root"` for the
   * first turn). Two user messages with the same `prev` are alternative
   * branches (an edited and re-sent message). Absent on linear history: the
   * message then follows the turn of the message before it.
   */
  prev: z.optional(z.string()),
});
export type UserMessage = z.infer<typeof UserMessage>;

export const FinishReason = z.string();

/** One answer of the model to a user message; may span several steps. */
export const AssistantMessage = z.extend(MessageBase, {
  role: z.literal("assistant"),
  /** The user message this answers. */
  parentID: z.string(),
  time: z.object({ created: z.number(), completed: z.optional(z.number()) }),
  modelID: z.string(),
  providerID: z.string(),
  agent: z.string(),
  /** True marks a compaction summary. */
  summary: z.optional(z.boolean()),
  /** USD summed over steps. */
  cost: z.number().check(z.nonnegative()),
  /** The last step's usage (overwritten per step, as in the reference). */
  tokens: Tokens,
  finish: z.optional(FinishReason),
  error: z.optional(NamedErrorSchema),
});
export type AssistantMessage = z.infer<typeof AssistantMessage>;

export const Message = z.discriminatedUnion("role", [UserMessage, AssistantMessage]);
export type Message = z.infer<typeof Message>;
