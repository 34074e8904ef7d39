import { useEffect, useRef, useState } from "react";
import type { FileEntry, Sandbox } from "../../../core/ports/sandbox";
import type { Ruleset } from "../../../core/schema";
import { saveUserFile } from "../../../core/snapshot/save-user-file";
import { binaryBytes, decodeTextFile, utf16Bom } from "../../../core/tools/text-file";
import { useModal } from "../../hooks/use-modal";
import { download } from "./workspace-io";
import { escapeTo, UnsavedGuard } from "../unsaved-guard";
import { sameBytes } from "../../../core/util/bytes";

const MAX_SHOWN = 512 * 1024;
const BOM = "\uFEFF";

/** The file's text as read (a UTF-8 BOM kept, for a save to keep it), or null for binary files. */
function decode(bytes: Uint8Array): string | null {
  if (binaryBytes(bytes)) return null;
  if (utf16Bom(bytes)) return decodeTextFile(bytes.subarray(0, MAX_SHOWN)).text;
  return new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes.subarray(0, MAX_SHOWN));
}

/** Whether the bytes are UTF-8 throughout (a Latin-1 é is not: saved from the text shown, it would become U+FFFD). */
function isUtf8(bytes: Uint8Array): boolean {
  return decodeTextFile(bytes).utf8;
}


/** What the textarea edits (no BOM, `\n` lines) and how to write it back as the file had it. */
function forEditing(text: string): { text: string; crlf: boolean; bom: boolean } {
  const bom = text.startsWith(BOM);
  const body = bom ? text.slice(1) : text;
  return { text: body.replace(/\r\n/g, "\n"), crlf: body.includes("\r\n"), bom };
}

interface Props {
  sandbox: Sandbox;
  entry: FileEntry;
  /** The rules in force for the session (read at save time): protect rules refuse a save. */
  rules: () => Promise<Ruleset[]>;
  onClose: () => void;
  /** After a save, with the file's workspace-relative path (the tree and storage line refresh; a rules file is read again). */
  onSaved?: (rel: string) => void;
  /** Changes when the workspace may have changed (a tool ran, an upload): the file is read again. */
  version?: number;
  /** Opens in Edit mode (a file just created). */
  startEditing?: boolean;
  /** Said in the viewer's status line when it changes (the file was just renamed). */
  note?: string;
  /** Rename… and Delete… (the panel asks; Delete gets the bytes shown, so a change since is asked about). */
  onRename?: () => void;
  onDelete?: (shown: Uint8Array) => void;
}

/**
 * One workspace file as text (never as HTML), with an Edit mode: a plain
 * textarea, Save (written as the user's change, see `saveUserFile`), Cancel,
 * and a guard against losing unsaved changes.
 */
