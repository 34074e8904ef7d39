/**
 * Snapshot storage collection across sessions: trees no session names any
 * more and blobs nothing uses (core/snapshot/gc.ts decides; the sandbox
 * service deletes). Runs after a session is deleted, after a live session
 * dropped history (a committed revert, with the branches that grew out of
 * it), and once when the page is idle after start-up (what earlier runs kept
 * inside the grace period for trees being written).
 */
import { referencedSnapshots } from "../core/snapshot/gc";
import type { Store } from "../core/ports/store";

interface Collects {
  store: Pick<Store, "listSessions" | "messages">;
  sandbox: { collectGarbage(liveTrees: ReadonlySet<string>): Promise<{ trees: number; blobs: number; bytes: number }> };
}

/** Every snapshot some session still names (revert, unrevert, fork, diffs, branch switches). */
export async function liveSnapshots(app: Pick<Collects, "store">): Promise<Set<string>> {
  const live = new Set<string>();
  for (const archived of [false, true])
    for (const s of await app.store.listSessions({ archived }))
      for (const h of referencedSnapshots(s, await app.store.messages(s.id))) live.add(h);
  return live;
}

/** Deletes the snapshot trees and blobs no session needs. */
export async function collectUnusedSnapshots(app: Collects): Promise<{ trees: number; blobs: number; bytes: number }> {
  return app.sandbox.collectGarbage(await liveSnapshots(app));
}

/** Collections asked for in a burst run once, when the page is idle; failures are ignored (storage stays as it was). */
export function snapshotCollector(app: () => Collects | undefined, idle: (run: () => void) => void = whenIdle): () => void {
  let queued = false;
  return () => {
    if (queued) return;
    queued = true;
    idle(() => {
      queued = false;
      const services = app();
      if (services) collectUnusedSnapshots(services).catch(() => undefined);
    });
  };
}

function whenIdle(run: () => void): void {
  if (typeof requestIdleCallback === "function") requestIdleCallback(run, { timeout: 30_000 });
  else setTimeout(run, 2_000);
}
