import { useState, useSyncExternalStore } from "react";
import type { Ruleset, Session } from "../../core/schema";
import { useServices } from "../hooks/services";
import { RulesEditor } from "./rules-editor";
import { useModal } from "../hooks/use-modal";

/** A session's own rules, and the log of every permission decision with what decided it. */
export function SessionPermissions({ session, onClose }: { session: Session; onClose: () => void }) {
  const { permissions, sessions } = useServices();
  const ref = useModal();
  const [rules, setRules] = useState<Ruleset>(session.permission ?? []);
  useSyncExternalStore(
    (l) => permissions.subscribe(l),
    () => permissions.pending(),
  );
  const log = permissions.decisions(session.id);
  const save = async () => {
    await sessions.setRules(session.id, rules);
    onClose();
  };
  return (
    <dialog ref={ref} className="dialog wide" aria-labelledby="perm-log-title" onClose={onClose} onCancel={onClose}>
      <h2 id="perm-log-title">Permissions of this session</h2>
      <RulesEditor label="Session rules (after your global rules)" rules={rules} onChange={setRules} />
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
                <td>{new Date(d.time).toLocaleTimeString()}</td>
                <td>{d.permission}</td>
                <td>
                  <code>{d.pattern}</code>
                </td>
                <td>{d.action}</td>
                <td>{d.rule ? `rule ${d.rule.permission} “${d.rule.pattern}” → ${d.rule.action}` : d.feedback ? `you, with feedback: ${d.feedback}` : "you"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <div className="dialog-actions">
        <button type="button" onClick={onClose}>
          Cancel
        </button>
        <button type="button" className="primary" onClick={() => void save()}>
          Save rules
        </button>
      </div>
    </dialog>
  );
}
