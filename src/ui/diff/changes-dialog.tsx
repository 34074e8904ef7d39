import { useEffect, useMemo, useState } from "react";
import type { Sandbox } from "../../core/ports/sandbox";
import type { MessageWithParts } from "../../core/schema";
import { useServices } from "../hooks/services";
import { useModal } from "../hooks/use-modal";
import { isMissingSnapshot } from "../../core/snapshot/store";
import { useDetached } from "../hooks/detached";
import { diffFromPatches, diffTexts, type FileDiffRows } from "./diff-rows";
import { DiffView } from "./diff-view";
import { type ChangeSet, changesOf, recordedEdits, stepsOf } from "./turn-changes";

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

/** Where the file versions come from: this browser's workspace snapshots, or only what the conversation recorded. */
type Source = { sandbox: Sandbox } | { shared: true };

/** A file's changes from what the edit and write tools recorded, when its versions are not here. */
function fromRecord(steps: MessageWithParts[], file: string, shared: boolean, root?: string): Loaded {
  const why = shared ? "A shared session carries no files" : "The files of this point are not in this browser (the session came from an export or a share)";
  const patches = recordedEdits(steps, file, root);
  if (patches.length === 0) return { ok: false, message: `${why}, and no edit in the conversation records this file's lines: a command changed it.` };
  const n = patches.length;
  return { ok: true, diff: diffFromPatches(patches), note: `${why}: shown from ${n === 1 ? "the edit" : `the ${n} edits, one after another,`} recorded in the conversation.` };
}

async function loadDiff(source: Source, steps: MessageWithParts[], set: ChangeSet, file: string): Promise<Loaded> {
  if (!("sandbox" in source)) return fromRecord(steps, file, true);
  const { sandbox } = source;
  try {
    const before = asText(await sandbox.readAt(set.from, file));
    const afterBytes = set.to ? await sandbox.readAt(set.to, file) : await sandbox.fs.readFile(`${sandbox.root}/${file}`).catch(() => undefined);
    const after = asText(afterBytes);
    if (before === null || after === null) return { ok: false, message: "This is a binary file: its bytes changed, there are no lines to compare." };
    const note = before === undefined ? "New file." : after === undefined ? "Deleted." : set.to ? undefined : "Compared with the file as it is now (this step recorded no snapshot after it).";
    return { ok: true, diff: diffTexts(before, after), note };
  } catch (e) {
    if (isMissingSnapshot(e)) return fromRecord(steps, file, false, sandbox.root);
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
  // A shared link's conversation is not in the store and has no workspace: its own messages are all there is.
  const detached = useDetached();
  const ref = useModal();
  const [messages, setMessages] = useState<MessageWithParts[] | undefined>(detached ?? undefined);
  const [source, setSource] = useState<Source | undefined>(detached ? { shared: true } : undefined);
  const [error, setError] = useState<string>();
  const [current, setCurrent] = useState<string | undefined>(file);
  const [diffs, setDiffs] = useState<Record<string, Loaded>>({});
  useEffect(() => {
    if (detached) return;
    let live = true;
    Promise.all([store.messages(sessionID), sandboxes.sandboxFor(sessionID)]).then(
      ([m, sandbox]) => {
        if (!live) return;
        setMessages(m);
        setSource({ sandbox });
      },
      (e: unknown) => live && setError(e instanceof Error ? e.message : String(e)),
    );
    return () => {
      live = false;
    };
  }, [store, sandboxes, sessionID, detached]);
  const set = useMemo(() => (messages ? changesOf(messages, messageID, scope) : undefined), [messages, messageID, scope]);
  const steps = useMemo(() => (messages ? stepsOf(messages, messageID, scope) : []), [messages, messageID, scope]);
  const shown = current ?? set?.files[0];
  useEffect(() => {
    if (!source || !set || !shown || diffs[shown]) return;
    let live = true;
    void loadDiff(source, steps, set, shown).then((d) => live && setDiffs((old) => ({ ...old, [shown]: d })));
    return () => {
      live = false;
    };
  }, [source, steps, set, shown, diffs]);
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
