/**
 * The body of an engine Worker (node, sqlite3): loads the engine on the first
 * request and answers one request at a time; a failed load is retried on the
 * next request.
 */
import type { EngineWorkerReply, EngineWorkerRequest } from "./engine-host";
import type { EngineRequest, EngineResult } from "./engine-protocol";

export function serveEngine<T>(load: () => Promise<T>, run: (engine: T, req: EngineRequest) => EngineResult): void {
  const scope = self as unknown as DedicatedWorkerGlobalScope;
  let engine: Promise<T> | undefined;
  const post = (msg: EngineWorkerReply) => scope.postMessage(msg);
  scope.onmessage = async (e: MessageEvent<EngineWorkerRequest>) => {
    const { id, req } = e.data;
    try {
      engine ??= load();
      const result = run(await engine, req);
      if (result.restart) engine = undefined;
      post({ id, type: "result", ok: true, result });
    } catch (err) {
      engine = undefined;
      post({ id, type: "result", ok: false, message: err instanceof Error ? err.message : String(err) });
    }
  };
}
