/**
 * Whole-workspace operations on the store, without a running shell: seeding
 * (demo mode, tests), copying (forks) and deleting. Copies share blobs, so a
 * copy writes only path rows.
 */
import { planCollection } from "../../../core/snapshot/gc";
import { normalizePath } from "../../../core/sandbox-path";
import { sha256Hex } from "../../../core/snapshot/hash";
import { requireTree, type StoredBlob } from "../../../core/snapshot/store";
import type { WorkspaceRow, WorkspaceStore } from "./workspace-store";

const encoder = new TextEncoder();
const FILE_MODE = 0o644;
const DIR_MODE = 0o755;

/** Files to seed: relative path → content. */
export type SeedFiles = Record<string, string | Uint8Array>;

function cleanRel(path: string): string {
  const rel = normalizePath(`/${path}`).slice(1);
  if (!rel) throw new Error(`Invalid seed path: "${path}"`);
  return rel;
}

function parents(rel: string): string[] {
  const segs = rel.split("/");
  return segs.slice(0, -1).map((_, i) => segs.slice(0, i + 1).join("/"));
}

/** Adds (or overwrites) files in a workspace, creating their directories. */
export async function seedWorkspace(store: WorkspaceStore, workspace: string, files: SeedFiles, now: number = Date.now()): Promise<void> {
  const blobs: StoredBlob[] = [];
  const put = new Map<string, WorkspaceRow>();
  for (const [path, content] of Object.entries(files)) {
    const rel = cleanRel(path);
    const data = typeof content === "string" ? encoder.encode(content) : content;
    const hash = await sha256Hex(data);
    blobs.push({ hash, data });
    for (const dir of parents(rel)) put.set(dir, { path: dir, type: "directory", size: 0, mtime: now, mode: DIR_MODE });
    put.set(rel, { path: rel, type: "file", hash, size: data.length, mtime: now, mode: FILE_MODE });
  }
  await store.applyChanges(workspace, { blobs, put: [...put.values()], remove: [] });
}

/**
 * Makes workspace `to` a copy of `from` — of its current state, or of
 * snapshot `atSnapshot` (which only holds files and directories).
 */
export async function copyWorkspace(store: WorkspaceStore, from: string, to: string, atSnapshot?: string, now: number = Date.now()): Promise<void> {
  if (atSnapshot === undefined) {
    await store.replaceRows(to, await store.loadRows(from));
    return;
  }
  const tree = await requireTree(store, atSnapshot);
  const rows: WorkspaceRow[] = tree.dirs.map((d) => ({ path: d, type: "directory", size: 0, mtime: now, mode: DIR_MODE }));
  const blobs = await store.getBlobs([...new Set(Object.values(tree.files))]);
  for (const [rel, hash] of Object.entries(tree.files)) {
    rows.push({ path: rel, type: "file", hash, size: blobs.get(hash)?.length ?? 0, mtime: now, mode: FILE_MODE });
  }
  await store.replaceRows(to, rows);
}

export function deleteWorkspaceRows(store: WorkspaceStore, workspace: string): Promise<void> {
  return store.deleteWorkspace(workspace);
}

/** What a collection removed. */
export interface Collected {
  trees: number;
  blobs: number;
  bytes: number;
}

/**
 * Deletes snapshot trees no session names (`liveTrees`) and blobs nothing
 * uses any more (no kept tree, no workspace's current files). Run after a
 * session's workspace is deleted.
 */
export async function collectGarbage(store: WorkspaceStore, liveTrees: ReadonlySet<string>, opts: { now?: number } = {}): Promise<Collected> {
  const [trees, sizes, workspaceBlobs] = await Promise.all([store.listTrees(), store.blobSizes(), store.rowBlobs()]);
  const plan = planCollection({ trees, blobs: sizes.keys(), liveTrees, workspaceBlobs, now: opts.now ?? Date.now() });
  await store.deleteTrees(plan.trees);
  await store.deleteBlobs(plan.blobs);
  return { trees: plan.trees.length, blobs: plan.blobs.length, bytes: plan.blobs.reduce((n, h) => n + (sizes.get(h) ?? 0), 0) };
}

/** Bytes a session's workspace uses: its current files, and what only its snapshots still hold (history). */
export async function workspaceUsage(store: WorkspaceStore, workspace: string, trees: Iterable<string>): Promise<{ files: number; history: number }> {
  const current = await store.rowBlobs(workspace);
  const past = new Set<string>();
  for (const hash of new Set(trees)) {
    const tree = await store.getTree(hash);
    for (const h of Object.values(tree?.files ?? {})) if (!current.has(h)) past.add(h);
  }
  const sizes = await store.blobSizes([...current, ...past]);
  const sum = (set: Set<string>) => [...set].reduce((n, h) => n + (sizes.get(h) ?? 0), 0);
  return { files: sum(current), history: sum(past) };
}
