import { z } from "zod";
import { ModelRef, NamedErrorSchema, Tokens } from "./common";

const MessageBase = z.object({
  id: z.string().startsWith("msg_"),
  sessionID: z.string().startsWith("ses_"),
});

/** A message typed by the user (or injected by the system on the user's side). */
export const UserMessage = MessageBase.extend({
  role: z.literal("user"),
  time: z.object({ created: z.number() }),
  agent: z.string(),
  model: ModelRef,
  /** Extra system text for this turn only. */
  system: z.string().optional(),
  /**
   * Branches: the user message whose turn this one follows (`"root"` for the
   * first turn). Two user messages with the same `prev` are alternative
   * branches (an edited and re-sent message). Absent on linear history: the
   * message then follows the turn of the message before it.
   */
  prev: z.string().optional(),
});
export type UserMessage = z.infer<typeof UserMessage>;

export const FinishReason = z.string();

/** One answer of the model to a user message; may span several steps. */
export const AssistantMessage = MessageBase.extend({
  role: z.literal("assistant"),
  /** The user message this answers. */
  parentID: z.string(),
  time: z.object({ created: z.number(), completed: z.number().optional() }),
  modelID: z.string(),
  providerID: z.string(),
  agent: z.string(),
  /** True marks a compaction summary. */
  summary: z.boolean().optional(),
  /** USD summed over steps. */
  cost: z.number().nonnegative(),
  /** The last step's usage (overwritten per step, as in the reference). */
  tokens: Tokens,
  finish: FinishReason.optional(),
  error: NamedErrorSchema.optional(),
});
export type AssistantMessage = z.infer<typeof AssistantMessage>;

export const Message = z.discriminatedUnion("role", [UserMessage, AssistantMessage]);
export type Message = z.infer<typeof Message>;
