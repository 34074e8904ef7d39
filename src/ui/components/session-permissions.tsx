import { useState, useSyncExternalStore } from "react";
import type { Ruleset, Session } from "../../core/schema";
import { useServices } from "../hooks/services";
import { RulesEditor } from "./rules-editor";
import { useModal } from "../hooks/use-modal";
import { escapeTo, UnsavedGuard } from "./unsaved-guard";

/** A session's own rules, and the log of every permission decision with what decided it. */
export function SessionPermissions({ session, onClose }: { session: Session; onClose: () => void }) {
  const { permissions, sessions } = useServices();
  const ref = useModal();
  const [rules, setRules] = useState<Ruleset>(session.permission ?? []);
  const [guard, setGuard] = useState(false);
  const dirty = JSON.stringify(rules) !== JSON.stringify(session.permission ?? []);
  // Esc or Close with rules not saved asks first.
  const requestClose = () => (dirty ? setGuard(true) : onClose());
  useSyncExternalStore(
    (l) => permissions.subscribe(l),
    () => permissions.pending(),
  );
  const log = permissions.decisions(session.id);
  // The protect rules in force once these rules are saved: the other rules' and this draft's (the list
  // follows the editor, not only what was saved).
  const saved = new Set((session.permission ?? []).map((r) => JSON.stringify(r)));
  const others = permissions
    .rulesFor(session.id)
    .flat()
    .filter((r) => !saved.has(JSON.stringify(r)));
  const protects = [...new Map([...others, ...rules].filter((r) => r.permission === "protect" && r.action === "deny").map((r) => [r.pattern, r])).values()];
  const save = async () => {
    await sessions.setRules(session.id, rules);
    onClose();
  };
  return (
    <dialog
      ref={ref}
      className="dialog wide"
      aria-labelledby="perm-log-title"
      onClose={onClose}
      {...escapeTo(requestClose)}
    >
      <h2 id="perm-log-title">Permissions of this session</h2>
      <RulesEditor label="Session rules (after your global rules)" rules={rules} onChange={setRules} />
      <h3>Protected paths</h3>
      {protects.length === 0 ? (
        <p className="list-empty">No protect rules. Add one (for example “config/**”) so no tool or command may change those paths.</p>
      ) : (
        <ul className="protect-rules">
          {protects.map((r) => {
            const stopped = log.filter((d) => d.rule?.permission === "protect" && d.rule.pattern === r.pattern);
            return (
              <li key={r.pattern}>
                <code>{r.pattern}</code> — {stopped.length === 0 ? "no change stopped yet" : `stopped ${stopped.length} change${stopped.length === 1 ? "" : "s"}: `}
                {stopped.slice(-5).map((d, i) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: an append-only log
                  <code key={i} className="protect-hit">
                    {d.pattern}
                  </code>
                ))}
              </li>
            );
          })}
        </ul>
      )}
      <p className="hint">
        Outside the workspace everything is read-only; commands may use /tmp as scratch space (per session, in memory, not kept).
      </p>
      <h3>Decisions</h3>
      {log.length === 0 ? (
        <p className="list-empty">No decisions yet in this tab.</p>
      ) : (
        <table className="decisions">
          <thead>
            <tr>
              <th>Time</th>
              <th>Permission</th>
              <th>What</th>
              <th>Decision</th>
              <th>Decided by</th>
            </tr>
          </thead>
          <tbody>
            {log.map((d, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: an append-only log
              <tr key={i}>
                <td data-label="Time">{new Date(d.time).toLocaleTimeString()}</td>
                <td data-label="Permission">{d.permission}</td>
                <td data-label="What">
                  <code>{d.pattern}</code>
                </td>
                <td data-label="Decision">{d.action}</td>
                <td data-label="Decided by">{d.rule ? `rule ${d.rule.permission} “${d.rule.pattern}” → ${d.rule.action}` : d.feedback ? `you, with feedback: ${d.feedback}` : "you"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {guard && <UnsavedGuard what="this session's rules" onKeep={() => setGuard(false)} onDiscard={onClose} />}
      <div className="dialog-actions">
        <button type="button" onClick={requestClose}>
          Cancel
        </button>
        <button type="button" className="primary" onClick={() => void save()}>
          Save rules
        </button>
      </div>
    </dialog>
  );
}
