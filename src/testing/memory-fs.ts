/**
 * A tiny in-memory `SandboxFS` for unit tests: a flat map of absolute paths
 * to file bytes, directories implied by their files (plus explicit mkdirs).
 * `unreadable` paths reject on read, to exercise error handling. Never
 * imported by app code.
 */
import type { FileEntry, SandboxFS } from "../core/ports/sandbox";
import { basename, dirname, normalizePath } from "../core/sandbox-path";

export interface MemoryFS extends SandboxFS {
  /** Paths whose reads reject (simulates permission or I/O errors). */
  unreadable: Set<string>;
  /** Every file path, sorted. */
  paths(): string[];
}

const enc = new TextEncoder();

export function memoryFS(initial: Record<string, string | Uint8Array> = {}, mtime = 1_700_000_000_000): MemoryFS {
  const files = new Map<string, Uint8Array>();
  const dirs = new Set<string>(["/"]);
  const unreadable = new Set<string>();

  const addDirs = (path: string) => {
    for (let d = dirname(path); !dirs.has(d); d = dirname(d)) dirs.add(d);
  };
  const put = (path: string, data: string | Uint8Array) => {
    const p = normalizePath(path);
    files.set(p, typeof data === "string" ? enc.encode(data) : data);
    addDirs(p);
  };
  for (const [p, d] of Object.entries(initial)) put(p, d);

  const entry = (p: string): FileEntry | undefined => {
    const file = files.get(p);
    if (file) return { name: basename(p), path: p, type: "file", size: file.byteLength, mtime };
    if (dirs.has(p)) return { name: basename(p), path: p, type: "directory", size: 0, mtime };
    return undefined;
  };
  const read = async (path: string): Promise<Uint8Array> => {
    const p = normalizePath(path);
    if (unreadable.has(p)) throw new Error(`EACCES: permission denied, open '${p}'`);
    const f = files.get(p);
    if (!f) throw new Error(`ENOENT: no such file or directory, open '${p}'`);
    return f;
  };

  return {
    unreadable,
    paths: () => [...files.keys()].sort(),
    readFile: read,
    readText: async (path) => new TextDecoder().decode(await read(path)),
    writeFile: async (path, data) => put(path, data),
    async list(path) {
      const p = normalizePath(path);
      if (!dirs.has(p)) throw new Error(`ENOTDIR: not a directory, scandir '${p}'`);
      const out: FileEntry[] = [];
      for (const candidate of [...files.keys(), ...dirs]) {
        if (candidate === p || dirname(candidate) !== p) continue;
        const e = entry(candidate);
        if (e) out.push(e);
      }
      return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    },
    stat: async (path) => entry(normalizePath(path)),
    exists: async (path) => entry(normalizePath(path)) !== undefined,
    async mkdir(path) {
      const p = normalizePath(path);
      dirs.add(p);
      addDirs(p);
    },
    async rm(path) {
      const p = normalizePath(path);
      for (const k of [...files.keys()]) if (k === p || k.startsWith(`${p}/`)) files.delete(k);
      for (const d of [...dirs]) if (d !== "/" && (d === p || d.startsWith(`${p}/`))) dirs.delete(d);
    },
    async rename(from, to) {
      const f = normalizePath(from);
      const data = files.get(f);
      if (!data) throw new Error(`ENOENT: no such file or directory, rename '${f}'`);
      files.delete(f);
      put(to, data);
    },
  };
}
