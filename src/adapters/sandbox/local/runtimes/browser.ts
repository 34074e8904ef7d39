/**
 * The engines of the local sandbox in a browser. Python, node and sqlite3
 * each run in their own Worker (spawned from the sandbox Worker, loaded on
 * first use) so a runaway script can be terminated; git runs in the sandbox
 * Worker over its filesystem. Each `new Worker(new URL(…))` stays literal:
 * that is how the build finds and bundles the Worker.
 */
import type { LocalRuntimes } from "./commands";
import { type PortLike, WorkerEngineHost } from "./engine-host";
import { NODE_DOWNLOAD_MB } from "./node-host";
import { WorkerPythonHost } from "./python-host";
import { SQLITE_DOWNLOAD_MB } from "./sqlite-host";

export function browserRuntimes(): LocalRuntimes {
  return {
    python: new WorkerPythonHost(() => new Worker(new URL("./python.worker.ts", import.meta.url), { type: "module" }) as unknown as PortLike),
    git: true,
    sqlite: new WorkerEngineHost(() => new Worker(new URL("./sqlite.worker.ts", import.meta.url), { type: "module" }) as unknown as PortLike, {
      command: "sqlite3",
      label: "SQLite",
      megabytes: SQLITE_DOWNLOAD_MB,
    }),
    node: new WorkerEngineHost(() => new Worker(new URL("./node.worker.ts", import.meta.url), { type: "module" }) as unknown as PortLike, {
      command: "node",
      label: "JavaScript",
      megabytes: NODE_DOWNLOAD_MB,
    }),
  };
}
