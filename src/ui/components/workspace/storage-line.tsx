import { useEffect, useState } from "react";
import { sessionStorage } from "../../../app/session-actions";
import { whenIdle } from "../../../app/warm-up";
import { useServices } from "../../hooks/services";

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / (1024 * 1024)).toFixed(1)} MB`;
}

/** How long after a change of the workspace its storage is counted again. */
const STORAGE_COUNT_DELAY_MS = 1_000;

/** How much browser storage this session's workspace takes: files now, and the history kept for revert and fork. */
export function StorageLine({ sessionID, version }: { sessionID: string; version: number }) {
  const services = useServices();
  const [usage, setUsage] = useState<{ files: number; history: number }>();
  useEffect(() => {
    let live = true;
    // Counted a second after the last change, when the page is idle: it reads the whole session, and a
    // change comes with every turn (the count is not worth slowing the next request of a long session).
    const timer = setTimeout(() => {
      const count = () => {
        if (!live || version < 0) return;
        sessionStorage(services, sessionID)
          .then((u) => live && setUsage(u))
          .catch(() => undefined);
      };
      whenIdle(count);
    }, STORAGE_COUNT_DELAY_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [services, sessionID, version]);
  if (!usage) return null;
  return (
    <p className="hint storage-line">
      Storage: {formatBytes(usage.files)} of files, {formatBytes(usage.history)} of history (kept for revert, fork and branch switches; freed when the session
      is deleted or a reverted turn is replaced)
    </p>
  );
}
