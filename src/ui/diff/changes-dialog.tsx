import { useEffect, useMemo, useState } from "react";
import type { Sandbox } from "../../core/ports/sandbox";
import type { MessageWithParts } from "../../core/schema";
import { useServices } from "../hooks/services";
import { useModal } from "../hooks/use-modal";
import { diffTexts, type FileDiffRows } from "./diff-rows";
import { DiffView } from "./diff-view";
import { type ChangeSet, changesOf } from "./turn-changes";

type Loaded = { ok: true; diff: FileDiffRows; note?: string } | { ok: false; message: string };

const decoder = new TextDecoder("utf-8", { fatal: true });
/** Text of a file's bytes; `null` for binary content (not shown as a diff). */
function asText(bytes: Uint8Array | undefined): string | undefined | null {
  if (!bytes) return undefined;
  if (bytes.includes(0)) return null;
  try {
    return decoder.decode(bytes);
  } catch {
    return null;
  }
}

async function loadDiff(sandbox: Sandbox, set: ChangeSet, file: string): Promise<Loaded> {
  try {
    const before = asText(await sandbox.readAt(set.from, file));
    const afterBytes = set.to ? await sandbox.readAt(set.to, file) : await sandbox.fs.readFile(`${sandbox.root}/${file}`).catch(() => undefined);
    const after = asText(afterBytes);
    if (before === null || after === null) return { ok: false, message: "This is a binary file: its bytes changed, there are no lines to compare." };
    const note = before === undefined ? "New file." : after === undefined ? "Deleted." : set.to ? undefined : "Compared with the file as it is now (this step recorded no snapshot after it).";
    return { ok: true, diff: diffTexts(before, after), note };
  } catch (e) {
    return { ok: false, message: `Could not read this file's versions: ${e instanceof Error ? e.message : String(e)}` };
  }
}

interface Props {
  sessionID: string;
  /** The assistant message holding the patch part. */
  messageID: string;
  /** One step's changes, or the whole turn's. */
  scope: "step" | "turn";
  /** The file to show first. */
  file?: string;
  onClose(): void;
}

/** The diffs of the files a step (or a whole turn) changed, from the workspace snapshots before and after. */
export function ChangesDialog({ sessionID, messageID, scope, file, onClose }: Props) {
  const { store, sandbox: sandboxes } = useServices();
  const ref = useModal();
  const [messages, setMessages] = useState<MessageWithParts[]>();
  const [sandbox, setSandbox] = useState<Sandbox>();
  const [error, setError] = useState<string>();
  const [current, setCurrent] = useState<string | undefined>(file);
  const [diffs, setDiffs] = useState<Record<string, Loaded>>({});
  useEffect(() => {
    let live = true;
    Promise.all([store.messages(sessionID), sandboxes.sandboxFor(sessionID)]).then(
      ([m, sb]) => {
        if (!live) return;
        setMessages(m);
        setSandbox(sb);
      },
      (e: unknown) => live && setError(e instanceof Error ? e.message : String(e)),
    );
    return () => {
      live = false;
    };
  }, [store, sandboxes, sessionID]);
  const set = useMemo(() => (messages ? changesOf(messages, messageID, scope) : undefined), [messages, messageID, scope]);
  const shown = current ?? set?.files[0];
  useEffect(() => {
    if (!sandbox || !set || !shown || diffs[shown]) return;
    let live = true;
    void loadDiff(sandbox, set, shown).then((d) => live && setDiffs((old) => ({ ...old, [shown]: d })));
    return () => {
      live = false;
    };
  }, [sandbox, set, shown, diffs]);
  const title = scope === "turn" ? "Changes of this turn" : "Changes of this step";
  const loaded = shown ? diffs[shown] : undefined;
  return (
    <dialog ref={ref} className="dialog wide changes-dialog" aria-labelledby="changes-title" onClose={onClose} onCancel={onClose}>
      <h2 id="changes-title">{title}</h2>
      {error && <p role="alert">The files could not be opened: {error}</p>}
      {!error && !set && <p role="status">{messages ? "No file was changed here." : "Loading the changes…"}</p>}
      {set && (
        <div className="changes-body">
          <nav aria-label="Changed files" className="changes-files">
            <p className="hint">
              {set.files.length} file{set.files.length === 1 ? "" : "s"} changed
            </p>
            <ul>
              {set.files.map((f) => (
                <li key={f}>
                  <button type="button" className="changes-file" aria-current={f === shown ? "true" : undefined} onClick={() => setCurrent(f)}>
                    {f}
                  </button>
                </li>
              ))}
            </ul>
          </nav>
          <section className="changes-diff" aria-label={shown ? `Changes in ${shown}` : "Changes"}>
            {shown && <h3 className="changes-name">{shown}</h3>}
            {!loaded && <p role="status">Loading the diff…</p>}
            {loaded && !loaded.ok && <p role="alert">{loaded.message}</p>}
            {loaded?.ok && loaded.note && <p className="hint">{loaded.note}</p>}
            {loaded?.ok && shown && <DiffView diff={loaded.diff} name={shown} />}
          </section>
        </div>
      )}
      <div className="dialog-actions">
        <button type="button" className="primary" onClick={onClose}>
          Close
        </button>
      </div>
    </dialog>
  );
}
