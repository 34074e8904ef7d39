import { useLiveQuery } from "dexie-react-hooks";
import { useEffect, useRef, useState, useSyncExternalStore } from "react";
import { useServices } from "../hooks/services";

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
    setFeedback("");
  }, [req]);

  if (!req) return <dialog ref={ref} className="dialog" aria-label="Permission request" />;
  const reply = (type: "once" | "always" | "reject") =>
    permissions.reply(req.id, type === "reject" ? { type, feedback: feedback.trim() || undefined } : { type });
  const question = req.permission === "doom_loop" ? `The model called ${req.patterns.join(", ")} three times in a row with the same input. Let it continue?` : `Allow ${req.title} (${req.permission})?`;
  return (
    <dialog ref={ref} className="dialog permission" aria-labelledby="perm-title" onCancel={(e) => e.preventDefault()}>
      <h2 id="perm-title">Permission needed</h2>
      <p>{question}</p>
      {sessionTitle && <p className="hint">In session “{sessionTitle}”.</p>}
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
        {req.always.length > 0 && (
          <button type="button" onClick={() => reply("always")} title={`Always allow in this session: ${req.always.join(", ")}`}>
            Always allow
          </button>
        )}
        <button type="button" className="primary" onClick={() => reply("once")}>
          Allow once
        </button>
      </div>
    </dialog>
  );
}
