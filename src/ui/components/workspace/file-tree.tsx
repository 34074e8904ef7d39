import { useEffect, useRef, useState } from "react";
import type { FileEntry, Sandbox } from "../../../core/ports/sandbox";
import { MenuButton } from "../menu-button";
import { formatBytes } from "./storage-line";

const HIDDEN = new Set([".tabcode", "node_modules", ".git"]);

function sortEntries(list: FileEntry[]): FileEntry[] {
  return list
    .filter((e) => !HIDDEN.has(e.name))
    .sort((a, b) => (a.type === b.type ? a.name.localeCompare(b.name) : a.type === "directory" ? -1 : 1));
}

/** What a folder's menu offers. */
export type FolderAction = "new" | "rename" | "delete";

/** A path (absolute) to show: the folders on the way open; with `focus`, its row takes focus once listed. Done once its row is listed (`onRevealed`); a new object asks again. */
export interface Reveal {
  path: string;
  focus: boolean;
}

interface DirProps {
  sandbox: Sandbox;
  path: string;
  depth: number;
  version: number;
  onOpen: (e: FileEntry) => void;
  onFolder?: (e: FileEntry, action: FolderAction) => void;
  reveal?: Reveal;
  onRevealed?: (r: Reveal) => void;
}

function Dir({ sandbox, path, depth, version, onOpen, onFolder, reveal, onRevealed }: DirProps) {
  const [entries, setEntries] = useState<FileEntry[] | null>(null);
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const list = useRef<HTMLUListElement>(null);
  // Each reveal opens the folders on the way once: a folder closed afterwards stays closed.
  const opened = useRef<Reveal>(undefined);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `version` forces a re-read after changes
  useEffect(() => {
    let live = true;
    sandbox.fs.list(path).then(
      (list) => live && setEntries(sortEntries(list)),
      () => live && setEntries([]),
    );
    return () => {
      live = false;
    };
  }, [sandbox, path, version]);

  useEffect(() => {
    if (!reveal || !entries) return;
    const on = entries.filter((e) => e.type === "directory" && reveal.path.startsWith(`${e.path}/`)).map((e) => e.path);
    if (on.length > 0 && opened.current !== reveal) {
      opened.current = reveal;
      setOpen((o) => new Set([...o, ...on]));
    }
    const row = entries.find((e) => e.path === reveal.path);
    if (!row) return;
    if (reveal.focus) list.current?.querySelector<HTMLElement>(`:scope > li > .tree-row > [data-path="${CSS.escape(row.path)}"]`)?.focus();
    onRevealed?.(reveal);
  }, [reveal, entries, onRevealed]);

  const toggle = (p: string) =>
    setOpen((o) => {
      const n = new Set(o);
      if (n.has(p)) n.delete(p);
      else n.add(p);
      return n;
    });

  if (!entries) return null;
  if (entries.length === 0 && depth === 0) return <p className="list-empty">No files yet. The agent's files appear here; you can also create or upload some.</p>;
  const rel = (e: FileEntry) => e.path.slice(sandbox.root.length + 1);
  return (
    <ul ref={list} className="file-tree" aria-label={depth === 0 ? "Workspace files" : undefined}>
      {entries.map((e) =>
        e.type === "directory" ? (
          <li key={e.path}>
            <div className="tree-row">
              <button type="button" className="tree-dir" data-path={e.path} aria-expanded={open.has(e.path)} style={{ paddingLeft: 6 + depth * 12 }} onClick={() => toggle(e.path)}>
                {open.has(e.path) ? "▾" : "▸"} {e.name}/
              </button>
              {onFolder && (
                <MenuButton
                  className="tree-menu"
                  label={`Folder ${rel(e)}/`}
                  buttonLabel={`Actions for ${rel(e)}/`}
                  items={[
                    { label: "New file here…", run: () => onFolder(e, "new") },
                    { label: "Rename or move…", run: () => onFolder(e, "rename") },
                    { label: "Delete…", run: () => onFolder(e, "delete") },
                  ]}
                >
                  ⋯
                </MenuButton>
              )}
            </div>
            {open.has(e.path) && <Dir sandbox={sandbox} path={e.path} depth={depth + 1} version={version} onOpen={onOpen} onFolder={onFolder} reveal={reveal} onRevealed={onRevealed} />}
          </li>
        ) : (
          <li key={e.path}>
            <div className="tree-row">
              <button type="button" className="tree-file" data-path={e.path} style={{ paddingLeft: 18 + depth * 12 }} onClick={() => onOpen(e)} title={`${e.name} · ${formatBytes(e.size)}`}>
                {e.name}
              </button>
            </div>
          </li>
        ),
      )}
    </ul>
  );
}

/** A lazily expanded tree of the workspace; folders have a menu (new file, rename, delete) when `onFolder` is given. */
export function FileTree(props: {
  sandbox: Sandbox;
  version: number;
  onOpen: (e: FileEntry) => void;
  onFolder?: (e: FileEntry, action: FolderAction) => void;
  reveal?: Reveal;
  onRevealed?: (r: Reveal) => void;
}) {
  return <Dir sandbox={props.sandbox} path={props.sandbox.root} depth={0} version={props.version} onOpen={props.onOpen} onFolder={props.onFolder} reveal={props.reveal} onRevealed={props.onRevealed} />;
}
