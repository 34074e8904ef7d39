import { type DragEvent, useCallback, useEffect, useRef, useState } from "react";
import type { FileEntry, Sandbox } from "../../../core/ports/sandbox";
import { emit, useAppEvent } from "../../app-events";
import { useServices } from "../../hooks/services";
import { useSandbox, useSandboxStatus } from "../../hooks/use-sandbox";
import { FileActionDialog, FileViewer } from "../../lazy";
import type { FileAction, FileActionDone } from "./file-actions";
import { type FolderAction, FileTree, type Reveal } from "./file-tree";
import { StorageLine } from "./storage-line";
import { download, droppedFiles, uploadPath } from "./workspace-io";

function SandboxLine() {
  const s = useSandboxStatus();
  // The reasons are written as clauses: the line ends them as a sentence.
  const end = (r: string) => (/[.!?]$/.test(r) ? r : `${r}.`);
  const text =
    s.state === "ready" ? `${s.kind === "webcontainer" ? "WebContainer" : "Local sandbox"} — ${end(s.reason)}` : s.state === "failed" ? `Sandbox unavailable: ${end(s.reason)}` : "Sandbox: starting…";
  return (
    <p className="sandbox-line" role="status" title={s.state === "ready" ? s.licenceNote : undefined}>
      {text}
    </p>
  );
}

