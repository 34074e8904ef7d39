import { useLiveQuery } from "dexie-react-hooks";
import { useEffect, useRef, useState, useSyncExternalStore } from "react";
import { useServices } from "../hooks/services";
import { alwaysScope, nestedContext, permissionQuestion } from "./permission-words";

/** Asks the user about the oldest pending permission request, with the exact command or path. */
export function PermissionDialog() {
  const { permissions, store } = useServices();
  const pending = useSyncExternalStore(
    (l) => permissions.subscribe(l),
    () => permissions.pending(),
  );
  const req = pending[0];
  const sessionTitle = useLiveQuery(() => (req ? store.getSession(req.sessionID).then((s) => s?.title ?? "") : ""), [store, req?.sessionID]);
  const ref = useRef<HTMLDialogElement>(null);
  const [feedback, setFeedback] = useState("");

  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (req && !d.open) d.showModal();
    if (!req && d.open) d.close();
    // Each question starts on the dialog itself, not in the feedback field (a phone's keyboard would cover
    // the buttons) nor on a button (an Enter meant for something else, or for the last question, would answer it).
    if (req) d.focus();
    setFeedback("");
  }, [req]);

  if (!req) return <dialog ref={ref} className="dialog" aria-label="Permission request" />;
  const reply = (type: "once" | "always" | "reject") =>
    permissions.reply(req.id, type === "reject" ? { type, feedback: feedback.trim() || undefined } : { type });
  const scope = alwaysScope(req);
  // Esc does nothing: the question needs an answer. Chromium closes a dialog anyway on a second Esc without
  // a click or key in between (it may not cancel twice): the question stays pending, so it comes back.
  const reopen = () => {
    const d = ref.current;
    if (!d || d.open || permissions.pending().length === 0) return;
    d.showModal();
    d.focus();
  };
  return (
    <dialog
      ref={ref}
      className="dialog permission"
      aria-labelledby="perm-title"
      aria-describedby="perm-question"
      tabIndex={-1}
      // Esc is refused where it is pressed: Chromium otherwise closes the dialog on a second Esc (a cancel
      // may not be refused twice), and an Esc arriving before the reopen reached the composer and stopped the run.
      onKeyDown={(e) => {
        if (e.key === "Escape") e.preventDefault();
      }}
      onCancel={(e) => e.preventDefault()}
      onClose={reopen}
    >
      <h2 id="perm-title">Permission needed</h2>
      <p id="perm-question">{permissionQuestion(req)}</p>
      {sessionTitle && <p className="hint">In session “{sessionTitle}”.</p>}
      {nestedContext(req) && <p className="hint">{nestedContext(req)}</p>}
      <pre className="perm-patterns">{req.permission === "bash" && typeof req.metadata?.command === "string" ? req.metadata.command : req.patterns.join("\n")}</pre>
      {req.mustAsk && <p className="hint">{req.mustAsk}</p>}
      <label className="field">
        Feedback for the model (optional, with Reject)
        <input value={feedback} onChange={(e) => setFeedback(e.target.value)} placeholder="e.g. use the test script instead" />
      </label>
      <div className="dialog-actions">
        <button type="button" className="danger" onClick={() => reply("reject")}>
          {feedback.trim() ? "Reject with feedback" : "Reject"}
        </button>
        {scope && (
          <button type="button" onClick={() => reply("always")} aria-describedby="perm-always">
            Always allow
          </button>
        )}
        <button type="button" className="primary" onClick={() => reply("once")}>
          Allow once
        </button>
      </div>
      {scope && (
        <p id="perm-always" className="hint perm-always">
          {scope}
        </p>
      )}
    </dialog>
  );
}
