/**
 * The command box's ↑/↓, as in a shell: ↑ goes back through the person's earlier commands (newest first),
 * ↓ forward again and, past the newest, back to what was being typed (the draft). In a command of several
 * lines the arrows move the caret, and recall only from its first line (↑) or its last (↓).
 */

/** Earlier commands, newest first, a command run twice in a row listed once (oldest first in `commands`). */
export function commandHistory(commands: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = commands.length - 1; i >= 0; i--) {
    const c = commands[i];
    if (c !== undefined && c !== out.at(-1)) out.push(c);
  }
  return out;
}

/** Where the box stands: `at` -1 is the draft, else an index into the history. */
export interface Recall {
  at: number;
  draft: string;
}

export const AT_DRAFT: Recall = { at: -1, draft: "" };

/** The box after ↑ ("older") or ↓ ("newer"), or undefined when there is nothing further that way. */
export function recall(history: readonly string[], state: Recall, value: string, dir: "older" | "newer"): { state: Recall; value: string } | undefined {
  const at = state.at + (dir === "older" ? 1 : -1);
  if (at < -1 || at >= history.length) return undefined;
  // Leaving the draft keeps it, to come back to.
  const draft = state.at === -1 ? value : state.draft;
  return { state: { at, draft }, value: at === -1 ? draft : (history[at] ?? "") };
}

/** Whether the caret (no selection) is on the value's first line: ↑ recalls from there. */
export function onFirstLine(value: string, start: number, end: number): boolean {
  return start === end && !value.slice(0, start).includes("\n");
}

/** Whether the caret (no selection) is on the value's last line: ↓ recalls from there. */
export function onLastLine(value: string, start: number, end: number): boolean {
  return start === end && !value.slice(end).includes("\n");
}
