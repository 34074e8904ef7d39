/**
 * The snapshot store port: content-addressed blobs and trees. The local
 * backend keeps its live files in the same blob table, so a snapshot of the
 * local workspace only writes a tree. Implementations: `MemorySnapshotStore`
 * here (tests), a Dexie one in the sandbox adapter.
 */
import { changedPaths, type SnapshotTree } from "./tree";

/** A blob to store under its content hash. */
export interface StoredBlob {
  hash: string;
  data: Uint8Array;
}

export interface SnapshotStore {
  /** Stores blobs; a hash already present is left as is (identical content is stored once). */
  putBlobs(blobs: StoredBlob[]): Promise<void>;
  /** Which of `hashes` are stored. */
  hasBlobs(hashes: string[]): Promise<Set<string>>;
  getBlob(hash: string): Promise<Uint8Array | undefined>;
  /** Stored blobs among `hashes` (missing ones are absent from the map). */
  getBlobs(hashes: string[]): Promise<Map<string, Uint8Array>>;
  putTree(hash: string, tree: SnapshotTree): Promise<void>;
  getTree(hash: string): Promise<SnapshotTree | undefined>;
  /** Number of distinct blobs stored (for tests and storage stats). */
  countBlobs(): Promise<number>;
}

/** In-memory store for tests and for pages without IndexedDB. */
export class MemorySnapshotStore implements SnapshotStore {
  readonly blobs = new Map<string, Uint8Array>();
  readonly trees = new Map<string, SnapshotTree>();

  async putBlobs(blobs: StoredBlob[]): Promise<void> {
    for (const b of blobs) if (!this.blobs.has(b.hash)) this.blobs.set(b.hash, b.data.slice());
  }
  async hasBlobs(hashes: string[]): Promise<Set<string>> {
    return new Set(hashes.filter((h) => this.blobs.has(h)));
  }
  async getBlob(hash: string): Promise<Uint8Array | undefined> {
    return this.blobs.get(hash)?.slice();
  }
  async getBlobs(hashes: string[]): Promise<Map<string, Uint8Array>> {
    const out = new Map<string, Uint8Array>();
    for (const h of hashes) {
      const b = this.blobs.get(h);
      if (b) out.set(h, b.slice());
    }
    return out;
  }
  async putTree(hash: string, tree: SnapshotTree): Promise<void> {
    this.trees.set(hash, { files: { ...tree.files }, dirs: [...tree.dirs] });
  }
  async getTree(hash: string): Promise<SnapshotTree | undefined> {
    const t = this.trees.get(hash);
    return t ? { files: { ...t.files }, dirs: [...t.dirs] } : undefined;
  }
  async countBlobs(): Promise<number> {
    return this.blobs.size;
  }
}

/**
 * The start of the error for a snapshot this browser does not hold: an imported or shared session names the
 * workspace states of the browser it came from (an export without its files carries none of them).
 */
export const MISSING_FILES = "The files from that point are not in this browser";

/** Whether an error (also one that crossed a Worker boundary as plain text) says a snapshot is not here. */
export function isMissingSnapshot(e: unknown): boolean {
  return (e instanceof Error ? e.message : String(e)).startsWith(MISSING_FILES);
}

/** Loads a tree or throws a clear error (`isMissingSnapshot`; its text is for people, the hash is not). */
export async function requireTree(store: SnapshotStore, hash: string): Promise<SnapshotTree> {
  const tree = await store.getTree(hash);
  if (!tree) throw new Error(`${MISSING_FILES}: the session came from an export or a share without them.`);
  return tree;
}

/** Paths that differ between two stored snapshots. */
export async function changedBetween(store: SnapshotStore, from: string, to: string): Promise<string[]> {
  if (from === to) return [];
  return changedPaths(await requireTree(store, from), await requireTree(store, to));
}

/** A file's bytes at a stored snapshot, or undefined when it did not exist then. */
export async function readAtSnapshot(store: SnapshotStore, hash: string, relPath: string): Promise<Uint8Array | undefined> {
  const tree = await requireTree(store, hash);
  const blobHash = tree.files[relPath.replace(/^\.\//, "")];
  if (blobHash === undefined) return undefined;
  const data = await store.getBlob(blobHash);
  if (!data) throw new Error(`Snapshot ${hash} refers to a missing blob ${blobHash}`);
  return data;
}
