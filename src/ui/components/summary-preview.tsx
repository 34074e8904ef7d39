import { useEffect, useState, useSyncExternalStore } from "react";
import type { CompactionPreview } from "../../core/compaction/preview";
import { formatTokens } from "../format";
import { useServices } from "../hooks/services";

/** "34 messages (61k tokens) into a summary of about 2k tokens". */
export function previewText(p: CompactionPreview): string {
  return `${p.messages} message${p.messages === 1 ? "" : "s"} (${formatTokens(p.tokens)} tokens) into a summary of about ${formatTokens(p.target)} tokens`;
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
        Context is nearly full: about to summarise {previewText(pending.preview)} <span className="pending-left">(in {left} s)</span>
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