/** The session's files: tree, viewer, new file, rename, delete, upload (files, folders, drag and drop) and zip download. */
export function WorkspacePanel({ sessionID, version, onError }: { sessionID: string; version: number; onError: (m: string) => void }) {
  const { sandbox, error } = useSandbox(sessionID);
  const { permissions, store, settings } = useServices();
  // The session's own rules are read from storage: after a reload no run has handed them to the broker yet.
  const rulesInForce = async () => [...permissions.rulesFor(sessionID), settings.get().permissions, (await store.getSession(sessionID))?.permission ?? []];
  const [bump, setBump] = useState(0);
  // The file in the viewer; `edit`: opens in Edit mode; `note`: said in its status line.
  const [viewing, setViewing] = useState<{ entry: FileEntry; edit?: boolean; note?: string } | null>(null);
  const [action, setAction] = useState<FileAction | null>(null);
  const [reveal, setReveal] = useState<Reveal>();
  const [dragging, setDragging] = useState(false);
  // What the last upload, new file, rename or delete did.
  const [note, setNote] = useState<string>();
  const newFile = useRef<HTMLButtonElement>(null);
  // Set when focus has nowhere better to go than New file (a file at the top was deleted).
  const [focusNew, setFocusNew] = useState(0);
  useEffect(() => {
    if (focusNew) newFile.current?.focus();
  }, [focusNew]);
  useAppEvent("workspace-changed", (d) => {
    if (d.sessionID === sessionID) setBump((b) => b + 1);
  });

  const write = async (sb: Sandbox, files: [string, File][]) => {
    // Loaded on the first upload (the first screen never needs it).
    const [{ writeUserFile }, { isInstructionPath }] = await Promise.all([import("../../../core/snapshot/user-writes"), import("../../../core/prompt/instruction-paths")]);
    let skipped = 0;
    const rules: string[] = [];
    const written: string[] = [];
    const replaced: string[] = [];
    for (const [name, file] of files) {
      const rel = uploadPath(name);
      if (!rel) {
        skipped++;
        continue;
      }
      if ((await sb.fs.stat(`${sb.root}/${rel}`))?.type === "file") replaced.push(rel);
      await writeUserFile(sb, rel, new Uint8Array(await file.arrayBuffer()));
      written.push(rel);
      if (isInstructionPath(rel)) rules.push(rel);
    }
    if (skipped) onError(`${skipped} file${skipped === 1 ? " was" : "s were"} skipped: unsafe path.`);
    // Said, so a file replaced by one of the same name is not replaced unseen.
    if (written.length) {
      const names = (list: string[]) => `${list.slice(0, 3).join(", ")}${list.length > 3 ? ` and ${list.length - 3} more` : ""}`;
      setNote(
        `Uploaded ${written.length === 1 ? written[0] : `${written.length} files`}.${replaced.length ? ` Replaced ${replaced.length === 1 ? "the file" : `${replaced.length} files`} already there with the same name: ${names(replaced)}.` : ""}`,
      );
    }
    setBump((b) => b + 1);
    if (rules.length) emit("rules-changed", { sessionID, paths: rules });
  };
  const upload = (list: FileList | null) => {
    if (!sandbox || !list) return;
    const files: [string, File][] = [...list].map((f) => [f.webkitRelativePath || f.name, f]);
    write(sandbox, files).catch((e: unknown) => onError(`Upload failed: ${e instanceof Error ? e.message : String(e)}`));
  };
  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    e.stopPropagation();
    setDragging(false);
    if (!sandbox) return;
    droppedFiles(e.dataTransfer.items)
      .then((files) => write(sandbox, files))
      .catch((err: unknown) => onError(`Upload failed: ${err instanceof Error ? err.message : String(err)}`));
  };
  const revealed = useCallback((r: Reveal) => setReveal((now) => (now === r ? undefined : now)), []);
  const onFolder = (e: FileEntry, act: FolderAction) => {
    const rel = sandbox ? e.path.slice(sandbox.root.length + 1) : e.name;
    setAction(act === "new" ? { kind: "new", dir: rel } : { kind: act, rel, folder: true });
  };
  const done = (d: FileActionDone) => {
    setAction(null);
    setBump((b) => b + 1);
    setNote(d.note);
    if (d.view !== undefined) setViewing(d.view);
    if (d.reveal) setReveal(d.reveal);
    if (d.focusNew) setFocusNew((n) => n + 1);
    if (d.rules.length) emit("rules-changed", { sessionID, paths: d.rules });
  };
  const zip = async () => {
    if (!sandbox) return;
    try {
      const { workspaceZip } = await import("../../../core/workspace/files");
      download(`workspace-${sessionID.slice(4, 16)}.zip`, await workspaceZip(sandbox), "application/zip");
    } catch (e) {
      onError(`Could not build the zip: ${e instanceof Error ? e.message : String(e)}`);
    }
  };

  return (
    <section
      className={`workspace-panel${dragging ? " dragging" : ""}`}
      aria-label="Workspace"
      onDragOver={(e) => {
        if (e.dataTransfer.types.includes("Files")) {
          e.preventDefault();
          e.stopPropagation();
          setDragging(true);
        }
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
    >
      <h2>Files</h2>
      <SandboxLine />
      {error && <p className="error-text">The workspace could not be opened: {error}</p>}
      {sandbox && (
        <>
          <div className="workspace-actions">
            <button type="button" ref={newFile} onClick={() => setAction({ kind: "new" })} title="Create a file (or, ending with /, a folder) at a path you type">
              New file…
            </button>
            <label className="button-like">
              Upload files
              <input type="file" multiple className="visually-hidden" onChange={(e) => upload(e.target.files)} />
            </label>
            <label className="button-like">
              Upload folder
              <input ref={(el) => el?.setAttribute("webkitdirectory", "")} type="file" multiple className="visually-hidden" onChange={(e) => upload(e.target.files)} />
            </label>
            <button type="button" onClick={() => void zip()}>
              Download zip
            </button>
          </div>
          <p className="hint upload-note" role="status">
            {note}
          </p>
          <FileTree sandbox={sandbox} version={version + bump} onOpen={(entry) => setViewing({ entry })} onFolder={onFolder} reveal={reveal} onRevealed={revealed} />
          <StorageLine sessionID={sessionID} version={version + bump} />
          {viewing && (
            <FileViewer
              sandbox={sandbox}
              entry={viewing.entry}
              version={version + bump}
              rules={rulesInForce}
              startEditing={viewing.edit}
              note={viewing.note}
              onClose={() => {
                // The row it was opened from may be gone (renamed): focus goes to the file's row where it is now.
                setReveal({ path: viewing.entry.path, focus: true });
                setViewing(null);
              }}
              onSaved={(rel) => {
                setBump((b) => b + 1);
                void import("../../../core/prompt/instruction-paths").then(({ isInstructionPath }) => {
                  if (isInstructionPath(rel)) emit("rules-changed", { sessionID, paths: [rel] });
                });
              }}
              onRename={() => setAction({ kind: "rename", rel: viewing.entry.path.slice(sandbox.root.length + 1), folder: false })}
              onDelete={(shown) => setAction({ kind: "delete", rel: viewing.entry.path.slice(sandbox.root.length + 1), folder: false, shown })}
            />
          )}
          {action && (
            <FileActionDialog
              sandbox={sandbox}
              action={action}
              rules={rulesInForce}
              onCancel={() => {
                setAction(null);
                // What it found (a file gone, one already there) is in the list too.
                setBump((b) => b + 1);
              }}
              onDone={done}
            />
          )}
        </>
      )}
    </section>
  );
}
