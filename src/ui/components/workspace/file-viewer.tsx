import { useEffect, useState } from "react";
import type { FileEntry, Sandbox } from "../../../core/ports/sandbox";
import { download } from "./workspace-io";
import { useModal } from "../../hooks/use-modal";

const MAX_SHOWN = 512 * 1024;

function isProbablyText(bytes: Uint8Array): boolean {
  const sample = bytes.subarray(0, 4096);
  let odd = 0;
  for (const b of sample) {
    if (b === 0) return false;
    if (b < 9 || (b > 13 && b < 32)) odd++;
  }
  return odd <= sample.length * 0.3;
}

/** Shows one workspace file, read-only, as text (never as HTML). */
export function FileViewer({ sandbox, entry, onClose }: { sandbox: Sandbox; entry: FileEntry; onClose: () => void }) {
  const ref = useModal();
  const [bytes, setBytes] = useState<Uint8Array | null>(null);
  const [error, setError] = useState<string>();

  useEffect(() => {
    sandbox.fs.readFile(entry.path).then(setBytes, (e: unknown) => setError(e instanceof Error ? e.message : String(e)));
  }, [sandbox, entry]);

  const rel = entry.path.slice(sandbox.root.length + 1);
  const text = bytes && isProbablyText(bytes) ? new TextDecoder().decode(bytes.subarray(0, MAX_SHOWN)) : null;
  return (
    <dialog ref={ref} className="dialog viewer" aria-label={`File ${rel}`} onClose={onClose} onCancel={onClose}>
      <h2>{rel}</h2>
      {error && <p className="error-text">{error}</p>}
      {bytes && text === null && <p>Binary file, {bytes.length.toLocaleString()} bytes.</p>}
      {text !== null && <pre className="file-content">{text}</pre>}
      {bytes && bytes.length > MAX_SHOWN && text !== null && <p className="hint">Showing the first 512 KB.</p>}
      <div className="dialog-actions">
        {bytes && (
          <button type="button" onClick={() => download(entry.name, bytes, "application/octet-stream")}>
            Download
          </button>
        )}
        <button type="button" className="primary" onClick={onClose}>
          Close
        </button>
      </div>
    </dialog>
  );
}
