import { useEffect, useState } from "react";
import { exportOne, share } from "../../app/session-actions";
import { useServices } from "../hooks/services";
import { download } from "./workspace/workspace-io";
import { useModal } from "../hooks/use-modal";

type State = { s: "working" } | { s: "link"; url: string } | { s: "too-large"; size: number } | { s: "error"; message: string };

/**
 * Serverless sharing: the session travels inside the link's fragment (which
 * browsers never send to a server). Too large for a link → the export file.
 */
export function ShareDialog({ sessionID, onClose }: { sessionID: string; onClose: () => void }) {
  const app = useServices();
  const ref = useModal();
  const [state, setState] = useState<State>({ s: "working" });
  const [copied, setCopied] = useState(false);

  useEffect(() => {
    const origin = `${location.origin}${location.pathname.replace(/\/$/, "")}`;
    share(app, sessionID, origin).then(
      (r) => setState(r.ok ? { s: "link", url: r.url } : { s: "too-large", size: r.size }),
      (e: unknown) => setState({ s: "error", message: e instanceof Error ? e.message : String(e) }),
    );
  }, [app, sessionID]);

  const copy = async (url: string) => {
    try {
      await navigator.clipboard.writeText(url);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  };

  return (
    <dialog ref={ref} className="dialog" aria-labelledby="share-title" onClose={onClose} onCancel={onClose}>
      <h2 id="share-title">Share this session</h2>
      {state.s === "working" && <p>Preparing the link…</p>}
      {state.s === "link" && (
        <>
          <p>Anyone with this link can open a read-only copy. The session is inside the link itself — nothing is uploaded. Your API key and settings are never included.</p>
          <input className="share-url" readOnly aria-label="Share link" value={state.url} onFocus={(e) => e.currentTarget.select()} />
          <div className="dialog-actions">
            <span aria-live="polite">{copied ? "Copied." : ""}</span>
            <button type="button" onClick={() => void copy(state.url)}>
              Copy link
            </button>
          </div>
        </>
      )}
      {state.s === "too-large" && (
        <>
          <p>This session is too large for a link ({Math.round(state.size / 1024)} KB compressed). Share the export file instead: whoever receives it can import it.</p>
          <div className="dialog-actions">
            <button
              type="button"
              onClick={() =>
                void exportOne(app, sessionID, "json").then((d) => download(d.name, d.data, d.mime))
              }
            >
              Download the export file
            </button>
          </div>
        </>
      )}
      {state.s === "error" && <p className="error-text">{state.message}</p>}
      <div className="dialog-actions">
        <button type="button" className="primary" onClick={onClose}>
          Close
        </button>
      </div>
    </dialog>
  );
}
