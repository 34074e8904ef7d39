/**
 * Reads of a session's persisted workspace from the page, for the moment
 * before its Worker has loaded it. The first request's prompt reads AGENTS.md
 * and the skill folders; starting the Worker (its script, just-bash and the
 * runtimes' glue, then the workspace) takes hundreds of milliseconds, and the
 * request should not wait for it. The Worker loads exactly these rows, so
 * until anything is written through the sandbox the answers are the same.
 *
 * Symlinks and paths outside the workspace are the Worker's to answer: they
 * throw `AskTheWorker` here.
 */
import type { FileEntry, SandboxFS } from "../../../core/ports/sandbox";
import { basename, isInside, joinPath, normalizePath, relativeTo } from "../../../core/sandbox-path";
import { LOCAL_ROOT } from "./local-sandbox";
import type { WorkspaceRow } from "./workspace-store";

/** This read needs the Worker (a symlink on the path, or a path outside the workspace). */
export class AskTheWorker extends Error {}

/** What the early reads need from the workspace database. */
export interface WorkspaceRowReader {
  rowsAt(workspace: string, paths: string[]): Promise<Array<WorkspaceRow | undefined>>;
  rowsBelow(workspace: string, dir: string, limit?: number): Promise<WorkspaceRow[]>;
  getBlob(hash: string): Promise<Uint8Array | undefined>;
}

/** The read-only half of the sandbox's filesystem. */
export type EarlyReads = Pick<SandboxFS, "readFile" | "readText" | "list" | "stat" | "exists">;

type Found = { kind: "entry"; entry: FileEntry; row?: WorkspaceRow } | { kind: "missing" };

const decoder = new TextDecoder();

export function persistedReads(store: WorkspaceRowReader, workspace: string, root: string = LOCAL_ROOT): EarlyReads {
  const relOf = (path: string): { abs: string; rel: string } => {
    const abs = normalizePath(path);
    if (abs === root) return { abs, rel: "" };
    if (!isInside(root, abs)) throw new AskTheWorker(abs);
    return { abs, rel: relativeTo(root, abs) };
  };
  const entryOf = (abs: string, row: WorkspaceRow): FileEntry => ({
    name: basename(abs),
    path: abs,
    type: row.type === "directory" ? "directory" : "file",
    size: row.type === "file" ? row.size : 0,
    mtime: row.mtime,
  });
  const find = async (path: string): Promise<Found> => {
    const { abs, rel } = relOf(path);
    if (rel === "") return { kind: "entry", entry: { name: basename(abs), path: abs, type: "directory", size: 0, mtime: 0 } };
    const parts = rel.split("/");
    const chain = parts.map((_, i) => parts.slice(0, i + 1).join("/"));
    const rows = await store.rowsAt(workspace, chain);
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i];
      if (row?.type === "symlink") throw new AskTheWorker(abs);
      // A file where a directory of the path should be: nothing below it exists.
      if (row?.type === "file" && i < rows.length - 1) return { kind: "missing" };
    }
    const own = rows[rows.length - 1];
    if (own) return { kind: "entry", entry: entryOf(abs, own), row: own };
    // A directory with no row of its own (seeded files): it exists when something lies below it.
    const below = await store.rowsBelow(workspace, rel, 1);
    return below.length ? { kind: "entry", entry: { name: basename(abs), path: abs, type: "directory", size: 0, mtime: 0 } } : { kind: "missing" };
  };
  const readFile = async (path: string): Promise<Uint8Array> => {
    const found = await find(path);
    const abs = normalizePath(path);
    if (found.kind === "missing") throw new Error(`ENOENT: no such file or directory, open '${abs}'`);
    if (found.entry.type === "directory") throw new Error(`EISDIR: illegal operation on a directory, read '${abs}'`);
    // The Worker loads a file whose blob is missing as empty: the same here.
    return (found.row?.hash ? await store.getBlob(found.row.hash) : undefined) ?? new Uint8Array();
  };
  return {
    readFile,
    readText: async (path) => decoder.decode(await readFile(path)),
    stat: async (path) => {
      const found = await find(path);
      return found.kind === "entry" ? found.entry : undefined;
    },
    exists: async (path) => (await find(path)).kind === "entry",
    list: async (path) => {
      const found = await find(path);
      const { abs, rel } = relOf(path);
      if (found.kind === "missing") throw new Error(`ENOENT: no such file or directory, scandir '${abs}'`);
      if (found.entry.type !== "directory") throw new Error(`ENOTDIR: not a directory, scandir '${abs}'`);
      const prefix = rel ? `${rel}/` : "";
      const children = new Map<string, FileEntry>();
      for (const row of await store.rowsBelow(workspace, rel)) {
        const rest = row.path.slice(prefix.length);
        const slash = rest.indexOf("/");
        const name = slash < 0 ? rest : rest.slice(0, slash);
        const childAbs = joinPath(abs, name);
        if (slash < 0) {
          if (row.type === "symlink") throw new AskTheWorker(childAbs);
          children.set(name, entryOf(childAbs, row));
        } else if (!children.has(name)) children.set(name, { name, path: childAbs, type: "directory", size: 0, mtime: 0 });
      }
      return [...children.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    },
  };
}
