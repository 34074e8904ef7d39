/**
 * Where Python runs. `InProcessPythonHost` loads Pyodide in the calling
 * thread (Node tests, benchmarks); `WorkerPythonHost` keeps it in its own
 * Worker so a runaway script can be stopped: on timeout or abort the Worker
 * is terminated and the next run starts a fresh interpreter.
 */
import type { PyodideAPI } from "pyodide";
import { runInPyodide } from "./python-driver";
import type { EngineHost, EngineRequest, EngineResult } from "./engine-protocol";
import { type PortLike, WorkerEngineHost } from "./engine-host";

/** Bytes the browser downloads on first use (interpreter + standard library), for the progress text. */
export const PYTHON_DOWNLOAD_MB = 12;

export class InProcessPythonHost implements EngineHost {
  private py?: Promise<PyodideAPI>;
  constructor(private readonly load: () => Promise<PyodideAPI> = defaultLoad) {}

  async run(req: EngineRequest): Promise<EngineResult> {
    this.py ??= this.load();
    return runInPyodide(await this.py, req);
  }
}

async function defaultLoad(): Promise<PyodideAPI> {
  const { loadPyodide } = await import("pyodide");
  return loadPyodide();
}

/** The most WebAssembly memory the Python Worker may use: beyond it, allocations fail as a MemoryError. */
export const PYTHON_MEMORY_LIMIT = 1024 * 1024 * 1024;
/** After a run that left the Worker's memory above this, it is replaced (memory never shrinks). */
export const PYTHON_RESTART_ABOVE = 256 * 1024 * 1024;
/** What the output says when that happens. */
export const PYTHON_RESTART_NOTE = "python3: the script used a lot of memory; the interpreter was restarted to free it.\n";

/** Python in its own Worker (the browser). */
export class WorkerPythonHost extends WorkerEngineHost {
  constructor(spawn: () => PortLike) {
    super(spawn, { command: "python3", label: "Python", megabytes: PYTHON_DOWNLOAD_MB });
  }
}
