/**
 * Garbage collection of snapshot storage. Trees are live while a message (a
 * step's starting snapshot, a patch) or a session's revert point names them;
 * blobs are live while a live tree or some workspace's current files use
 * them. Everything else can go, except trees written in the last minutes (a
 * step that is snapshotting right now has not named its tree yet).
 */
import type { MessageWithParts, Session } from "../schema";
import type { SnapshotTree } from "./tree";
import { GC_GRACE_MS } from "./grace";

/** Snapshot trees a session still needs (revert, unrevert, fork, diffs, branch switches). */
export function referencedSnapshots(session: Session | undefined, messages: readonly MessageWithParts[]): Set<string> {
  const out = new Set<string>();
  if (session?.revert?.snapshot) out.add(session.revert.snapshot);
  if (session?.revert?.after) out.add(session.revert.after);
  for (const m of messages)
    for (const p of m.parts) {
      if (p.type === "step-start" && p.snapshot) out.add(p.snapshot);
      // Where a step, or a branch that was left, leaves the files: what switching back to the branch restores.
      else if (p.type === "step-finish" && p.snapshot) out.add(p.snapshot);
      else if (p.type === "snapshot") out.add(p.snapshot);
      else if (p.type === "patch") out.add(p.hash);
    }
  return out;
}

export interface StoredTree {
  hash: string;
  tree: SnapshotTree;
  /** When it was written (ms); unknown for trees written by older versions. */
  at?: number;
}

export interface CollectionPlan {
  trees: string[];
  blobs: string[];
}

/** What to delete: unreferenced trees (older than the grace period), then blobs no kept tree or workspace uses. */
export function planCollection(input: {
  trees: readonly StoredTree[];
  blobs: Iterable<string>;
  liveTrees: ReadonlySet<string>;
  workspaceBlobs: ReadonlySet<string>;
  now: number;
  graceMs?: number;
}): CollectionPlan {
  const grace = input.graceMs ?? GC_GRACE_MS;
  const deadTrees = new Set<string>();
  const liveBlobs = new Set(input.workspaceBlobs);
  for (const t of input.trees) {
    const keep = input.liveTrees.has(t.hash) || (t.at !== undefined && input.now - t.at < grace);
    if (!keep) deadTrees.add(t.hash);
    else for (const h of Object.values(t.tree.files)) liveBlobs.add(h);
  }
  const blobs = [...input.blobs].filter((h) => !liveBlobs.has(h));
  return { trees: [...deadTrees], blobs };
}
