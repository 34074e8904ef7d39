/**
 * The local sandbox backend, page side. One Worker per open session
 * (`openLocalSandbox`), each with the session's workspace at `/workspace`,
 * persisted in the `tabcode-workspace` IndexedDB database. Whole-workspace
 * helpers (seed, copy, delete) work on the database, restart this page's Worker
 * of the session so it reloads, and tell other tabs' Workers to reload it too.
 */
import type { Sandbox } from "../../../core/ports/sandbox";
import { DexieWorkspaceStore } from "./dexie-workspace-store";
import { persistedReads } from "./early-reads";
import { WorkerSandbox } from "./worker-client";
import { announceWholeWorkspace } from "./workspace-notices";
import { type Collected, collectGarbage, copyWorkspace as copyRows, type SeedFiles, seedWorkspace as seedRows, workspaceUsage } from "./workspace-ops";

export type { SeedFiles } from "./workspace-ops";
export { LOCAL_ROOT } from "./local-sandbox";

const open = new Map<string, WorkerSandbox>();
let store: DexieWorkspaceStore | undefined;

function pageStore(): DexieWorkspaceStore {
  store ??= new DexieWorkspaceStore();
  return store;
}

/** The session's local sandbox (Worker-backed, loaded from IndexedDB); its Worker starts now, and reads answer before it has. */
export async function openLocalSandbox(sessionID: string): Promise<Sandbox> {
  let sb = open.get(sessionID);
  if (!sb) {
    sb = new WorkerSandbox(sessionID, () => new Worker(new URL("./bash.worker.ts", import.meta.url), { type: "module" }), {
      early: persistedReads(pageStore(), sessionID),
    });
    open.set(sessionID, sb);
    // Started now, not waited for: reads answer from the persisted workspace meanwhile (a request's
    // prompt reads AGENTS.md and skills), everything else waits for the Worker in its call.
    sb.ready().catch(() => undefined);
  }
  return sb;
}

/** Stops the session's Worker (if any); the workspace stays in IndexedDB. */
export function closeLocalSandbox(sessionID: string): void {
  open.get(sessionID)?.restart();
  open.delete(sessionID);
}

/** Adds files to a session's workspace (demo mode, imports). */
export async function seedWorkspace(sessionID: string, files: SeedFiles): Promise<void> {
  await seedRows(pageStore(), sessionID, files);
  open.get(sessionID)?.restart();
  announceWholeWorkspace(pageStore().scope, sessionID);
}

/** Deletes a session's workspace (its files; shared blobs and snapshots stay). */
export async function deleteWorkspace(sessionID: string): Promise<void> {
  closeLocalSandbox(sessionID);
  await pageStore().deleteWorkspace(sessionID);
  announceWholeWorkspace(pageStore().scope, sessionID);
}

/** Makes `toSessionID`'s workspace a copy of `fromSessionID`'s (now, or at snapshot `atSnapshot`). */
export async function copyWorkspace(fromSessionID: string, toSessionID: string, atSnapshot?: string): Promise<void> {
  await copyRows(pageStore(), fromSessionID, toSessionID, atSnapshot);
  open.get(toSessionID)?.restart();
  announceWholeWorkspace(pageStore().scope, toSessionID);
}

/** Deletes snapshot trees no session names and blobs nothing uses (after a session's workspace was deleted). */
export function collectWorkspaceGarbage(liveTrees: ReadonlySet<string>): Promise<Collected> {
  return collectGarbage(pageStore(), liveTrees);
}

/** Bytes a session's workspace uses (current files, and history only its snapshots hold). */
export function sessionWorkspaceUsage(sessionID: string, trees: Iterable<string>): Promise<{ files: number; history: number }> {
  return workspaceUsage(pageStore(), sessionID, trees);
}
