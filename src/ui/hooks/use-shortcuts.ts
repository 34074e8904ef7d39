import { useEffect, useRef } from "react";
import { isField, matchShortcut, type ShortcutAction } from "../shortcuts";

/** Calls `run` for the app's keyboard shortcuts (see SHORTCUTS); not while a modal dialog is open. */
export function useShortcuts(run: (a: ShortcutAction) => void): void {
  const ref = useRef(run);
  ref.current = run;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || document.querySelector("dialog[open]")) return;
      const action = matchShortcut({ key: e.key, ctrlKey: e.ctrlKey, metaKey: e.metaKey, shiftKey: e.shiftKey, altKey: e.altKey, inField: isField(e.target) });
      if (!action) return;
      e.preventDefault();
      ref.current(action);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
}
