import type { AppServices } from "../app/bootstrap";
import type { Store } from "../core/ports/store";

/**
 * The part of the app a session delete uses (src/app/session-actions.ts `prepareDelete`):
 * the store, sessions that are idle (`stopped` records which runs were stopped), and a sandbox
 * that records which workspaces it deleted.
 */
export function deleteApp(store: Store): { app: AppServices; deleted: string[]; stopped: string[] } {
  const deleted: string[] = [];
  const stopped: string[] = [];
  const app = {
    store,
    sessions: { stop: async (id: string) => void stopped.push(id), assertIdleEverywhere: async () => undefined },
    sandbox: { deleteWorkspace: async (id: string) => void deleted.push(id), collectGarbage: async () => ({ trees: 0, blobs: 0, bytes: 0 }) },
  } as unknown as AppServices;
  return { app, deleted, stopped };
}

/**
 * The part of the app a later start-up's `finishPendingDeletes` uses: sessions in `present`
 * exist (restored meanwhile), the rest are gone; the sandbox records deleted workspaces and
 * counts collections.
 */
export function finishApp(present: readonly string[] = []) {
  const deleted: string[] = [];
  const counts = { collected: 0 };
  const app = {
    store: { getSession: async (id: string) => (present.includes(id) ? ({ id } as never) : undefined), listSessions: async () => [], messages: async () => [] },
    sandbox: {
      deleteWorkspace: async (id: string) => void deleted.push(id),
      collectGarbage: async () => {
        counts.collected++;
        return { trees: 0, blobs: 0, bytes: 0 };
      },
    },
  };
  return { app, deleted, counts };
}
