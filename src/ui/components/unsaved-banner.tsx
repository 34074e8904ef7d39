import { memo, useCallback, useSyncExternalStore } from "react";
import type { MessageWithParts } from "../../core/schema";
import { useServices } from "../hooks/services";
import { download } from "./workspace/workspace-io";

/** The text an answer shows now (stored and streamed), as a Markdown file. */
function answerText(m: MessageWithParts | undefined): string {
  return (m?.parts ?? []).flatMap((p) => (p.type === "text" ? [p.text] : [])).join("\n\n");
}

/**
 * Storage is full and part of an answer lives only in this tab's memory: say so, say that
 * it is retried, and offer the answer as a download so nothing shown is lost. `messages` reads the messages
 * shown now (streamed text included) when the download is asked for, so streamed frames do not render this.
 */
export const UnsavedBanner = memo(function UnsavedBanner({ sessionID, messages }: { sessionID: string; messages: () => MessageWithParts[] }) {
  const { store } = useServices();
  const subscribe = useCallback((l: () => void) => store.subscribeUnsaved(l), [store]);
  const unsaved = useSyncExternalStore(subscribe, () => store.unsavedAnswers()).filter((a) => a.sessionID === sessionID);
  if (unsaved.length === 0) return null;
  const chars = unsaved.reduce((n, a) => n + a.chars, 0);
  const size = chars >= 1024 ? `${Math.round(chars / 1024).toLocaleString()} KB` : `${chars.toLocaleString()} characters`;
  return (
    <div className="banner unsaved" role="alert">
      <span>
        Your browser's storage is full, so the last {size} of this answer exist only on this screen. tabcode saves them as soon as there is space (export, then delete old sessions to free some); download the answer to be safe.
      </span>
      <button
        type="button"
        onClick={() => {
          const text = unsaved.map((a) => answerText(messages().find((m) => m.info.id === a.messageID))).join("\n\n---\n\n");
          download(`tabcode-answer-${new Date().toISOString().slice(0, 19).replaceAll(":", "-")}.md`, text, "text/markdown");
        }}
      >
        Download the answer
      </button>
    </div>
  );
});
