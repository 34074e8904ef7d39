import { useEffect, useState } from "react";
import { sessionStorage } from "../../../app/session-actions";
import { useServices } from "../../hooks/services";

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / (1024 * 1024)).toFixed(1)} MB`;
}

/** How much browser storage this session's workspace takes: files now, and the history kept for revert and fork. */
export function StorageLine({ sessionID, version }: { sessionID: string; version: number }) {
  const services = useServices();
  const [usage, setUsage] = useState<{ files: number; history: number }>();
  useEffect(() => {
    let live = true;
    if (version >= 0)
      sessionStorage(services, sessionID)
        .then((u) => live && setUsage(u))
        .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [services, sessionID, version]);
  if (!usage) return null;
  return (
    <p className="hint storage-line">
      Storage: {formatBytes(usage.files)} of files, {formatBytes(usage.history)} of history (kept for revert, fork and branch switches; freed when the session is deleted or a reverted turn is replaced)
    </p>
  );
}
