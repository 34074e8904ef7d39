/**
 * IndexedDB persistence of local workspaces, in its own database
 * (`tabcode-workspace`) so it never clashes with the main `tabcode` database.
 *
 * Tables:
 * - `blobs`  content by SHA-256 hash, shared by every workspace and snapshot;
 * - `files`  one row per path per workspace, keyed `[ws+path]`;
 * - `trees`  snapshot trees by hash;
 * - `stamps` per workspace, its generation token (replaced by every write of its rows, in the same
 *   transaction; v2), which the sandboxes of other tabs compare with their own copy's.
 */
import Dexie, { type DexieOptions, type Table } from "dexie";
import type { StoredBlob } from "../../../core/snapshot/store";
import type { StoredTree } from "../../../core/snapshot/gc";
import type { SnapshotTree } from "../../../core/snapshot/tree";
import { newStamp, type WorkspaceChange, type WorkspaceRow, type WorkspaceStamps, type WorkspaceStore } from "./workspace-store";

interface BlobRecord {
  hash: string;
  data: Uint8Array;
  size: number;
}
interface FileRecord extends WorkspaceRow {
  ws: string;
}
interface TreeRecord {
  hash: string;
  tree: SnapshotTree;
  /** When it was written (ms); absent on trees written by older versions. */
  at?: number;
}
interface StampRecord {
  ws: string;
  stamp: string;
}

export const WORKSPACE_DB_NAME = "tabcode-workspace";

class WorkspaceDB extends Dexie {
  blobs!: Table<BlobRecord, string>;
  files!: Table<FileRecord, [string, string]>;
  trees!: Table<TreeRecord, string>;
  stamps!: Table<StampRecord, string>;

  constructor(name: string, options?: DexieOptions) {
    super(name, options);
    this.version(1).stores({ blobs: "hash", files: "[ws+path], ws", trees: "hash" });
    this.version(2).stores({ stamps: "ws" });
  }
}

function stripWs(r: FileRecord): WorkspaceRow {
  const { ws: _ws, ...row } = r;
  return row;
}

export class DexieWorkspaceStore implements WorkspaceStore {
  private readonly db: WorkspaceDB;
  readonly scope: string;

  constructor(name: string = WORKSPACE_DB_NAME, options?: DexieOptions) {
    this.db = new WorkspaceDB(name, options);
    this.scope = `idb:${name}`;
  }

  /** Replaces the workspace's generation token (call inside a transaction on `stamps`). */
  private async bump(workspace: string): Promise<WorkspaceStamps> {
    const after = newStamp();
    // Both asked at once (the transaction runs them in order, the get first): one round trip, not two.
    const [old] = await Promise.all([this.db.stamps.get(workspace), this.db.stamps.put({ ws: workspace, stamp: after })]);
    return { before: old?.stamp, after };
  }
  async stampOf(workspace: string): Promise<string | undefined> {
    return (await this.db.stamps.get(workspace))?.stamp;
  }

  close(): void {
    this.db.close();
  }

  /** Adds blobs whose hash is not stored yet (call inside a transaction on `blobs`). */
  private async addMissing(blobs: StoredBlob[]): Promise<void> {
    if (!blobs.length) return;
    const unique = new Map(blobs.map((b) => [b.hash, b.data]));
    const keys = [...unique.keys()];
    const existing = await this.db.blobs.bulkGet(keys);
    const add: BlobRecord[] = [];
    keys.forEach((hash, i) => {
      const data = unique.get(hash);
      if (!existing[i] && data) add.push({ hash, data: data.slice(), size: data.length });
    });
    if (add.length) await this.db.blobs.bulkAdd(add);
  }

