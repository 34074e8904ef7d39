import { useEffect, useState, useSyncExternalStore } from "react";
import type { CompactionPreview } from "../../core/compaction/preview";
import { formatTokens } from "../format";
import { useServices } from "../hooks/services";
import { useModal } from "../hooks/use-modal";

/** "34 messages (61k tokens) into ~2k". */
export function previewText(p: CompactionPreview): string {
  return `${p.messages} message${p.messages === 1 ? "" : "s"} (${formatTokens(p.tokens)} tokens) into ~${formatTokens(p.target)}`;
}

/** Compact now / Summarise up to here: what the summary would fold, before it runs. */
export function SummaryPreviewDialog({ preview, upTo, onConfirm, onCancel }: { preview: CompactionPreview; upTo: boolean; onConfirm: () => void; onCancel: () => void }) {
  const ref = useModal();
  return (
    <dialog ref={ref} className="dialog confirm" aria-labelledby="summary-preview-title" onCancel={onCancel} onClose={onCancel}>
      <h2 id="summary-preview-title">{upTo ? "Summarise up to here?" : "Summarise the conversation?"}</h2>
      <p>About to summarise {previewText(preview)}.</p>
      <p className="muted">
        {upTo && preview.tailStartID ? "The later turns stay as they are. " : ""}The stored conversation is not changed: “undo” on the divider brings it back exactly, and your pins are kept.
      </p>
      <div className="dialog-actions">
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
        <button type="button" className="primary" onClick={onConfirm}>
          Summarise
        </button>
      </div>
    </dialog>
  );
}

/** An automatic summary about to start: the preview, a countdown, Summarise now and Cancel. */
export function PendingSummaryBanner({ sessionID }: { sessionID: string }) {
  const { sessions } = useServices();
  const pending = useSyncExternalStore(sessions.subscribe, sessions.getPendingSummaries).get(sessionID);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!pending) return;
    const t = setInterval(() => setNow(Date.now()), 500);
    return () => clearInterval(t);
  }, [pending]);
  if (!pending) return null;
  const left = Math.max(0, Math.ceil((pending.until - now) / 1000));
  return (
    <div className="banner pending-summary" role="status">
      <span>
        Context is nearly full: about to summarise {previewText(pending.preview)} <span className="muted">(in {left} s)</span>
      </span>
      <button type="button" className="primary" onClick={() => sessions.chooseSummary(sessionID, "now")}>
        Summarise now
      </button>
      <button type="button" onClick={() => sessions.chooseSummary(sessionID, "cancel")}>
        Cancel
      </button>
    </div>
  );
}
