/**
 * Persistence of local workspaces: the snapshot store (content-addressed
 * blobs and trees) plus, per workspace, an index of its paths. Live files and
 * snapshots share the blob table, so a snapshot writes only a tree and an
 * unchanged file is never stored twice.
 *
 * `MemoryWorkspaceStore` lives here (tests, pages without IndexedDB); the
 * IndexedDB one is in `dexie-workspace-store.ts`.
 */
import { MemorySnapshotStore, type SnapshotStore, type StoredBlob } from "../../../core/snapshot/store";

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
}
