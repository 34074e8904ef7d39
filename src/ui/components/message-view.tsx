import { memo } from "react";
import type { MessageWithParts } from "../../core/schema";
import { formatCost, formatTime } from "../format";
import { useMessageActions } from "../hooks/message-actions";
import { ErrorBox } from "./error-box";
import { PartView } from "./parts/part-view";

/** One message as an article; consecutive assistant steps of a turn share one header. */
export const MessageView = memo(function MessageView({ message, continued, highlighted }: { message: MessageWithParts; continued: boolean; highlighted?: boolean }) {
  const info = message.info;
  const isUser = info.role === "user";
  const label = isUser ? "Your message" : info.summary ? "Summary" : "Assistant message";
  const actions = useMessageActions();
  return (
    <article className={`message ${info.role}${continued ? " continued" : ""}${info.role === "assistant" && info.summary ? " summary" : ""}${highlighted ? " highlighted" : ""}`} aria-label={label} data-message-id={info.id}>
      {!continued && (
        <header className="message-head">
          <span className="who">{isUser ? "You" : info.summary ? "Summary" : "tabcode"}</span>
          {info.role === "assistant" && <span className="meta">{info.modelID}</span>}
          <time dateTime={new Date(info.time.created).toISOString()}>{formatTime(info.time.created)}</time>
          {actions && (
            <span className="message-actions">
              <button type="button" className="link" disabled={actions.busy} onClick={() => actions.fork(info.id)} aria-label="Fork from this message" title="Copy the conversation up to here (and the files as they were) into a new session">
                Fork
              </button>
              {isUser && (
                <button type="button" className="link" disabled={actions.busy} onClick={() => actions.revert(info.id)} aria-label="Revert this turn" title="Undo this message and everything after it, files included">
                  Revert
                </button>
              )}
            </span>
          )}
        </header>
      )}
      <div className="parts">
        {message.parts.map((p) => (
          <PartView key={p.id} part={p} role={info.role} />
        ))}
      </div>
      {info.role === "assistant" && info.error && <ErrorBox error={info.error} />}
      {info.role === "assistant" && info.cost > 0 && info.time.completed && <div className="message-cost">{formatCost(info.cost)}</div>}
    </article>
  );
});
