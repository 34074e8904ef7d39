import { useEffect, useMemo, useRef, useState } from "react";
import { decodeProtectedShare, decodeShare, type ImportBundle, importBundle, isProtectedShare, type Result } from "../../core/export";
import { DetachedContext } from "../hooks/detached";
import { useServices } from "../hooks/services";
import { MessageList } from "./message-list";
import { ReplayView } from "./replay/replay-view";

/** A passphrase-protected link: asks for the passphrase, then opens like any link. */
/** What a shared session's screens are told: where Save a copy goes, and whether (and how) it is replayed. */
interface Nav {
  onSaved: (id: string) => void;
  /** Replay is part of the address (`…/replay`), so Back leaves it and a reload keeps it. */
  replay: boolean;
  onReplay: (on: boolean) => void;
}

function Unlock({ data, ...nav }: { data: string } & Nav) {
  const [passphrase, setPassphrase] = useState("");
  const [opened, setOpened] = useState<Result<ImportBundle>>();
  const [busy, setBusy] = useState(false);
  // The one thing to do here is type the passphrase: the keyboard starts there.
  const field = useRef<HTMLInputElement>(null);
  useEffect(() => field.current?.focus(), []);
  if (opened?.ok) return <SharedSession decoded={opened} {...nav} />;
  const submit = async () => {
    setBusy(true);
    setOpened(await decodeProtectedShare(data, passphrase));
    setBusy(false);
  };
  return (
    <div className="empty-state unlock">
      <h1>This shared session is protected</h1>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <div className="field">
          <label htmlFor="unlock-passphrase">Passphrase</label>
          <input ref={field} id="unlock-passphrase" type="password" autoComplete="off" value={passphrase} onChange={(e) => setPassphrase(e.target.value)} />
        </div>
        <button type="submit" className="primary" disabled={busy || passphrase === ""}>
          Open
        </button>
      </form>
      {opened && !opened.ok && (
        <p className="error-text" role="alert">
          {opened.error}
        </p>
      )}
    </div>
  );
}

/** A session opened from a share link: read-only, with "Save a copy". Nothing is stored until the user asks. */
export function SharedView({ data, ...nav }: { data: string } & Nav) {
  const locked = useMemo(() => isProtectedShare(data), [data]);
  const decoded = useMemo(() => (locked ? undefined : decodeShare(data)), [data, locked]);
  if (!decoded) return <Unlock data={data} {...nav} />;
  return <SharedSession decoded={decoded} {...nav} />;
}

function SharedSession({ decoded, onSaved, replay, onReplay }: { decoded: Result<ImportBundle> } & Nav) {
  const { store } = useServices();
  const [error, setError] = useState<string>();
  if (!decoded.ok)
    return (
      <div className="empty-state" role="alert">
        <h1>This share link cannot be opened</h1>
        <p>{decoded.error}</p>
      </div>
    );
  const bundle = decoded.value;
  const s = bundle.sessions[0];
  if (!s) return null;
  const save = async () => {
    const r = await importBundle(store, bundle);
    if (r.ok && r.value.sessionIDs[0]) onSaved(r.value.sessionIDs[0]);
    else setError(r.ok ? "Nothing was saved." : r.error);
  };
  // What reads the store or the workspace for a message (the Changes dialog) reads the link's own messages instead.
  return (
    <DetachedContext.Provider value={s.messages}>
      {replay ? <ReplayView session={s.info} messages={s.messages} onExit={() => onReplay(false)} /> : (
        <div className="session-view">
          <header className="session-header">
            <div className="title-row">
              <h1 className="session-title">{s.info.title}</h1>
              <span className="status">Shared session · read-only</span>
              <div className="header-actions">
                <button type="button" onClick={() => onReplay(true)}>
                  Replay
                </button>
                <button type="button" className="primary" onClick={() => void save()}>
                  Save a copy
                </button>
              </div>
            </div>
            <p className="hint shared-note">A share link carries the conversation, not the workspace's files: a saved copy starts with no files.</p>
            {error && (
              <p className="error-text" role="alert">
                {error}
              </p>
            )}
          </header>
          <div className="session-body">
            <MessageList messages={s.messages} />
          </div>
        </div>
      )}
    </DetachedContext.Provider>
  );
}
