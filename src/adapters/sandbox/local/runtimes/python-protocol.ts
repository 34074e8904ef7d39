/**
 * One Python run, as sent to the interpreter (in-process in tests, a Worker
 * in the browser): a view of the workspace files in, the changes out.
 */

/** Workspace-relative path → file bytes. */
export type FileView = Record<string, Uint8Array>;

export interface PythonRequest {
  /** Workspace files the script can see (relative to the workspace root). */
  files: FileView;
  /** Absolute directory to run in (inside the workspace). */
  cwd: string;
  /** Arguments after `python3`. */
  args: string[];
  stdin: string;
  env: Record<string, string>;
}

export interface PythonResult {
  stdout: string;
  stderr: string;
  exitCode: number;
  /** Files created or changed by the run (relative paths). */
  writes: FileView;
  /** Files the run deleted (relative paths). */
  removes: string[];
}

/** Runs Python requests; `onProgress` gets human text while the interpreter loads. */
export interface PythonHost {
  run(
    req: PythonRequest,
    opts: {
      timeoutMs: number;
      signal?: AbortSignal;
      onProgress?: (text: string) => void;
    },
  ): Promise<PythonResult>;
}
