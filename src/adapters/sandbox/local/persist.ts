/**
 * Turning the paths a call touched into a persisted change: re-read each
 * touched subtree from the in-memory filesystem, hash its files, and compare
 * with the rows already stored.
 */
import type { InMemoryFs } from "just-bash";
import { sha256Hex } from "../../../core/snapshot/hash";
import type { StoredBlob } from "../../../core/snapshot/store";
import { dirname, isInside, joinPath, normalizePath, relativeTo } from "../../../core/sandbox-path";
import type { WorkspaceChange, WorkspaceRow } from "./workspace-store";

/** Drops paths that lie below another path of the list. */
export function topmost(paths: string[]): string[] {
  const set = new Set(paths.map(normalizePath));
  const out: string[] = [];
  for (const p of set) {
    let covered = false;
    for (let d = dirname(p); ; d = dirname(d)) {
      if (set.has(d) && d !== p) {
        covered = true;
        break;
      }
      if (d === "/") break;
    }
    if (!covered) out.push(p);
  }
  return out.sort();
}

async function collect(fs: InMemoryFs, root: string, abs: string, rows: Map<string, WorkspaceRow>, blobs: Map<string, Uint8Array>): Promise<void> {
  let st: Awaited<ReturnType<InMemoryFs["lstat"]>>;
  try {
    st = await fs.lstat(abs);
  } catch {
    return;
  }
  const rel = relativeTo(root, abs);
  const base = { path: rel, mode: st.mode, mtime: st.mtime.getTime() };
  if (st.isSymbolicLink) {
    const target = await fs.readlink(abs);
    rows.set(rel, { ...base, type: "symlink", target, size: target.length });
  } else if (st.isDirectory) {
    if (abs !== root) rows.set(rel, { ...base, type: "directory", size: 0 });
    for (const name of await fs.readdir(abs)) await collect(fs, root, joinPath(abs, name), rows, blobs);
  } else {
    const data = await fs.readFileBuffer(abs);
    const hash = await sha256Hex(data);
    blobs.set(hash, data);
    rows.set(rel, { ...base, type: "file", hash, size: data.length });
  }
}

/**
 * The change that makes the stored rows match the filesystem under the
 * touched paths (`dirty`, absolute; paths outside `root` are ignored).
 */
export async function changeFor(fs: InMemoryFs, root: string, dirty: string[], stored: ReadonlyMap<string, WorkspaceRow>): Promise<WorkspaceChange> {
  const tops = topmost(dirty.filter((p) => isInside(root, p)));
  const current = new Map<string, WorkspaceRow>();
  const blobs = new Map<string, Uint8Array>();
  for (const top of tops) {
    await collect(fs, root, top, current, blobs);
    // `mkdir -p a/b/c` and writes into new directories only mark the deepest path: record missing parents too.
    for (let d = dirname(top); d !== root && isInside(root, d); d = dirname(d)) {
      const rel = relativeTo(root, d);
      if (stored.has(rel) || current.has(rel)) break;
      try {
        const st = await fs.lstat(d);
        current.set(rel, { path: rel, type: "directory", size: 0, mode: st.mode, mtime: st.mtime.getTime() });
      } catch {
        break;
      }
    }
  }

  // A touched path that is (or was) a directory, or is now missing, may hide stored rows below it.
  const scanTops = tops.filter((t) => {
    const rel = relativeTo(root, t);
    const row = current.get(rel);
    return t === root || !row || row.type === "directory" || stored.get(rel)?.type === "directory";
  });
  const remove: string[] = [];
  const touched = new Set(tops.map((t) => relativeTo(root, t)));
  // When only existing files were touched, nothing can have disappeared: skip the scan.
  if (scanTops.length > 0) {
    for (const rel of stored.keys()) {
      if (current.has(rel)) continue;
      if (touched.has(rel) || scanTops.some((t) => isInside(t, joinPath(root, rel)))) remove.push(rel);
    }
  }
  const put = [...current.values()];
  const blobList: StoredBlob[] = [...blobs].map(([hash, data]) => ({ hash, data }));
  return { blobs: blobList, put, remove };
}
