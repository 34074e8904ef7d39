/**
 * The engines of the local sandbox in a browser. Python runs in its own
 * Worker (spawned from the sandbox Worker) so a runaway script can be
 * terminated; git runs in the sandbox Worker over its filesystem.
 */
import type { LocalRuntimes } from "./commands";
import { type PortLike, WorkerPythonHost } from "./python-host";

export function browserRuntimes(): LocalRuntimes {
  return {
    python: new WorkerPythonHost(
      () =>
        new Worker(new URL("./python.worker.ts", import.meta.url), {
          type: "module",
        }) as unknown as PortLike,
    ),
    git: true,
  };
}
