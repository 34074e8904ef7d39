import type { MessageWithParts } from "../../core/schema";
import { type TodoItem, TodoList } from "../../core/tools/todo-item";

/** The session's current todo list: the input of its newest successful todowrite call. */
export function currentTodos(messages: MessageWithParts[]): TodoItem[] | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const parts = messages[i]?.parts ?? [];
    for (let j = parts.length - 1; j >= 0; j--) {
      const p = parts[j];
      if (p?.type === "tool" && p.tool === "todowrite" && p.state.status === "completed") {
        const list = TodoList.safeParse(p.state.input.todos);
        return list.success ? list.data : undefined;
      }
    }
  }
  return undefined;
}

const ICON = { pending: "○", in_progress: "◐", completed: "●", cancelled: "⊘" } as const;

export function TodoPanel({ messages }: { messages: MessageWithParts[] }) {
  const todos = currentTodos(messages);
  if (!todos || todos.length === 0) return null;
  const done = todos.filter((t) => t.status === "completed").length;
  return (
    <aside className="todo-panel" aria-label="Todo list">
      <h2>
        Todo <span className="count">{done}/{todos.length}</span>
      </h2>
      <ul>
        {todos.map((t) => (
          <li key={t.id} className={`todo-${t.status}`}>
            <span aria-hidden="true">{ICON[t.status]}</span> <span className="visually-hidden">{t.status.replace("_", " ")}: </span>
            {t.content}
          </li>
        ))}
      </ul>
    </aside>
  );
}
