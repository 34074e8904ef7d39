/** Keyboard shortcuts: one table for the handler and the cheat sheet. Ctrl on Windows/Linux is ⌘ on macOS. */
export type ShortcutAction = "new-session" | "search" | "focus-composer" | "prev-session" | "next-session" | "toggle-sessions" | "toggle-files" | "switch-agent" | "help";

export interface Shortcut {
  action: ShortcutAction;
  keys: string;
  what: string;
}

export const SHORTCUTS: Shortcut[] = [
  { action: "new-session", keys: "Ctrl/⌘ + Shift + O", what: "New session" },
  { action: "search", keys: "Ctrl/⌘ + K", what: "Search all sessions" },
  { action: "focus-composer", keys: "Shift + Esc", what: "Focus the message box" },
  { action: "prev-session", keys: "Alt + ↑", what: "Previous session in the list" },
  { action: "next-session", keys: "Alt + ↓", what: "Next session in the list" },
  { action: "toggle-sessions", keys: "Ctrl/⌘ + B", what: "Show or hide the sessions panel" },
  { action: "toggle-files", keys: "Ctrl/⌘ + Alt + B", what: "Show or hide files and todos" },
  { action: "switch-agent", keys: "Ctrl/⌘ + .", what: "Switch agent (Build ↔ Plan); also /agent" },
  { action: "help", keys: "?", what: "This list of shortcuts (outside text fields)" },
];

/** Esc (stop the run) is handled by the composer; listed here for the cheat sheet. */
export const STOP_SHORTCUT = { keys: "Esc", what: "Stop the running agent (when no dialog or menu is open)" };

export interface KeyLike {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
  /** The key event comes from a text field (input, textarea, select, contenteditable). */
  inField: boolean;
}

/** Which shortcut a key press is, if any. */
export function matchShortcut(e: KeyLike): ShortcutAction | undefined {
  const mod = e.ctrlKey || e.metaKey;
  const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
  if (mod && e.shiftKey && !e.altKey && key === "o") return "new-session";
  if (mod && !e.shiftKey && !e.altKey && key === "k") return "search";
  if (mod && !e.shiftKey && e.altKey && (key === "b" || key === "∫")) return "toggle-files";
  if (mod && !e.shiftKey && !e.altKey && key === "b") return "toggle-sessions";
  if (mod && !e.shiftKey && !e.altKey && key === ".") return "switch-agent";
  if (e.shiftKey && !mod && !e.altKey && key === "Escape") return "focus-composer";
  if (e.altKey && !mod && !e.shiftKey && key === "ArrowUp") return "prev-session";
  if (e.altKey && !mod && !e.shiftKey && key === "ArrowDown") return "next-session";
  if (!mod && !e.altKey && key === "?" && !e.inField) return "help";
  return undefined;
}

export function isField(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && (target.isContentEditable || target.closest("input, textarea, select") !== null);
}
