import { z } from "../zod";

/** One entry of the session's todo list (the `todowrite` tool's input; the UI reads it without loading the tools). */
export const TodoItem = z.object({
  id: z.string().check(z.describe("A short stable id, e.g. '1'")),
  content: z.string().check(z.minLength(1), z.describe("What to do, in a few words")),
  status: z.enum(["pending", "in_progress", "completed", "cancelled"]),
  priority: z.enum(["high", "medium", "low"]),
});
export type TodoItem = z.infer<typeof TodoItem>;

/** A whole todo list, as `todowrite` takes it. */
export const TodoList = z.array(TodoItem);
