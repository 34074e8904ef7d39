import { memo, useEffect, useRef, useState } from "react";
import type { MessageWithParts, TextPart } from "../../core/schema";
import { costWords, unpricedSteps } from "../../core/export/totals";
import { formatCost, formatTime } from "../format";
import { useIsNewest, useMessageActions } from "../hooks/message-actions";
import { finishNotice } from "../../core/session/finish-notice";
import { ErrorBox } from "./error-box";
import { CopyButton } from "../markdown/copy-button";
import { PartView } from "./parts/part-view";
import { systemEventKind } from "../../core/conversation/system-event";
import { SystemEventView } from "./system-event-view";
import { isCutOff } from "../../core/errors";
import { MenuButton } from "./menu-button";
import { useFocusAtEnd } from "../hooks/use-focus-at-end";
import { focusComposer } from "../return-focus";

/** What the user should know about how an answer ended: cut at the output limit (with Continue) or stopped by the provider's filter. */
function FinishNotice({ message, onContinue }: { message: MessageWithParts; onContinue: (() => void) | undefined }) {
  const notice = finishNotice(message);
  if (!notice) return null;
  return (
    <div className={`finish-notice finish-${notice.kind}`} role="status">
      <span>{notice.text}</span>
      {notice.kind === "length" && onContinue && <ContinueButton messageID={message.info.id} onContinue={onContinue} />}
    </div>
  );
}

/** Continue, on the newest answer only: pressed on an older cut answer it would act on whatever came after. */
function ContinueButton({ messageID, onContinue }: { messageID: string; onContinue: () => void }) {
  if (!useIsNewest(messageID)) return null;
  return (
    <button type="button" onClick={onContinue}>
      Continue
    </button>
  );
}

/** A failed or cut answer's box; Continue only while it is the newest answer. */
function AnswerError({ message, onRetry, onContinue }: { message: MessageWithParts; onRetry: (() => void) | undefined; onContinue: (() => void) | undefined }) {
  const newest = useIsNewest(message.info.id);
  if (message.info.role !== "assistant" || !message.info.error) return null;
  return <ErrorBox error={message.info.error} onRetry={onRetry} onContinue={newest ? onContinue : undefined} />;
}

/**
 * One message as an article; consecutive assistant steps of a turn share one header, and only the last
 * step (`lastStep`) offers Regenerate: every step would ask the same question again.
 */
export const MessageView = memo(function MessageView({ message, continued, lastStep, highlighted }: { message: MessageWithParts; continued: boolean; lastStep: boolean; highlighted?: boolean }) {
  const kind = systemEventKind(message);
  if (kind) return <SystemEventView message={message} kind={kind} />;
  return <ChatMessage message={message} continued={continued} lastStep={lastStep} highlighted={highlighted} />;
});

/** Errors after which the model can pick up from what it already wrote. */
/** Why a message's menu actions that change the conversation wait. */
const BUSY_REASON = "The agent is working: try again when it is idle";


/**
 * Edit-and-resend of a message, or the correction of a summary. It opens focused, with the caret at the end
 * of the text (a layout effect: still in the click's task, so one tap on a phone is enough); Escape cancels.
 */
function EditForm({ initial, summary, onSave, onCancel }: { initial: string; summary: boolean; onSave: (text: string) => void; onCancel: () => void }) {
  const [text, setText] = useState(initial);
  const box = useFocusAtEnd<HTMLTextAreaElement>();
  return (
    <form
      className="edit-form"
      onSubmit={(e) => {
        e.preventDefault();
        if (text.trim()) onSave(text.trim());
      }}
      onKeyDown={(e) => {
        // Shift+Esc stays the composer's shortcut; a handled Esc stops no run and closes no drawer.
        if (e.key !== "Escape" || e.shiftKey || e.nativeEvent.isComposing) return;
        e.preventDefault();
        onCancel();
      }}
    >
      <textarea ref={box} aria-label={summary ? "Edited summary" : "Edited message"} value={text} rows={summary ? 10 : 3} onChange={(e) => setText(e.target.value)} />
      <div className="dialog-actions">
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className="primary" disabled={!text.trim()}>
          {summary ? "Save summary" : "Send as a new branch"}
        </button>
      </div>
    </form>
  );
}