export function FileViewer({ sandbox, entry, rules, onClose, onSaved, version = 0, startEditing = false, note, onRename, onDelete }: Props) {
  const ref = useModal();
  const [bytes, setBytes] = useState<Uint8Array | null>(null);
  const [error, setError] = useState<string>();
  const [draft, setDraft] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [saveError, setSaveError] = useState<string>();
  const [notice, setNotice] = useState<string>();
  const [guard, setGuard] = useState<"close" | "cancel" | null>(null);
  // The file as it is now, read again whenever the workspace may have changed. While the user edits, what is
  // shown stays the version they started from (`bytes`), and a change underneath is said, never lost.
  const [latest, setLatest] = useState<Uint8Array | null>(null);
  const [conflict, setConflict] = useState<false | "changed" | "deleted">(false);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `version` says when to read the file again
  useEffect(() => {
    let live = true;
    sandbox.fs.readFile(entry.path).then(
      (b) => {
        if (!live) return;
        setLatest(b);
        setError(undefined);
      },
      (e: unknown) => live && setError(e instanceof Error ? e.message : String(e)),
    );
    return () => {
      live = false;
    };
  }, [sandbox, entry, version]);
  useEffect(() => {
    if (latest && draft === null && (!bytes || !sameBytes(bytes, latest))) setBytes(latest);
  }, [latest, draft, bytes]);

  const rel = entry.path.slice(sandbox.root.length + 1);
  const text = bytes ? decode(bytes) : null;
  const original = text === null ? null : forEditing(text);
  const utf8 = bytes !== null && isUtf8(bytes);
  const editable = bytes !== null && text !== null && bytes.length <= MAX_SHOWN && utf8;
  const changedUnder = draft !== null && bytes !== null && latest !== null && !sameBytes(bytes, latest);
  const dirty = draft !== null && original !== null && draft !== original.text;

  const started = useRef(false);
  useEffect(() => {
    if (!startEditing || started.current || !editable || !original) return;
    started.current = true;
    setDraft(original.text);
  }, [startEditing, editable, original]);
  useEffect(() => {
    if (note) setNotice(note);
  }, [note]);

  // Leaving the page with unsaved changes asks first.
  useEffect(() => {
    if (!dirty) return;
    const onLeave = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener("beforeunload", onLeave);
    return () => window.removeEventListener("beforeunload", onLeave);
  }, [dirty]);

  const leaveEditing = () => {
    setDraft(null);
    setGuard(null);
    setSaveError(undefined);
    setConflict(false);
  };
  const requestClose = () => (dirty ? setGuard("close") : onClose());
  const requestCancel = () => (dirty ? setGuard("cancel") : leaveEditing());
  const save = async (overwrite = false) => {
    if (draft === null || !original || !bytes) return;
    setSaving(true);
    setSaveError(undefined);
    // The rules first: the check below and the write then follow each other with nothing awaited in between.
    const inForce = await rules();
    // Changed (or deleted) since the user started editing (the agent did it)? Asked, never overwritten unseen.
    const now = await sandbox.fs.readFile(entry.path).catch(() => null);
    if (!overwrite && (!now || !sameBytes(now, bytes))) {
      if (now) setLatest(now);
      setConflict(now ? "changed" : "deleted");
      setSaving(false);
      return;
    }
    setConflict(false);
    const body = (original.bom ? BOM : "") + (original.crlf ? draft.replace(/\n/g, "\r\n") : draft);
    const r = await saveUserFile(sandbox, rel, body, inForce);
    setSaving(false);
    if (!r.ok) {
      setSaveError(r.message);
      return;
    }
    const written = new TextEncoder().encode(body);
    setBytes(written);
    setLatest(written);
    setDraft(null);
    setNotice(`Saved ${rel}.`);
    onSaved?.(rel);
  };

  return (
    <dialog
      ref={ref}
      className="dialog viewer"
      aria-label={`File ${rel}`}
      onClose={onClose}
      // Esc with unsaved changes asks instead of throwing them away.
      {...escapeTo(requestClose)}
    >
      <h2>{rel}</h2>
      {error && <p className="error-text">{error}</p>}
      {bytes && text === null && <p>Binary file, {bytes.length.toLocaleString()} bytes.</p>}
      {bytes && text !== null && !utf8 && (
        <p className="hint">
          {utf16Bom(bytes)
            ? "UTF-16 text: shown here, but saving from here would change its encoding, so it cannot be edited here; download it to edit it elsewhere."
            : "Not UTF-8 text: bytes shown as � are in another encoding. Saving from here would change them, so it cannot be edited here; download it to edit it elsewhere."}
        </p>
      )}
      {changedUnder && !conflict && (
        <p role="status" className="hint">
          {rel} changed while you were editing (the agent may have written it). Saving will ask before replacing it.
        </p>
      )}
      {conflict && (
        <div role="alert" className="error-text">
          <p>
            {conflict === "deleted"
              ? `${rel} was deleted since you started editing. Save anyway to create it again with your text, or discard your changes.`
              : `${rel} changed since you started editing. Save anyway to replace that version with yours, or discard your changes to see it.`}
          </p>
          <button type="button" onClick={() => void save(true)}>
            Save anyway
          </button>{" "}
          <button type="button" onClick={leaveEditing}>
            Discard my changes
          </button>
        </div>
      )}
      {notice && draft === null && (
        <p role="status" className="hint">
          {notice}
        </p>
      )}
      {draft !== null ? (
        // The user pressed Edit: the caret goes into the text they came to change.
        <textarea autoFocus className="file-editor" aria-label={`Contents of ${rel}`} value={draft} spellCheck={false} onChange={(e) => setDraft(e.target.value)} />
      ) : (
        text !== null && <pre className="file-content">{text}</pre>
      )}
      {bytes && bytes.length > MAX_SHOWN && text !== null && <p className="hint">Showing the first 512 KB (too large to edit here).</p>}
      {saveError && (
        <p role="alert" className="error-text">
          {saveError} Your text is still here.
        </p>
      )}
      {guard && (
        <UnsavedGuard
          what={rel}
          onKeep={() => setGuard(null)}
          onDiscard={() => {
            const then = guard;
            leaveEditing();
            if (then === "close") onClose();
          }}
        />
      )}
      <div className="dialog-actions">
        {draft === null && bytes && (
          <button type="button" onClick={() => download(entry.name, bytes, "application/octet-stream")}>
            Download
          </button>
        )}
        {draft === null && editable && original && (
          <button
            type="button"
            onClick={() => {
              setNotice(undefined);
              setDraft(original.text);
            }}
          >
            Edit
          </button>
        )}
        {draft === null && bytes && onRename && (
          <button type="button" onClick={onRename}>
            Rename…
          </button>
        )}
        {draft === null && bytes && onDelete && (
          <button type="button" className="danger" onClick={() => onDelete(bytes)}>
            Delete…
          </button>
        )}
        {draft !== null && (
          <>
            <button type="button" onClick={requestCancel}>
              Cancel
            </button>
            <button type="button" className="primary" disabled={saving || !dirty || conflict !== false} onClick={() => void save()}>
              {saving ? "Saving…" : "Save"}
            </button>
          </>
        )}
        {draft === null && (
          <button type="button" className="primary" onClick={requestClose}>
            Close
          </button>
        )}
      </div>
    </dialog>
  );
}
