/**
 * Persistence of local workspaces: the snapshot store (content-addressed
 * blobs and trees) plus, per workspace, an index of its paths. Live files and
 * snapshots share the blob table, so a snapshot writes only a tree and an
 * unchanged file is never stored twice.
 *
 * `MemoryWorkspaceStore` lives here (tests, pages without IndexedDB); the
 * IndexedDB one is in `dexie-workspace-store.ts`.
 */
import type { StoredTree } from "../../../core/snapshot/gc";
import { MemorySnapshotStore, type SnapshotStore, type StoredBlob } from "../../../core/snapshot/store";
import type { SnapshotTree } from "../../../core/snapshot/tree";

/** One path of a workspace, relative to its root (the root itself is implicit). */
export interface WorkspaceRow {
  path: string;
  type: "file" | "directory" | "symlink";
  /** Content hash (files). */
  hash?: string;
  /** Link target (symlinks). */
  target?: string;
  size: number;
  /** ms since epoch */
  mtime: number;
  mode: number;
}

/** A batch of changes to one workspace, applied atomically. */
export interface WorkspaceChange {
  blobs: StoredBlob[];
  put: WorkspaceRow[];
  /** Relative paths whose rows are removed. */
  remove: string[];
}

export interface WorkspaceStore extends SnapshotStore {
  /** Every row of a workspace (empty for an unknown one). */
  loadRows(workspace: string): Promise<WorkspaceRow[]>;
  applyChanges(workspace: string, change: WorkspaceChange): Promise<void>;
  /** Replaces all rows of a workspace (seeding, copying, restoring). */
  replaceRows(workspace: string, rows: WorkspaceRow[], blobs?: StoredBlob[]): Promise<void>;
  /** Removes a workspace's rows (blobs stay: snapshots may still use them). */
  deleteWorkspace(workspace: string): Promise<void>;
  /** Storage collection: every stored tree (with when it was written), blob sizes, the blobs any workspace's rows use. */
  listTrees(): Promise<StoredTree[]>;
  blobSizes(hashes?: string[]): Promise<Map<string, number>>;
  rowBlobs(workspace?: string): Promise<Set<string>>;
  deleteTrees(hashes: string[]): Promise<void>;
  deleteBlobs(hashes: string[]): Promise<void>;
}

export class MemoryWorkspaceStore extends MemorySnapshotStore implements WorkspaceStore {
  readonly workspaces = new Map<string, Map<string, WorkspaceRow>>();

  private rowsOf(ws: string): Map<string, WorkspaceRow> {
    let m = this.workspaces.get(ws);
    if (!m) {
      m = new Map();
      this.workspaces.set(ws, m);
    }
    return m;
  }
  async loadRows(workspace: string): Promise<WorkspaceRow[]> {
    return [...(this.workspaces.get(workspace)?.values() ?? [])].map((r) => ({ ...r }));
  }
  async applyChanges(workspace: string, change: WorkspaceChange): Promise<void> {
    await this.putBlobs(change.blobs);
    const rows = this.rowsOf(workspace);
    for (const p of change.remove) rows.delete(p);
    for (const r of change.put) rows.set(r.path, { ...r });
  }
  async replaceRows(workspace: string, rows: WorkspaceRow[], blobs: StoredBlob[] = []): Promise<void> {
    await this.putBlobs(blobs);
    this.workspaces.set(workspace, new Map(rows.map((r) => [r.path, { ...r }])));
  }
  async deleteWorkspace(workspace: string): Promise<void> {
    this.workspaces.delete(workspace);
  }
  private readonly treeTimes = new Map<string, number>();
  override async putTree(hash: string, tree: SnapshotTree): Promise<void> {
    await super.putTree(hash, tree);
    this.treeTimes.set(hash, Date.now());
  }
  async listTrees(): Promise<StoredTree[]> {
    return [...this.trees.entries()].map(([hash, tree]) => ({ hash, tree, at: this.treeTimes.get(hash) }));
  }
  async blobSizes(hashes?: string[]): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    for (const h of hashes ?? this.blobs.keys()) {
      const b = this.blobs.get(h);
      if (b) out.set(h, b.length);
    }
    return out;
  }
  async rowBlobs(workspace?: string): Promise<Set<string>> {
    const out = new Set<string>();
    for (const [ws, rows] of this.workspaces) {
      if (workspace !== undefined && ws !== workspace) continue;
      for (const r of rows.values()) if (r.hash) out.add(r.hash);
    }
    return out;
  }
  async deleteTrees(hashes: string[]): Promise<void> {
    for (const h of hashes) this.trees.delete(h);
  }
  async deleteBlobs(hashes: string[]): Promise<void> {
    for (const h of hashes) this.blobs.delete(h);
  }
}