function ChatMessage({ message, continued, lastStep, highlighted }: { message: MessageWithParts; continued: boolean; lastStep: boolean; highlighted?: boolean }) {
  const info = message.info;
  const isUser = info.role === "user";
  const label = isUser ? "Your message" : info.summary ? "Summary" : "Assistant message";
  const actions = useMessageActions();
  // The text an open edit form started from (null: no form).
  const [editing, setEditing] = useState<string | null>(null);
  const editButton = useRef<HTMLButtonElement>(null);
  const isSummary = info.role === "assistant" && info.summary === true;
  // Each message's buttons share their names ("Fork from this message"): their description says which message (who, when).
  const about = `${info.id}-who ${info.id}-when`;
  const summaryText = isSummary ? (message.parts.filter((p): p is TextPart => p.type === "text" && !p.ignored).at(-1)?.text ?? "") : "";
  const branch = isUser ? actions?.branch(info.id) : undefined;
  const steps = stepsShown(message);
  // Once per answer, under its last step: the steps before it would ask the same question again.
  const regenerate = Boolean(actions && lastStep && info.role === "assistant" && !info.summary && info.finish && !info.error);
  const userText = message.parts.map((p) => (p.type === "text" && !p.synthetic ? p.text : "")).join("");
  const copyText = message.parts
    .filter((p): p is TextPart => p.type === "text" && !p.ignored && !p.synthetic)
    .map((p) => p.text)
    .join("\n\n")
    .trim();
  return (
    <article className={`message ${info.role}${continued ? " continued" : ""}${info.role === "assistant" && info.summary ? " summary" : ""}${highlighted ? " highlighted" : ""}`} aria-label={label} data-message-id={info.id}>
      {!continued && (
        <header className="message-head">
          <span className="who" id={`${info.id}-who`}>
            {isUser ? "You" : info.summary ? "Summary" : "tabcode"}
          </span>
          {info.role === "assistant" && (
            <span className="meta" title={info.modelID}>
              {info.modelID}
            </span>
          )}
          <time id={`${info.id}-when`} dateTime={new Date(info.time.created).toISOString()}>
            {formatTime(info.time.created)}
          </time>
          {actions && (
            <span className="message-actions">
              <button type="button" className="link" disabled={actions.busy} onClick={() => actions.fork(info.id)} aria-label="Fork from this message" aria-describedby={about} title="Copy the conversation up to here (and the files as they were) into a new session">
                Fork
              </button>
              {isSummary && info.role === "assistant" && info.finish && !info.error && (
                <button ref={editButton} type="button" className="link" disabled={actions.busy} onClick={() => setEditing(summaryText)} aria-label="Edit summary" aria-describedby={about} title="Correct the summary before the conversation continues: the model sees your version">
                  Edit summary
                </button>
              )}
              {isUser && userText && (
                <button ref={editButton} type="button" className="link" disabled={actions.busy} onClick={() => setEditing(userText)} aria-label="Edit this message" aria-describedby={about} title="Change this message and send it again as a new branch (the old one is kept)">
                  Edit
                </button>
              )}
              {isUser && (
                <button type="button" className="link" disabled={actions.busy} onClick={() => actions.revert(info.id)} aria-label="Revert this turn" aria-describedby={about} title="Undo this message and everything after it, files included">
                  Revert
                </button>
              )}
              {!isSummary && (
                <MenuButton
                  className="message-menu"
                  label="Message actions"
                  buttonLabel="More actions for this message"
                  items={[
                    ...(copyText ? [{ label: "Pin as constraint", run: () => actions.pinMessage(info.id, copyText), title: "Send this text with every request, through every summary" }] : []),
                    { label: "Summarise up to here", run: () => actions.summariseUpTo(info.id), disabled: actions.busy, reason: BUSY_REASON, title: "Fold the conversation up to this turn into a summary; later turns stay as they are" },
                    { label: "Start fresh from here", run: () => actions.startFresh(info.id), disabled: actions.busy, reason: BUSY_REASON, title: "A new linked session that starts from a brief of this one (goal, constraints, decisions, files)" },
                  ]}
                >
                  ⋯
                </MenuButton>
              )}
            </span>
          )}
        </header>
      )}
      {branch && actions && <BranchSwitch at={info.role === "user" ? (info.prev ?? "") : ""} index={branch.index} count={branch.count} busy={actions.busy} onStep={(step) => actions.switchBranch(info.id, step)} />}
      {editing !== null && actions ? (
        <EditForm
          initial={editing}
          summary={isSummary}
          onSave={(text) => {
            if (isSummary) {
              actions.editSummary(info.id, text);
              // The summary stays where it is: back to its Edit summary.
              editButton.current?.focus();
            } else {
              // This message goes (the new branch's takes its place): the keyboard goes to the message box.
              focusComposer();
              actions.edit(info.id, text);
            }
            setEditing(null);
          }}
          onCancel={() => {
            setEditing(null);
            // Back to the control that opened the form (the form's own buttons are about to go).
            editButton.current?.focus();
          }}
        />
      ) : (
        <div className="parts">
          {message.parts.map((p) => (
            <PartView key={p.id} part={p} role={info.role} live={info.role === "assistant" && info.time.completed === undefined} />
          ))}
        </div>
      )}
      {(copyText || regenerate) && editing === null && (
        <div className="message-foot">
          {copyText && <CopyButton text={() => copyText} label={isUser ? "Copy your message" : "Copy answer"} />}
          {regenerate && actions && (
            <button type="button" className="link" disabled={actions.busy} onClick={() => actions.regenerate(info.id)} title="Ask the same question again; the new answer is a new branch and this one stays">
              Regenerate
            </button>
          )}
        </div>
      )}
      {info.role === "assistant" && !info.error && <FinishNotice message={message} onContinue={actions && !actions.busy ? actions.continueAnswer : undefined} />}
      {info.role === "assistant" && info.error && (
        <AnswerError
          message={message}
          onRetry={actions && !actions.busy && !info.summary ? () => actions.regenerate(info.id) : undefined}
          onContinue={actions && !actions.busy && isCutOff(info.error.name) ? () => actions.continueAnswer() : undefined}
        />
      )}
      {info.role === "assistant" && info.cost > 0 && info.time.completed && steps !== 1 && (
        // A step's usage line already shows its cost: the message's own figure only where it adds something
        // (several steps: their total; none shown, as in an imported session: the only figure there is).
        <MessageCost message={message} cost={info.cost} steps={steps} />
      )}
    </article>
  );
}

