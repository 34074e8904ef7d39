import { useEffect, useId, useLayoutEffect, useMemo, useRef, useState } from "react";
import { toolLog } from "../../core/compaction/transcript";
import { effectivePins } from "../../core/pins/pins";
import type { MessageWithParts, Pin, Session } from "../../core/schema";
import { useServices } from "../hooks/services";
import { useFocusAtEnd } from "../hooks/use-focus-at-end";

const short = (t: string, n = 40) => (t.length > n ? `${t.slice(0, n - 1)}…` : t);

interface RowProps {
  pin: Pin;
  onSave: (pin: Pin) => void;
  /** `row`: the row's element, so the keyboard can move on before the row goes. */
  onRemove: (pin: Pin, row: Element | null) => void;
}

/**
 * A pin's text in a field, focused with the caret at the end (a layout effect: still in the Edit click's task).
 * Enter saves, Shift+Enter starts a new line, Esc cancels (and closes no drawer around the panel).
 */
function PinEditForm({ initial, what, onSave, onCancel }: { initial: string; what: string; onSave: (text: string) => void; onCancel: () => void }) {
  const [text, setText] = useState(initial);
  const box = useFocusAtEnd<HTMLTextAreaElement>();
  const hint = useId();
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        if (text.trim()) onSave(text);
      }}
    >
      <textarea
        ref={box}
        aria-label={`Edit the ${what}`}
        aria-describedby={hint}
        value={text}
        rows={3}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.nativeEvent.isComposing) return;
          if (e.key === "Escape" && !e.shiftKey) {
            // Ends the edit only, like the session list's rename: the drawer and the composer leave a handled Esc alone.
            e.preventDefault();
            onCancel();
          } else if (e.key === "Enter" && !e.shiftKey) {
            e.preventDefault();
            e.currentTarget.form?.requestSubmit();
          }
        }}
      />
      <small id={hint} className="pin-hint">
        Enter saves, Shift+Enter starts a new line, Esc cancels.
      </small>
      <div className="pin-actions">
        <button type="button" className="link" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className="link" disabled={!text.trim()}>
          Save
        </button>
      </div>
    </form>
  );
}

