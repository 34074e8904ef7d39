/**
 * Snapshot storage collection across sessions: trees no session names any
 * more and blobs nothing uses (core/snapshot/gc.ts decides; the sandbox
 * service deletes). Runs after a session is deleted, and after a live session
 * dropped history (a committed revert, with the branches that grew out of
 * it): once when the page is idle, and again once the trees of that moment are
 * past the grace period kept for trees being written. A drop is remembered
 * (localStorage) until such a late collection ran, so a reload finishes it;
 * a page that never dropped anything reads nothing at start-up.
 */
import { pageStorage } from "../adapters/storage/page-storage";
import { GC_GRACE_MS } from "../core/snapshot/grace";
import { clearPendingDelete, foreignPendingDelete, keptForUndo, stalePendingDeletes } from "./pending-deletes";
import type { Store } from "../core/ports/store";

interface Collects {
  store: Pick<Store, "listSessions" | "messages">;
  sandbox: { collectGarbage(liveTrees: ReadonlySet<string>): Promise<{ trees: number; blobs: number; bytes: number }> };
}

/** Every snapshot some session still names (revert, unrevert, fork, diffs, branch switches). */
export async function liveSnapshots(app: Pick<Collects, "store">): Promise<Set<string>> {
  // Loaded when a collection runs (the start-up never needs it).
  const { referencedSnapshots } = await import("../core/snapshot/gc");
  const live = new Set<string>();
  for (const archived of [false, true])
    for (const s of await app.store.listSessions({ archived }))
      for (const h of referencedSnapshots(s, await app.store.messages(s.id))) live.add(h);
  // A session deleted here whose Undo is still offered keeps what it names.
  for (const kept of keptForUndo.values()) for (const h of referencedSnapshots(kept.session, kept.messages)) live.add(h);
  return live;
}

/**
 * Deletes the snapshot trees and blobs no session needs. Waits (collects nothing) while another tab still offers
 * the Undo of a delete: this tab cannot see that session's rows; the next collection (a reload, a later drop) runs.
 */
export async function collectUnusedSnapshots(app: Collects): Promise<{ trees: number; blobs: number; bytes: number }> {
  if (foreignPendingDelete()) return { trees: 0, blobs: 0, bytes: 0 };
  return app.sandbox.collectGarbage(await liveSnapshots(app));
}

const OWED_KEY = "tabcode.snapshots.dropped";

export interface CollectorOptions {
  /** Runs when the page is idle (`run` returns the collection, for whoever wants to wait for it). */
  idle?: (run: () => Promise<void>) => void;
  /** Runs after `ms`. */
  later?: (run: () => void, ms: number) => void;
  now?: () => number;
  /** Where a pending drop is remembered across reloads. */
  memo?: Pick<Storage, "getItem" | "setItem" | "removeItem">;
}

/** `dropped()` after history was dropped; `start()` once at start-up (finishes a drop an earlier page left). Failures are ignored. */
export function snapshotCollector(app: () => Collects | undefined, opts: CollectorOptions = {}): { dropped(): void; start(): void } {
  const idle = opts.idle ?? whenIdle;
  const later = opts.later ?? ((run, ms) => setTimeout(run, ms));
  const now = opts.now ?? Date.now;
  const memo = opts.memo ?? pageStorage();
  let queued = false;
  const collect = () => {
    if (queued) return;
    queued = true;
    idle(async () => {
      queued = false;
      const services = app();
      const started = now();
      if (!services) return;
      try {
        await collectUnusedSnapshots(services);
        const owed = Number(memo?.getItem(OWED_KEY));
        // Trees of the drop were past the grace period: nothing is owed any more.
        if (owed && started - owed >= GC_GRACE_MS) memo?.removeItem(OWED_KEY);
      } catch {
        // A failed collection is retried by the next drop or page load (the drop stays owed).
      }
    });
  };
  return {
    dropped() {
      memo?.setItem(OWED_KEY, String(now()));
      collect();
      later(collect, GC_GRACE_MS + 1_000);
    },
    start() {
      const owed = Number(memo?.getItem(OWED_KEY));
      if (!owed) return;
      const wait = owed + GC_GRACE_MS + 1_000 - now();
      if (wait > 0) later(collect, wait);
      else collect();
    },
  };
}

function whenIdle(run: () => Promise<void>): void {
  const go = () => void run();
  if (typeof requestIdleCallback === "function") requestIdleCallback(go, { timeout: 30_000 });
  else setTimeout(go, 2_000);
}

interface Deletes extends Collects {
  store: Collects["store"] & Pick<Store, "getSession">;
  sandbox: Collects["sandbox"] & { deleteWorkspace(sessionID: string): Promise<void> };
}

/** At start-up: the files (and terminal logs) of sessions deleted by a page that closed before their Undo toast went. */
export async function finishPendingDeletes(app: Deletes, now = Date.now(), memo: Pick<Storage, "getItem" | "setItem" | "removeItem"> | undefined = pageStorage()): Promise<void> {
  const ids = stalePendingDeletes(now, memo);
  let deleted = false;
  for (const id of ids) {
    if (!(await app.store.getSession(id))) {
      await app.sandbox.deleteWorkspace(id);
      const { forgetTerminalLog } = await import("./terminal-log");
      forgetTerminalLog(id, memo);
      deleted = true;
    }
    clearPendingDelete(id, memo);
  }
  if (deleted) await collectUnusedSnapshots(app);
}
