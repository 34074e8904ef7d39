import { useLiveQuery } from "dexie-react-hooks";
import { useServices } from "../../hooks/services";
import { ReplayView } from "./replay-view";

/** Replay of a stored session, loaded from IndexedDB. */
export function ReplayRoute({ sessionID, onExit }: { sessionID: string; onExit: () => void }) {
  const { store } = useServices();
  const data = useLiveQuery(async () => {
    const session = await store.getSession(sessionID);
    return session ? { session, messages: await store.messages(sessionID) } : null;
  }, [store, sessionID]);
  if (data === undefined) return <div className="loading">Loading…</div>;
  if (data === null)
    return (
      <div className="empty-state">
        <h1>Session not found</h1>
      </div>
    );
  return <ReplayView session={data.session} messages={data.messages} onExit={onExit} />;
}
