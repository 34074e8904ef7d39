import { useEffect, useState } from "react";
import type { FileEntry, Sandbox } from "../../../core/ports/sandbox";

const HIDDEN = new Set([".tabcode", "node_modules", ".git"]);

function sortEntries(list: FileEntry[]): FileEntry[] {
  return list
    .filter((e) => !HIDDEN.has(e.name))
    .sort((a, b) => (a.type === b.type ? a.name.localeCompare(b.name) : a.type === "directory" ? -1 : 1));
}

interface DirProps {
  sandbox: Sandbox;
  path: string;
  depth: number;
  version: number;
  onOpen: (e: FileEntry) => void;
}

function Dir({ sandbox, path, depth, version, onOpen }: DirProps) {
  const [entries, setEntries] = useState<FileEntry[] | null>(null);
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());

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

  const toggle = (p: string) =>
    setOpen((o) => {
      const n = new Set(o);
      if (n.has(p)) n.delete(p);
      else n.add(p);
      return n;
    });

  if (!entries) return null;
  if (entries.length === 0 && depth === 0) return <p className="list-empty">No files yet. The agent's files appear here; you can also upload some.</p>;
  return (
    <ul className="file-tree" aria-label={depth === 0 ? "Workspace files" : undefined}>
      {entries.map((e) =>
        e.type === "directory" ? (
          <li key={e.path}>
            <button type="button" className="tree-dir" aria-expanded={open.has(e.path)} style={{ paddingLeft: 6 + depth * 12 }} onClick={() => toggle(e.path)}>
              {open.has(e.path) ? "▾" : "▸"} {e.name}/
            </button>
            {open.has(e.path) && <Dir sandbox={sandbox} path={e.path} depth={depth + 1} version={version} onOpen={onOpen} />}
          </li>
        ) : (
          <li key={e.path}>
            <button type="button" className="tree-file" style={{ paddingLeft: 18 + depth * 12 }} onClick={() => onOpen(e)} title={`${e.size} bytes`}>
              {e.name}
            </button>
          </li>
        ),
      )}
    </ul>
  );
}

/** A lazily expanded tree of the workspace. */
export function FileTree(props: { sandbox: Sandbox; version: number; onOpen: (e: FileEntry) => void }) {
  return <Dir sandbox={props.sandbox} path={props.sandbox.root} depth={0} version={props.version} onOpen={props.onOpen} />;
}
