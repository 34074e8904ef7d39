import { z } from "../zod";

export const GOAL_DONE_TOOL = "goal_done";

/** The arguments of `goal_done` (the tool itself is core/tools/goal-done.ts). */
export const GoalDoneInput = z.object({
  outcome: z.enum(["met", "blocked"]).check(z.describe('"met" when the stop condition holds; "blocked" when you cannot go on without the user')),
  summary: z.string().check(z.minLength(1), z.maxLength(4_000), z.describe("What was achieved (or what blocks you), in a few sentences")),
});
