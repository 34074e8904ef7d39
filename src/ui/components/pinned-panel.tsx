import { useMemo, useState } from "react";
import { toolLog } from "../../core/compaction/transcript";
import { effectivePins } from "../../core/pins/pins";
import type { MessageWithParts, Pin, Session } from "../../core/schema";
import { useServices } from "../hooks/services";

const short = (t: string, n = 40) => (t.length > n ? `${t.slice(0, n - 1)}…` : t);

interface RowProps {
  pin: Pin;
  onSave: (pin: Pin) => void;
  onRemove: (pin: Pin) => void;
}

/** One pin: its text (suggestions marked), Accept/Dismiss for a suggestion, Edit/Remove otherwise. */
function PinRow({ pin, onSave, onRemove }: RowProps) {
  const [editing, setEditing] = useState<string | null>(null);
  const what = pin.kind === "goal" ? "goal" : "constraint";
  if (editing !== null)
    return (
      <li className="pin editing">
        <form
          onSubmit={(e) => {
            e.preventDefault();
            onSave({ ...pin, text: editing, state: "accepted" });
            setEditing(null);
          }}
        >
          <textarea aria-label={`Edit the ${what}`} value={editing} rows={3} onChange={(e) => setEditing(e.target.value)} />
          <div className="pin-actions">
            <button type="button" className="link" onClick={() => setEditing(null)}>
              Cancel
            </button>
            <button type="submit" className="link" disabled={!editing.trim()}>
              Save
            </button>
          </div>
        </form>
      </li>
    );
  const suggested = pin.state === "suggested";
  return (
    <li className={`pin ${pin.state}`}>
      <span className="pin-text">{pin.text}</span>
      {suggested && (
        <span className="pin-badge" title="Found in your message and sent until you dismiss it">
          suggested
        </span>
      )}
      <span className="pin-actions">
        {suggested ? (
          <>
            <button type="button" className="link" aria-label={`Accept the ${what} “${short(pin.text)}”`} onClick={() => onSave({ ...pin, state: "accepted" })}>
              Accept
            </button>
            <button type="button" className="link" aria-label={`Dismiss the ${what} “${short(pin.text)}”`} onClick={() => onRemove(pin)}>
              Dismiss
            </button>
          </>
        ) : (
          <>
            <button type="button" className="link" aria-label={`Edit the ${what} “${short(pin.text)}”`} onClick={() => setEditing(pin.text)}>
              Edit
            </button>
            <button type="button" className="link" aria-label={`Remove the ${what} “${short(pin.text)}”`} onClick={() => onRemove(pin)}>
              Remove
            </button>
          </>
        )}
      </span>
    </li>
  );
}

/**
 * The Pinned panel: the session's goal and constraints (sent in every
 * request's fixed prefix, through every compaction), suggestions from the
 * user's own messages to accept or dismiss, and the files touched and
 * commands run from the tool log. Every change goes through SessionService.
 */
export function PinnedPanel({ session, messages, onError }: { session: Session; messages: MessageWithParts[]; onError: (m: string) => void }) {
  const { sessions } = useServices();
  const [draft, setDraft] = useState("");
  const pins = useMemo(() => effectivePins(session.pins, messages), [session.pins, messages]);
  const log = useMemo(() => toolLog(messages, undefined, session.directory), [messages, session.directory]);
  const goal = pins.find((p) => p.kind === "goal" && p.state !== "dismissed");
  const rules = pins.filter((p) => p.kind === "constraint" && p.state !== "dismissed");
  const dismissed = pins.filter((p) => p.state === "dismissed");
  const fail = (what: string) => (e: unknown) => onError(`Could not ${what}: ${e instanceof Error ? e.message : String(e)}`);
  const save = (pin: Pin) => {
    sessions.savePin(session.id, pin).then((r) => {
      if (!r.ok) onError(r.error);
    }, fail("save the pin"));
  };
  const remove = (pin: Pin) => {
    sessions.removePin(session.id, pin).catch(fail("remove the pin"));
  };
  const add = (kind: Pin["kind"], text: string) => {
    sessions.addPin(session.id, { kind, text }).then((r) => {
      if (!r.ok) onError(r.error);
      else setDraft("");
    }, fail("add the pin"));
  };
  const files = [...log.files];
  return (
    <section className="pinned-panel" aria-labelledby="pinned-title">
      <h2 id="pinned-title">
        Pinned <span className="count">{(goal ? 1 : 0) + rules.length}</span>
      </h2>
      <p className="pinned-note">Sent with every request and kept through every summary.</p>
      <h3>Goal</h3>
      {goal ? (
        <ul className="pins" aria-label="Goal">
          <PinRow pin={goal} onSave={save} onRemove={remove} />
        </ul>
      ) : (
        <p className="pinned-empty">No goal yet: the first sentence of your first message is suggested.</p>
      )}
      <h3>Constraints</h3>
      {rules.length > 0 ? (
        <ul className="pins" aria-label="Constraints">
          {rules.map((p) => (
            <PinRow key={p.id} pin={p} onSave={save} onRemove={remove} />
          ))}
        </ul>
      ) : (
        <p className="pinned-empty">None yet. Rules in your messages (“never…”, “always…”, “answer in…”) are suggested here.</p>
      )}
      <form
        className="pin-add"
        onSubmit={(e) => {
          e.preventDefault();
          add("constraint", draft);
        }}
      >
        <input aria-label="New constraint" placeholder="Add a constraint…" value={draft} onChange={(e) => setDraft(e.target.value)} />
        <button type="submit" disabled={!draft.trim()}>
          Pin
        </button>
        {!goal && (
          <button type="button" disabled={!draft.trim()} onClick={() => add("goal", draft)} title="Pin the text as the session's goal">
            As goal
          </button>
        )}
      </form>
      {dismissed.length > 0 && (
        <details className="pinned-more">
          <summary className="pinned-toggle">Dismissed ({dismissed.length})</summary>
          <ul className="pins">
            {dismissed.map((p) => (
              <li key={p.id} className="pin dismissed">
                <span className="pin-text">{p.text}</span>
                <button type="button" className="link" aria-label={`Restore “${short(p.text)}”`} onClick={() => save({ ...p, state: "accepted" })}>
                  Restore
                </button>
              </li>
            ))}
          </ul>
        </details>
      )}
      <details className="pinned-more">
        <summary className="pinned-toggle">Files touched ({files.length})</summary>
        {files.length ? (
          <ul className="pin-files" aria-label="Files touched">
            {files.map(([path, actions]) => (
              <li key={path}>
                <code>{path}</code> <span className="muted">{[...actions].join(", ")}</span>
              </li>
            ))}
          </ul>
        ) : (
          <p className="pinned-empty">None yet.</p>
        )}
      </details>
      <details className="pinned-more">
        <summary className="pinned-toggle">Commands run ({log.commands.length})</summary>
        {log.commands.length ? (
          <ul className="pin-files" aria-label="Commands run">
            {log.commands.map((c) => (
              <li key={c}>
                <code>{c}</code>
              </li>
            ))}
          </ul>
        ) : (
          <p className="pinned-empty">None yet.</p>
        )}
      </details>
    </section>
  );
}
