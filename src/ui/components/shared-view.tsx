import { useMemo, useState } from "react";
import { decodeShare, importBundle } from "../../core/export";
import { useServices } from "../hooks/services";
import { MessageList } from "./message-list";
import { ReplayView } from "./replay/replay-view";

/** A session opened from a share link: read-only, with "Save a copy". Nothing is stored until the user asks. */
export function SharedView({ data, onSaved }: { data: string; onSaved: (id: string) => void }) {
  const { store } = useServices();
  const decoded = useMemo(() => decodeShare(data), [data]);
  const [error, setError] = useState<string>();
  const [replaying, setReplaying] = useState(false);
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
  if (replaying) return <ReplayView session={s.info} messages={s.messages} onExit={() => setReplaying(false)} />;
  const save = async () => {
    const r = await importBundle(store, bundle);
    if (r.ok && r.value.sessionIDs[0]) onSaved(r.value.sessionIDs[0]);
    else setError(r.ok ? "Nothing was saved." : r.error);
  };
  return (
    <div className="session-view">
      <header className="session-header">
        <div className="title-row">
          <h1 className="session-title">{s.info.title}</h1>
          <span className="status">Shared session · read-only</span>
          <div className="header-actions">
            <button type="button" onClick={() => setReplaying(true)}>
              Replay
            </button>
            <button type="button" className="primary" onClick={() => void save()}>
              Save a copy
            </button>
          </div>
        </div>
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
  );
}
