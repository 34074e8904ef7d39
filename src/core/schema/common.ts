import { z } from "../zod";

/** Token usage of one step (or the totals of a message or session). */
export const Tokens = z.object({
  /** Input tokens not served from the provider's cache. */
  input: z.number().check(z.nonnegative()),
  output: z.number().check(z.nonnegative()),
  reasoning: z.number().check(z.nonnegative()),
  cache: z.object({ read: z.number().check(z.nonnegative()), write: z.number().check(z.nonnegative()) }),
  /** Provider-reported total, when it reports one. */
  total: z.optional(z.number().check(z.nonnegative())),
});
export type Tokens = z.infer<typeof Tokens>;

export function emptyTokens(): Tokens {
  return { input: 0, output: 0, reasoning: 0, cache: { read: 0, write: 0 } };
}

/** A named, serialisable error: recognised by `name`, never by `instanceof`. */
export const NamedErrorSchema = z.object({
  name: z.string(),
  data: z.record(z.string(), z.unknown()),
});
export type NamedErrorData = z.infer<typeof NamedErrorSchema>;

export const PermissionAction = z.enum(["allow", "ask", "deny"]);
export type PermissionAction = z.infer<typeof PermissionAction>;

/** One permission rule; rulesets are evaluated last-match-wins. */
export const PermissionRule = z.object({
  permission: z.string(),
  pattern: z.string(),
  action: PermissionAction,
});
export type PermissionRule = z.infer<typeof PermissionRule>;
export const Ruleset = z.array(PermissionRule);
export type Ruleset = z.infer<typeof Ruleset>;

export const ModelRef = z.object({ providerID: z.string(), modelID: z.string() });
export type ModelRef = z.infer<typeof ModelRef>;
