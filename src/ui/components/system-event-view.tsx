import { useState } from "react";
import type { MessageWithParts } from "../../core/schema";
import { ConfirmDialog } from "./confirm-dialog";
import { formatTime } from "../format";
import { useMessageActions } from "../hooks/message-actions";
import type { SystemEventKind } from "../../core/conversation/system-event";
import { compactionOrigin, importedBy, originName } from "../../core/conversation/compaction-origin";
import { checkText, compactionWords } from "./system-event";

/** The line of a goal message that starts with `prefix` (the objective), without it. */
function goalLine(text: string, prefix: string): string {
  return (
    text
      .split("\n")
      .find((l) => l.startsWith(prefix))
      ?.slice(prefix.length) ?? ""
  );
}

/** A compact divider for a message the user never typed (compaction, continue prompt, injected text). */
export function SystemEventView({ message, kind }: { message: MessageWithParts; kind: SystemEventKind }) {
  const actions = useMessageActions();
  // "undo" with turns after the summary: how many, while the question is asked.
  const [ask, setAsk] = useState<number>();
  const info = message.info;
  const compaction = message.parts.find((p) => p.type === "compaction");
  const auto = compaction?.type === "compaction" && compaction.auto;
  // A compaction an imported history brought: another agent's, so tabcode's undo and its "pins checked on the next request" do not apply.
  const origin = compaction?.type === "compaction" ? compactionOrigin(compaction, info.time.created, actions?.importedFrom) : undefined;
  const check = compaction?.type === "compaction" && (origin === undefined || compaction.check) ? checkText(compaction.check) : undefined;
  const count = actions?.compacted(info.id);
  const words = compactionWords({ auto, count, origin });
  const detail = words.detail ?? message.parts.map((p) => (p.type === "text" && !p.ignored ? p.text : "")).join("\n\n");
  // Who wrote a message the user never typed: tabcode, or the agent an imported history came from.
  const writer = importedBy(info.time.created, actions?.importedFrom);
  const who = writer === undefined ? "tabcode" : originName(writer);
  const text =
    kind === "compaction"
      ? words.text
      : kind === "continue"
        ? `${who} asked the model to carry on after the summary`
        : kind === "continue-answer"
          ? "You asked the model to continue its cut-off answer"
        : kind === "goal"
          ? `Goal set: ${goalLine(detail, "Goal: ")}`
          : kind === "goal-continue"
            ? `${who} asked the model to continue toward the goal`
            : `${who} added context for the model`;
  return (
    <article className="message system-event" aria-label="System event" data-message-id={info.id}>
      <div className="system-line">
        <span className="system-text">
          <span title={detail || undefined}>{text}</span>
          {check && (
            <span className={`system-check${check.reinjected ? " reinjected" : ""}`} title={check.detail}>
              {" "}
              · {check.text}
            </span>
          )}
        </span>
        <time dateTime={new Date(info.time.created).toISOString()}>{formatTime(info.time.created)}</time>
        {kind === "compaction" && origin === undefined && actions && (
          <button
            type="button"
            className="link"
            disabled={actions.busy}
            onClick={() => {
              const later = actions.turnsAfter(info.id);
              if (later === 0) actions.revert(info.id);
              else setAsk(later);
            }}
            aria-label="Undo this compaction"
            title="Go back to before the summary (files included); Unrevert brings it back"
          >
            undo
          </button>
        )}
      </div>
      {ask !== undefined && actions && (
        <ConfirmDialog
          title="Undo this summary?"
          body={`${ask === 1 ? "The message you sent after it goes too, with its answer" : `The ${ask} messages you sent after it go too, with their answers`} and the files they changed. Unrevert brings everything back until you send a new message.`}
          confirmLabel="Undo the summary"
          onConfirm={() => {
            setAsk(undefined);
            actions.revert(info.id);
          }}
          onCancel={() => setAsk(undefined)}
        />
      )}
    </article>
  );
}
