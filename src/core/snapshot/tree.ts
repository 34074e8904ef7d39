/**
 * Content-addressed workspace trees. A tree maps each file (path relative to
 * the workspace root) to the hash of its content; the tree's own hash is the
 * hash of its canonical encoding, so equal workspaces get equal hashes and an
 * unchanged file costs one map entry, never a second copy of its bytes.
 */
import { sha256Hex } from "./hash";

/** One snapshot of a workspace. */
export interface SnapshotTree {
  /** Relative file path → content hash. */
  files: Record<string, string>;
  /** Relative directory paths (kept so empty directories survive a restore), sorted. */
  dirs: string[];
}

/** Directory names never snapshotted nor touched by a restore (dependencies, tabcode's own scratch files). */
export const SNAPSHOT_EXCLUDED_DIRS = ["node_modules"] as const;
/** Top-level directory of tabcode's scratch files (saved tool outputs), excluded from snapshots. */
export const SCRATCH_DIR = ".tabcode";
/** Inside the scratch directory, the plan files: the user's work, so they are snapshotted like any file. */
export const SNAPSHOTTED_SCRATCH = "plans";

/** Whether a relative path is left out of snapshots and restores (`.tabcode` itself is, its `plans` are not). */
export function isSnapshotExcluded(rel: string): boolean {
  const segs = rel.split("/");
  if (segs[0] === SCRATCH_DIR && segs[1] !== SNAPSHOTTED_SCRATCH) return true;
  return segs.some((s) => (SNAPSHOT_EXCLUDED_DIRS as readonly string[]).includes(s));
}

/** An excluded directory whose snapshotted children a walk must still visit. */
export function holdsSnapshotted(rel: string): boolean {
  return rel === SCRATCH_DIR;
}

function sortedKeys(rec: Record<string, string>): string[] {
  return Object.keys(rec).sort();
}

/** Canonical form: sorted entries, so the hash does not depend on insertion order. */
export function encodeTree(tree: SnapshotTree): string {
  return JSON.stringify({
    files: sortedKeys(tree.files).map((k) => [k, tree.files[k]]),
    dirs: [...tree.dirs].sort(),
  });
}

export function treeHash(tree: SnapshotTree): Promise<string> {
  return sha256Hex(encodeTree(tree));
}

/** Relative file paths whose content differs between two trees (added, removed or modified), sorted. */
export function changedPaths(a: SnapshotTree, b: SnapshotTree): string[] {
  const out = new Set<string>();
  for (const [path, hash] of Object.entries(a.files)) if (b.files[path] !== hash) out.add(path);
  for (const path of Object.keys(b.files)) if (!(path in a.files)) out.add(path);
  return [...out].sort();
}
