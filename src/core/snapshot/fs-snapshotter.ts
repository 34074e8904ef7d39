/**
 * Snapshots over any `SandboxFS` (used by backends that do not keep their own
 * content index, such as WebContainer): walk the workspace, hash each file,
 * store only blobs the store lacks, then store the tree.
 */
import type { FileEntry, SandboxFS } from "../ports/sandbox";
import { joinPath, relativeTo } from "../sandbox-path";
import { sha256Hex } from "./hash";
import { changedBetween, readAtSnapshot, requireTree, type SnapshotStore, type StoredBlob } from "./store";
import { holdsSnapshotted, isSnapshotExcluded, type SnapshotTree, treeHash } from "./tree";

export interface FsSnapshotterOptions {
  /**
   * Reuse a file's previous hash when its size and mtime are unchanged. Only
   * for backends whose mtimes are real; otherwise every file is re-read.
   */
  trustMtime?: boolean;
}

interface Scan {
  files: Map<string, string>;
  sizes: Map<string, number>;
  dirs: string[];
  /** Blobs read during the scan, by hash (only those not known to be stored). */
  fresh: Map<string, Uint8Array>;
}

const BATCH = 64;

export class FsSnapshotter {
  private readonly cache = new Map<string, { size: number; mtime: number; hash: string }>();

  constructor(
    private readonly fs: SandboxFS,
    private readonly root: string,
    private readonly store: SnapshotStore,
    private readonly opts: FsSnapshotterOptions = {},
  ) {}

  /** Files and directories under the root, minus excluded ones. */
  private async walk(): Promise<{ files: FileEntry[]; dirs: string[] }> {
    const files: FileEntry[] = [];
    const dirs: string[] = [];
    const queue = [this.root];
    for (let dir = queue.shift(); dir !== undefined; dir = queue.shift()) {
      for (const e of await this.fs.list(dir)) {
        const rel = relativeTo(this.root, e.path);
        if (e.type === "directory" && holdsSnapshotted(rel)) queue.push(e.path);
        if (isSnapshotExcluded(rel)) continue;
        if (e.type === "directory") {
          dirs.push(rel);
          queue.push(e.path);
        } else files.push(e);
      }
    }
    return { files, dirs: dirs.sort() };
  }

  private async scan(): Promise<Scan> {
    const { files, dirs } = await this.walk();
    const out: Scan = { files: new Map(), sizes: new Map(), dirs, fresh: new Map() };
    for (let i = 0; i < files.length; i += BATCH) {
      await Promise.all(
        files.slice(i, i + BATCH).map(async (f) => {
          const rel = relativeTo(this.root, f.path);
          out.sizes.set(rel, f.size);
          const cached = this.cache.get(rel);
          if (this.opts.trustMtime && cached && cached.size === f.size && cached.mtime === f.mtime) {
            out.files.set(rel, cached.hash);
            return;
          }
          const data = await this.fs.readFile(f.path);
          const hash = await sha256Hex(data);
          this.cache.set(rel, { size: f.size, mtime: f.mtime, hash });
          out.files.set(rel, hash);
          out.fresh.set(hash, data);
        }),
      );
    }
    return out;
  }

  /** The workspace's current tree (and file sizes), with every blob it needs stored; the tree itself is not stored. */
  async capture(): Promise<{ tree: SnapshotTree; sizes: Map<string, number> }> {
    const scan = await this.scan();
    const present = await this.store.hasBlobs([...scan.fresh.keys()]);
    const missing: StoredBlob[] = [];
    for (const [hash, data] of scan.fresh) if (!present.has(hash)) missing.push({ hash, data });
    if (missing.length) await this.store.putBlobs(missing);
    return { tree: { files: Object.fromEntries(scan.files), dirs: scan.dirs }, sizes: scan.sizes };
  }

  async snapshot(): Promise<string> {
    const { tree } = await this.capture();
    const hash = await treeHash(tree);
    await this.store.putTree(hash, tree);
    return hash;
  }

  async restore(hash: string): Promise<void> {
    const tree = await requireTree(this.store, hash);
    const now = await this.scan();
    const wantDirs = new Set(tree.dirs);
    for (const rel of now.files.keys()) {
      if (!(rel in tree.files)) await this.fs.rm(joinPath(this.root, rel));
    }
    // Deepest first, so a removed parent does not make its children fail.
    for (const rel of [...now.dirs].reverse()) {
      if (!wantDirs.has(rel)) await this.fs.rm(joinPath(this.root, rel));
    }
    for (const rel of tree.dirs) await this.fs.mkdir(joinPath(this.root, rel));
    const toWrite = Object.entries(tree.files).filter(([rel, h]) => now.files.get(rel) !== h);
    const blobs = await this.store.getBlobs([...new Set(toWrite.map(([, h]) => h))]);
    for (const [rel, h] of toWrite) {
      const data = blobs.get(h);
      if (!data) throw new Error(`Snapshot ${hash} refers to a missing blob ${h}`);
      await this.fs.writeFile(joinPath(this.root, rel), data);
      this.cache.delete(rel);
    }
  }

  changed(from: string, to: string): Promise<string[]> {
    return changedBetween(this.store, from, to);
  }

  readAt(hash: string, relPath: string): Promise<Uint8Array | undefined> {
    return readAtSnapshot(this.store, hash, relPath);
  }
}
