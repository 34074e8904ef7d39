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

/**
 * A workspace's generation: a token every write of its rows replaces (in the same transaction), so a copy
 * of the workspace held elsewhere (another tab's sandbox) can tell cheaply whether it is still current.
 * `before` is the token the write replaced (undefined: none yet, or the workspace was deleted).
 */
export interface WorkspaceStamps {
  before: string | undefined;
  after: string;
}

/** A new generation token: random, never a counter, so a deleted and rewritten workspace never repeats one. */
export function newStamp(): string {
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 12)}`;
}

/** A batch of changes to one workspace, applied atomically. */
export interface WorkspaceChange {
  blobs: StoredBlob[];
  put: WorkspaceRow[];
  /** Relative paths whose rows are removed. */
  remove: string[];
}

export interface WorkspaceStore extends SnapshotStore {
  /**
   * Names the place this store keeps its data: sandboxes on the same scope and workspace (other tabs) tell
   * each other of their writes under it.
   */
  readonly scope: string;
  /** Every row of a workspace (empty for an unknown one). */
  loadRows(workspace: string): Promise<WorkspaceRow[]>;
  /** The rows of these paths (undefined where there is none), in order. */
  rowsAt(workspace: string, paths: string[]): Promise<Array<WorkspaceRow | undefined>>;
  /** The workspace's generation token (undefined: never written, or deleted). */
  stampOf(workspace: string): Promise<string | undefined>;
  /** Applies the change and replaces the workspace's generation token in the same transaction. */
  applyChanges(workspace: string, change: WorkspaceChange): Promise<WorkspaceStamps>;
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
  /** Each store in memory is its own place: sandboxes on two of them never hear each other. */
  readonly scope = `memory:${newStamp()}`;
  private readonly stamps = new Map<string, string>();

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
  async rowsAt(workspace: string, paths: string[]): Promise<Array<WorkspaceRow | undefined>> {
    const rows = this.workspaces.get(workspace);
    return paths.map((p) => {
      const r = rows?.get(p);
      return r ? { ...r } : undefined;
    });
  }
  async stampOf(workspace: string): Promise<string | undefined> {
    return this.stamps.get(workspace);
  }
  private bump(workspace: string): WorkspaceStamps {
    const before = this.stamps.get(workspace);
    const after = newStamp();
    this.stamps.set(workspace, after);
    return { before, after };
  }
  async applyChanges(workspace: string, change: WorkspaceChange): Promise<WorkspaceStamps> {
    await this.putBlobs(change.blobs);
    const rows = this.rowsOf(workspace);
    for (const p of change.remove) rows.delete(p);
    for (const r of change.put) rows.set(r.path, { ...r });
    return this.bump(workspace);
  }
  async replaceRows(workspace: string, rows: WorkspaceRow[], blobs: StoredBlob[] = []): Promise<void> {
    await this.putBlobs(blobs);
    this.workspaces.set(workspace, new Map(rows.map((r) => [r.path, { ...r }])));
    this.bump(workspace);
  }
  async deleteWorkspace(workspace: string): Promise<void> {
    this.workspaces.delete(workspace);
    this.stamps.delete(workspace);
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
