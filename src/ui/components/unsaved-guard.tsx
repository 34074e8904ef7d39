import { type KeyboardEvent, type SyntheticEvent, useEffect, useRef } from "react";

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
 * A dialog's Esc, and the browser's cancel (its fallback), both running `run` (close, or ask first). Esc is
 * taken on keydown: Chromium closes a dialog by itself on a second Esc when the first cancel was refused with
 * no click or key between (the guard refuses it), and the dialog would vanish with the changes.
 */
export function escapeTo(run: () => void): { onKeyDown: (e: KeyboardEvent) => void; onCancel: (e: SyntheticEvent) => void } {
  return {
    onKeyDown: (e) => {
      if (e.key !== "Escape" || e.defaultPrevented) return;
      e.preventDefault();
      run();
    },
    onCancel: (e) => {
      e.preventDefault();
      run();
    },
  };
}
