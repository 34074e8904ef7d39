import { vi } from "vitest";
import type { AppServices } from "../app/bootstrap";
import { makeSession } from "../core/compaction/test-fixtures";
import type { Store } from "../core/ports/store";
import { fakeStorage } from "./fake-storage";
import { MemoryStore } from "./memory-store";

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
 * A stored session, the page's localStorage (stubbed as the global) holding `quota` characters, and the app a
 * delete uses. The caller undoes the stub (`vi.unstubAllGlobals`).
 */
export async function storedDeleteSession(quota: number) {
  const memo = fakeStorage(quota);
  vi.stubGlobal("localStorage", memo);
  const store = new MemoryStore();
  const s = makeSession();
  await store.importSession(s, []);
  return { memo, store, s, ...deleteApp(store) };
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
