import { type DragEvent, useState } from "react";
import type { FileEntry, Sandbox } from "../../../core/ports/sandbox";
import { emit, useAppEvent } from "../../app-events";
import { useServices } from "../../hooks/services";
import { useSandbox, useSandboxStatus } from "../../hooks/use-sandbox";
import { FileViewer } from "../../lazy";
import { FileTree } from "./file-tree";
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

/** The session's files: tree, viewer, upload (files, folders, drag and drop) and zip download. */
export function WorkspacePanel({ sessionID, version, onError }: { sessionID: string; version: number; onError: (m: string) => void }) {
  const { sandbox, error } = useSandbox(sessionID);
  const { permissions, store, settings } = useServices();
  // The session's own rules are read from storage: after a reload no run has handed them to the broker yet.
  const rulesInForce = async () => [...permissions.rulesFor(sessionID), settings.get().permissions, (await store.getSession(sessionID))?.permission ?? []];
  const [bump, setBump] = useState(0);
  const [viewing, setViewing] = useState<FileEntry | null>(null);
  const [dragging, setDragging] = useState(false);
  // What the last upload did.
  const [note, setNote] = useState<string>();
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
          <FileTree sandbox={sandbox} version={version + bump} onOpen={setViewing} />
          <StorageLine sessionID={sessionID} version={version + bump} />
          {viewing && (
            <FileViewer
              sandbox={sandbox}
              entry={viewing}
              version={version + bump}
              rules={rulesInForce}
              onClose={() => setViewing(null)}
              onSaved={(rel) => {
                setBump((b) => b + 1);
                void import("../../../core/prompt/instruction-paths").then(({ isInstructionPath }) => {
                  if (isInstructionPath(rel)) emit("rules-changed", { sessionID, paths: [rel] });
                });
              }}
            />
          )}
        </>
      )}
    </section>
  );
}