/** One pin: its text (suggestions marked), Accept/Dismiss for a suggestion, Edit/Remove otherwise. */
function PinRow({ pin, onSave, onRemove }: RowProps) {
  const [editing, setEditing] = useState(false);
  const editButton = useRef<HTMLButtonElement>(null);
  // After Save or Cancel the keyboard goes back to Edit (the form's controls are gone).
  const backToEdit = useRef(false);
  useEffect(() => {
    if (editing || !backToEdit.current) return;
    backToEdit.current = false;
    editButton.current?.focus();
  }, [editing]);
  const what = pin.kind === "goal" ? "goal" : "constraint";
  const stop = () => {
    backToEdit.current = true;
    setEditing(false);
  };
  if (editing)
    return (
      <li className="pin editing">
        <PinEditForm
          initial={pin.text}
          what={what}
          onSave={(text) => {
            onSave({ ...pin, text, state: "accepted" });
            stop();
          }}
          onCancel={stop}
        />
      </li>
    );
  const suggested = pin.state === "suggested";
  return (
    <li className={`pin ${pin.state}`} data-pin={pin.id}>
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
            {/* "suggested" in the name: the goal bar's "Dismiss the goal" ends a running /goal, this only drops a suggestion. */}
            <button type="button" className="link" aria-label={`Dismiss the suggested ${what} “${short(pin.text)}”`} onClick={(e) => onRemove(pin, e.currentTarget.closest("li"))}>
              Dismiss
            </button>
          </>
        ) : (
          <>
            <button type="button" className="link" ref={editButton} aria-label={`Edit the ${what} “${short(pin.text)}”`} onClick={() => setEditing(true)}>
              Edit
            </button>
            <button type="button" className="link" aria-label={`Remove the ${what} “${short(pin.text)}”`} onClick={(e) => onRemove(pin, e.currentTarget.closest("li"))}>
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
  const panel = useRef<HTMLElement>(null);
  const newPin = useRef<HTMLInputElement>(null);
  const remove = (pin: Pin, row: Element | null) => {
    // The row goes: the keyboard moves to the next row's first control, else the previous row's, else the new-pin field.
    const rows = [...(panel.current?.querySelectorAll(".pins.in-force > li") ?? [])];
    const i = row ? rows.indexOf(row) : -1;
    const near = i < 0 ? undefined : (rows[i + 1] ?? rows[i - 1]);
    (near?.querySelector<HTMLElement>("button, textarea") ?? newPin.current)?.focus();
    sessions.removePin(session.id, pin).catch(fail("remove the pin"));
  };
  // A Restore in progress: its pin and the place of its button among the Dismissed list's buttons.
  const restoring = useRef<{ id: string; at: number } | null>(null);
  const restore = (pin: Pin, button: HTMLElement) => {
    const buttons = [...(panel.current?.querySelectorAll(".pins.dismissed-list button") ?? [])];
    restoring.current = { id: pin.id, at: buttons.indexOf(button) };
    save({ ...pin, state: "accepted" });
  };
  // The Restore button goes with the render that shows its pin in force again: the keyboard moves to that row's
  // first control (Edit); if it is not listed (another goal is in force), to the next Restore button, the
  // Dismissed toggle or the new-pin field. Only when focus went with the button (to the body): a person who
  // moved on meanwhile keeps their place.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs after each change of the pins, the render that moves the restored one
  useLayoutEffect(() => {
    const r = restoring.current;
    const root = panel.current;
    if (!r || !root) return;
    const stillThere = root.querySelector(`.pins.dismissed-list [data-pin="${CSS.escape(r.id)}"]`);
    if (stillThere) return;
    restoring.current = null;
    const active = document.activeElement;
    if (active && active !== document.body) return;
    const row = root.querySelector(`.pins.in-force [data-pin="${CSS.escape(r.id)}"]`);
    const buttons = [...root.querySelectorAll<HTMLElement>(".pins.dismissed-list button")];
    const next = row?.querySelector<HTMLElement>("button") ?? buttons[r.at] ?? buttons.at(-1) ?? root.querySelector<HTMLElement>(".pinned-more.dismissed > summary") ?? newPin.current;
    next?.focus();
  }, [pins]);
  const add = (kind: Pin["kind"], text: string) => {
    sessions.addPin(session.id, { kind, text }).then((r) => {
      if (!r.ok) onError(r.error);
      else setDraft("");
    }, fail("add the pin"));
  };
  const files = [...log.files];
  return (
    <section ref={panel} className="pinned-panel" aria-labelledby="pinned-title">
      <h2 id="pinned-title">
        Pinned <span className="count">{(goal ? 1 : 0) + rules.length}</span>
      </h2>
      <p className="pinned-note">Sent with every request and kept through every summary.</p>
      <h3>Goal</h3>
      {goal ? (
        <ul className="pins in-force" aria-label="Goal">
          <PinRow key={goal.id} pin={goal} onSave={save} onRemove={remove} />
        </ul>
      ) : (
        <p className="pinned-empty">No goal yet: the first sentence of your first message is suggested.</p>
      )}
      <h3>Constraints</h3>
      {rules.length > 0 ? (
        <ul className="pins in-force" aria-label="Constraints">
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
        <input ref={newPin} aria-label="New constraint" placeholder="Add a constraint…" value={draft} onChange={(e) => setDraft(e.target.value)} />
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
        <details className="pinned-more dismissed">
          <summary className="pinned-toggle">Dismissed ({dismissed.length})</summary>
          <ul className="pins dismissed-list">
            {dismissed.map((p) => (
              <li key={p.id} className="pin dismissed" data-pin={p.id}>
                <span className="pin-text">{p.text}</span>
                <button type="button" className="link" aria-label={`Restore “${short(p.text)}”`} onClick={(e) => restore(p, e.currentTarget)}>
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
