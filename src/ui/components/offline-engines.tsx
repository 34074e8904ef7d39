import { useEffect, useState } from "react";
import { enginesCached, prefetchEngines } from "../../app/engine-cache";

type State = { kind: "unknown" } | { kind: "missing" } | { kind: "loading"; bytes: number } | { kind: "ready" } | { kind: "error"; message: string };

/** "Make available offline": pre-fetches Python for the local sandbox (otherwise it downloads on first use). */
export function OfflineEngines() {
  const [state, setState] = useState<State>({ kind: "unknown" });
  useEffect(() => {
    let live = true;
    void enginesCached().then((ok) => live && setState({ kind: ok ? "ready" : "missing" }));
    return () => {
      live = false;
    };
  }, []);
  const run = async () => {
    setState({ kind: "loading", bytes: 0 });
    try {
      await prefetchEngines((bytes) => setState({ kind: "loading", bytes }));
      setState({ kind: "ready" });
    } catch (e) {
      setState({ kind: "error", message: e instanceof Error ? e.message : String(e) });
    }
  };
  const text =
    state.kind === "ready"
      ? "Python is available offline."
      : state.kind === "loading"
        ? `Downloading Python… ${(state.bytes / 1e6).toFixed(1)} MB`
        : state.kind === "error"
          ? state.message
          : "Python (12 MB) downloads the first time a command uses it; sqlite3 and node (1.4 MB) are kept offline from the first visit.";
  return (
    <div className="field">
      <button type="button" onClick={() => void run()} disabled={state.kind === "loading" || state.kind === "ready"}>
        Make available offline
      </button>
      <small role="status">{text}</small>
    </div>
  );
}