/** How many step usage lines (with their cost) a message shows. */
function stepsShown(message: MessageWithParts): number {
  let n = 0;
  for (const p of message.parts) if (p.type === "step-finish") n++;
  return n;
}

/**
 * The branch switch pressed last: the message it was on is replaced by its sibling, so the sibling's switch
 * (the same branch point) takes the keyboard back, on the same button while it can still be pressed.
 */
let switchedAt: { at: string; step: -1 | 1 } | undefined;

function BranchSwitch({ at, index, count, busy, onStep }: { at: string; index: number; count: number; busy: boolean; onStep: (step: -1 | 1) => void }) {
  const prev = useRef<HTMLButtonElement>(null);
  const next = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const s = switchedAt;
    if (!s || s.at !== at) return;
    switchedAt = undefined;
    const same = s.step < 0 ? prev.current : next.current;
    (same && !same.disabled ? same : s.step < 0 ? next.current : prev.current)?.focus();
  }, [at]);
  const step = (by: -1 | 1) => {
    switchedAt = { at, step: by };
    onStep(by);
  };
  return (
    <nav className="branch-switch" aria-label="Branches of this message">
      <button ref={prev} type="button" className="icon" aria-label="Previous branch" disabled={index === 0 || busy} onClick={() => step(-1)}>
        ◂
      </button>
      <span>
        {index + 1}/{count}
      </span>
      <button ref={next} type="button" className="icon" aria-label="Next branch" disabled={index === count - 1 || busy} onClick={() => step(1)}>
        ▸
      </button>
    </nav>
  );
}

/** An answer's own cost line: several steps' total (saying when some had no known price), or the only figure there is. */
function MessageCost({ message, cost, steps }: { message: MessageWithParts; cost: number; steps: number }) {
  const words = costWords(cost, unpricedSteps([message]));
  return (
    <div className="message-cost" title={words.long}>
      {steps > 1 ? `total ${words.short}` : formatCost(cost)}
    </div>
  );
}
