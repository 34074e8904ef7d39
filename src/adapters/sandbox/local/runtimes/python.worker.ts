/**
 * The Python Worker: loads Pyodide from this app's own origin (the files are
 * copied into the build under `pyodide/`) and runs one request at a time.
 */
import type { PyodideAPI } from "pyodide";
import { runInPyodide } from "./python-driver";
import type { EngineWorkerReply, EngineWorkerRequest } from "./engine-host";
import { PYTHON_MEMORY_LIMIT, PYTHON_RESTART_ABOVE, PYTHON_RESTART_NOTE } from "./python-host";
import { capMemoryGrowth } from "./wasm-memory-cap";

const scope = self as unknown as DedicatedWorkerGlobalScope;
let py: Promise<PyodideAPI> | undefined;
const memory = capMemoryGrowth(PYTHON_MEMORY_LIMIT);

function post(msg: EngineWorkerReply): void {
  scope.postMessage(msg);
}

async function load(): Promise<PyodideAPI> {
  const { loadPyodide } = await import("pyodide");
  const indexURL = new URL(`${import.meta.env.BASE_URL}pyodide/`, scope.location.origin).href;
  return loadPyodide({ indexURL });
}

scope.onmessage = async (e: MessageEvent<EngineWorkerRequest>) => {
  const { id, req } = e.data;
  try {
    py ??= load();
    const result = runInPyodide(await py, req);
    // Memory never shrinks: after a run that grew it a lot, the host starts a fresh interpreter.
    const grew = memory.largest() > PYTHON_RESTART_ABOVE;
    post({ id, type: "result", ok: true, result: grew ? { ...result, stderr: `${result.stderr}${PYTHON_RESTART_NOTE}`, restart: true } : result });
  } catch (err) {
    py = undefined;
    post({
      id,
      type: "result",
      ok: false,
      message: err instanceof Error ? err.message : String(err),
    });
  }
};
