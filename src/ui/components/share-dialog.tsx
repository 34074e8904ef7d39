import { useEffect, useRef, useState } from "react";
import { exportOne, secretsIn, share } from "../../app/session-actions";
import { appRoot } from "../../app/isolation";
import type { Finding } from "../../core/export";
import { useServices } from "../hooks/services";
import { useModal } from "../hooks/use-modal";
import { RedactionReview } from "./redaction-review";
import { download } from "./workspace/workspace-io";

type State =
  | { s: "checking" }
  | { s: "review"; findings: Finding[] }
  | { s: "working" }
  | { s: "link"; url: string; locked: boolean }
  | { s: "too-large"; size: number }
  | { s: "error"; message: string };

function kb(n: number): string {
  return `${(n / 1024).toFixed(1)} KB`;
}

/**
 * Serverless sharing: the session travels inside the link's fragment (which
 * browsers never send to a server). First a review: secrets found in the
 * session (checked ones are replaced) and an optional passphrase that
 * encrypts the link. Over about 8 KB of link → the export file, size shown.
 */
export function ShareDialog({ sessionID, onClose }: { sessionID: string; onClose: () => void }) {
  const app = useServices();
  const ref = useModal();
  const [state, setState] = useState<State>({ s: "checking" });
  const [remove, setRemove] = useState<Set<string>>(new Set());
  const [passphrase, setPassphrase] = useState("");
  // The keyboard follows the dialog's steps: into the passphrase once the check is done, then to Copy link.
  const passphraseField = useRef<HTMLInputElement>(null);
  const copyButton = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (state.s === "review") passphraseField.current?.focus();
    if (state.s === "link") copyButton.current?.focus();
  }, [state.s]);
  const [copied, setCopied] = useState(false);
  const [findingsForFile, setFindingsForFile] = useState<Finding[]>([]);

  useEffect(() => {
    secretsIn(app, sessionID).then(
      (findings) => {
        setRemove(new Set(findings.map((f) => f.value)));
        setState({ s: "review", findings });
      },
      (e: unknown) => setState({ s: "error", message: e instanceof Error ? e.message : String(e) }),
    );
  }, [app, sessionID]);

  const chosen = (findings: Finding[]) => findings.filter((f) => remove.has(f.value));
  const create = (findings: Finding[]) => {
    setState({ s: "working" });
    // The app's root, also from the isolated page: a link opens the plain page, which moves on if it must.
    const origin = appRoot(location.origin, import.meta.env.BASE_URL).replace(/\/$/, "");
    share(app, sessionID, origin, { passphrase: passphrase || undefined, remove: chosen(findings) }).then(
      (r) => setState(r.ok ? { s: "link", url: r.url, locked: passphrase !== "" } : { s: "too-large", size: r.size }),
      (e: unknown) => setState({ s: "error", message: e instanceof Error ? e.message : String(e) }),
    );
    setFindingsForFile(findings);
  };

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
      {(state.s === "checking" || state.s === "working") && <p>{state.s === "checking" ? "Checking for secrets…" : "Preparing the link…"}</p>}
      {state.s === "review" && (
        <>
          <RedactionReview findings={state.findings} remove={remove} onChange={setRemove} target="the link" />
          {/* A form: Enter in the passphrase creates the link. */}
          <form
            onSubmit={(e) => {
              e.preventDefault();
              create(state.findings);
            }}
          >
            <div className="field">
              <label htmlFor="share-passphrase">Passphrase (optional)</label>
              <input ref={passphraseField} id="share-passphrase" type="password" autoComplete="new-password" value={passphrase} onChange={(e) => setPassphrase(e.target.value)} />
              <small>With a passphrase the link is encrypted (AES-GCM); it opens only for someone who also has the passphrase. Send it separately.</small>
            </div>
            <div className="dialog-actions">
              <button type="submit" className="primary">
                Create link
              </button>
            </div>
          </form>
        </>
      )}
      {state.s === "link" && (
        <>
          <p>
            {state.locked
              ? "This link is encrypted: it opens only with the passphrase."
              : "Anyone with this link can open a read-only copy."}{" "}
            The session is inside the link itself — nothing is uploaded. Your API key and settings are never included.
          </p>
          <p className="hint">
            The workspace's files are not in the link: it shows the conversation, with each edit and command as its card shows it. To pass the files
            on too, use Export → JSON with files.
          </p>
          <input className="share-url" readOnly aria-label="Share link" value={state.url} onFocus={(e) => e.currentTarget.select()} />
          <div className="dialog-actions">
            <span aria-live="polite">{copied ? "Copied." : ""}</span>
            <button ref={copyButton} type="button" onClick={() => void copy(state.url)}>
              Copy link
            </button>
          </div>
        </>
      )}
      {state.s === "too-large" && (
        <>
          <p>
            This link would be {kb(state.size)} long; messengers and mail reliably carry about 8 KB. Share the export file instead: whoever receives it
            can import it.
          </p>
          <div className="dialog-actions">
            <button type="button" onClick={() => void exportOne(app, sessionID, "json", chosen(findingsForFile)).then((d) => download(d.name, d.data, d.mime))}>
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
