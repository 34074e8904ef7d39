import { SLASH_COMMANDS } from "../composer/slash";
import { useModal } from "../hooks/use-modal";
import { SHORTCUTS, STOP_SHORTCUT } from "../shortcuts";

/** The `?` cheat sheet: every keyboard shortcut and slash command. */
export function ShortcutsDialog({ onClose }: { onClose: () => void }) {
  const ref = useModal({ startAtTop: true });
  return (
    <dialog ref={ref} className="dialog" aria-labelledby="shortcuts-title" onClose={onClose} onCancel={onClose}>
      <h2 id="shortcuts-title">Keyboard shortcuts</h2>
      <table className="shortcuts">
        <tbody>
          {[...SHORTCUTS, STOP_SHORTCUT].map((s) => (
            <tr key={s.keys}>
              <td>
                <kbd>{s.keys}</kbd>
              </td>
              <td>{s.what}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <h3>Commands in the message box</h3>
      <table className="shortcuts">
        <tbody>
          {SLASH_COMMANDS.map((c) => (
            <tr key={c.name}>
              <td>
                <kbd>
                  /{c.name}
                  {c.arg ? ` ${c.arg}` : ""}
                </kbd>
              </td>
              <td>{c.hint}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="dialog-actions">
        <button type="button" className="primary" onClick={onClose}>
          Close
        </button>
      </div>
    </dialog>
  );
}
