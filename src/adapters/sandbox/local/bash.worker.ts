/**
 * The local sandbox Worker: just-bash and the workspace's filesystem live
 * here, off the page's main thread. Its persistence is IndexedDB, so a
 * terminated Worker is replaced by a fresh one that reloads the workspace.
 */
import { DexieWorkspaceStore } from "./dexie-workspace-store";
import { LocalSandbox } from "./local-sandbox";
import { browserRuntimes } from "./runtimes/browser";
import { WorkerHost } from "./worker-host";
import type { WorkerRequest, WorkerResponse } from "./worker-protocol";

const scope = self as unknown as DedicatedWorkerGlobalScope;

const host = new WorkerHost(
  (msg: WorkerResponse) => scope.postMessage(msg),
  (workspace, dbName) => LocalSandbox.open({ workspace, store: new DexieWorkspaceStore(dbName), runtimes: browserRuntimes() }),
);

scope.onmessage = (e: MessageEvent<WorkerRequest>) => {
  void host.handle(e.data);
};
