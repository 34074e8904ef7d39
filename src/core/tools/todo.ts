import { z } from "../zod";
import { TodoItem } from "./todo-item";
import { defineTool } from "./tool";

const parameters = z.object({
  todos: z.array(TodoItem).check(z.describe("The complete, updated todo list (it replaces the previous one)")),
});

function render(todos: TodoItem[]): string {
  if (todos.length === 0) return "The todo list is now empty.";
  const mark = { pending: "[ ]", in_progress: "[~]", completed: "[x]", cancelled: "[-]" } as const;
  return todos.map((t) => `${mark[t.status]} ${t.content} (${t.priority})`).join("\n");
}

/**
 * `todowrite`: replaces the session's todo list. The list lives in the tool
 * part itself (its input), so it is persisted, exported and shown by the UI
 * from the newest todowrite call of the session.
 */
export const todoWriteTool = defineTool({
  id: "todowrite",
  description:
    "Create and manage a structured task list for the current session. Use it for tasks with three or more steps: write the full list, mark one item in_progress while working on it, and mark items completed as soon as they are done. Each call replaces the whole list.",
  parameters,
  async execute({ todos }) {
    const open = todos.filter((t) => t.status !== "completed" && t.status !== "cancelled").length;
    return { title: `${open} todo${open === 1 ? "" : "s"} open`, output: render(todos), metadata: { todos } };
  },
});
