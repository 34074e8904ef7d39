import { useLiveQuery } from "dexie-react-hooks";
import { useEffect } from "react";
import { useServices, useSessionStatus } from "../hooks/services";
import { useMessages } from "../hooks/use-messages";
import { Composer } from "./composer";
import { MessageList } from "./message-list";
import { SessionHeader } from "./session-header";
import { TodoPanel } from "./todo-panel";

/** One session: header with usage, messages, todo list and the composer. */
export function SessionView({ sessionID, focusMessageID, onError }: { sessionID: string; focusMessageID?: string; onError: (m: string) => void }) {
  const { store, sessions } = useServices();
  const session = useLiveQuery(() => store.getSession(sessionID).then((s) => s ?? null), [store, sessionID]);
  const messages = useMessages(sessionID);
  const status = useSessionStatus(sessionID);

  useEffect(() => {
    sessions.repair(sessionID).catch(() => undefined);
  }, [sessions, sessionID]);

  if (session === undefined || messages === undefined) return <div className="loading" aria-busy="true">Loading session…</div>;
  if (session === null)
    return (
      <div className="empty-state">
        <h1>Session not found</h1>
        <p>It may have been deleted, or its stored record is damaged. Pick another session on the left or start a new one.</p>
      </div>
    );
  return (
    <div className="session-view">
      <SessionHeader session={session} messages={messages} status={status} />
      <div className="session-body">
        {messages.length === 0 ? (
          <div className="empty-state small">
            <h2>Start the conversation</h2>
            <p>Describe a task below. The agent streams its answer, calls tools and shows every step here.</p>
          </div>
        ) : (
          <MessageList messages={messages} focusMessageID={focusMessageID} />
        )}
        <TodoPanel messages={messages} />
      </div>
      <Composer sessionID={sessionID} onError={onError} />
    </div>
  );
}