  putBlobs(blobs: StoredBlob[]): Promise<void> {
    return this.db.transaction("rw", this.db.blobs, () => this.addMissing(blobs));
  }
  async hasBlobs(hashes: string[]): Promise<Set<string>> {
    const found = await this.db.blobs.where("hash").anyOf(hashes).primaryKeys();
    return new Set(found);
  }
  async getBlob(hash: string): Promise<Uint8Array | undefined> {
    return (await this.db.blobs.get(hash))?.data;
  }
  async getBlobs(hashes: string[]): Promise<Map<string, Uint8Array>> {
    const out = new Map<string, Uint8Array>();
    const recs = await this.db.blobs.bulkGet(hashes);
    for (const r of recs) if (r) out.set(r.hash, r.data);
    return out;
  }
  async putTree(hash: string, tree: SnapshotTree): Promise<void> {
    await this.db.trees.put({ hash, tree, at: Date.now() });
  }
  async getTree(hash: string): Promise<SnapshotTree | undefined> {
    return (await this.db.trees.get(hash))?.tree;
  }
  countBlobs(): Promise<number> {
    return this.db.blobs.count();
  }

  async loadRows(workspace: string): Promise<WorkspaceRow[]> {
    return (await this.db.files.where("ws").equals(workspace).toArray()).map(stripWs);
  }
  /** The rows of these paths (undefined where there is none), in order. */
  async rowsAt(workspace: string, paths: string[]): Promise<Array<WorkspaceRow | undefined>> {
    const found = await this.db.files.bulkGet(paths.map((p): [string, string] => [workspace, p]));
    return found.map((r) => (r ? stripWs(r) : undefined));
  }
  /** The rows below directory `dir` (relative; "" is the root), at any depth; at most `limit` of them. */
  async rowsBelow(workspace: string, dir: string, limit = Number.POSITIVE_INFINITY): Promise<WorkspaceRow[]> {
    const prefix = dir ? `${dir}/` : "";
    const range = this.db.files.where("[ws+path]").between([workspace, prefix], [workspace, `${prefix}\uffff`], true, true);
    return (await (Number.isFinite(limit) ? range.limit(limit) : range).toArray()).map(stripWs);
  }
  applyChanges(workspace: string, change: WorkspaceChange): Promise<WorkspaceStamps> {
    return this.db.transaction("rw", [this.db.blobs, this.db.files, this.db.stamps], async () => {
      await this.addMissing(change.blobs);
      if (change.remove.length) await this.db.files.bulkDelete(change.remove.map((p): [string, string] => [workspace, p]));
      if (change.put.length) await this.db.files.bulkPut(change.put.map((r) => ({ ...r, ws: workspace })));
      return this.bump(workspace);
    });
  }
  replaceRows(workspace: string, rows: WorkspaceRow[], blobs: StoredBlob[] = []): Promise<void> {
    return this.db.transaction("rw", [this.db.blobs, this.db.files, this.db.stamps], async () => {
      await this.addMissing(blobs);
      await this.db.files.where("ws").equals(workspace).delete();
      if (rows.length) await this.db.files.bulkPut(rows.map((r) => ({ ...r, ws: workspace })));
      await this.bump(workspace);
    });
  }
  deleteWorkspace(workspace: string): Promise<void> {
    return this.db.transaction("rw", this.db.files, this.db.stamps, async () => {
      await this.db.files.where("ws").equals(workspace).delete();
      await this.db.stamps.delete(workspace);
    });
  }
  async listTrees(): Promise<StoredTree[]> {
    return (await this.db.trees.toArray()).map((r) => ({ hash: r.hash, tree: r.tree, at: r.at }));
  }
  async blobSizes(hashes?: string[]): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    // Sizes without loading contents: the size column when present, else the data length.
    const recs = hashes ? await this.db.blobs.bulkGet(hashes) : await this.db.blobs.toArray();
    for (const r of recs) if (r) out.set(r.hash, r.size ?? r.data.length);
    return out;
  }
  async rowBlobs(workspace?: string): Promise<Set<string>> {
    const rows = workspace === undefined ? await this.db.files.toArray() : await this.db.files.where("ws").equals(workspace).toArray();
    return new Set(rows.flatMap((r) => (r.hash ? [r.hash] : [])));
  }
  async deleteTrees(hashes: string[]): Promise<void> {
    await this.db.trees.bulkDelete(hashes);
  }
  async deleteBlobs(hashes: string[]): Promise<void> {
    await this.db.blobs.bulkDelete(hashes);
  }
}
