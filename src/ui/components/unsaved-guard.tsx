import { type KeyboardEvent, useEffect, useRef } from "react";

/**
 * "You have unsaved changes": shown inside a dialog when Esc, Cancel or Close would throw edits away.
 * Focus goes to Keep editing (the safe answer), so Enter or a second Esc does not discard anything.
 */
export function UnsavedGuard({ what, onKeep, onDiscard }: { what: string; onKeep: () => void; onDiscard: () => void }) {
  const keep = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    keep.current?.focus();
    keep.current?.scrollIntoView({ block: "nearest" });
  }, []);
  return (
    <div role="alertdialog" aria-labelledby="unsaved-title" className="unsaved-guard">
      <p id="unsaved-title">You have unsaved changes to {what}.</p>
      <div className="dialog-actions">
        <button ref={keep} type="button" onClick={onKeep}>
          Keep editing
        </button>
        <button type="button" className="danger" onClick={onDiscard}>
          Discard changes
        </button>
      </div>
    </div>
  );
}

/**
 * A dialog's Esc, handled on keydown: `run` (close, or ask first) instead of the browser's cancel. Chromium
 * closes a dialog by itself on a second Esc when the first cancel was refused with no click or key between
 * (the guard refuses it): the dialog would vanish with the changes and stay mounted, hidden.
 */
export function onEscape(run: () => void): (e: KeyboardEvent) => void {
  return (e) => {
    if (e.key !== "Escape" || e.defaultPrevented) return;
    e.preventDefault();
    run();
  };
}
