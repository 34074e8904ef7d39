/**
 * One engine run (python3, node, sqlite3), as sent to the interpreter
 * (in-process in tests, its own Worker in the browser): a view of the
 * workspace files in, the changes out.
 */

/** Workspace-relative path → file bytes. */
export type FileView = Record<string, Uint8Array>;

export interface EngineRequest {
  /** Workspace files the script can see (relative to the workspace root). */
  files: FileView;
  /** Absolute directory to run in (inside the workspace). */
  cwd: string;
  /** Arguments after `python3`. */
  args: string[];
  stdin: string;
  env: Record<string, string>;
  /** The command timeout: engines that can interrupt themselves stop there (the host's kill is the backstop). */
  timeoutMs?: number;
}

export interface EngineResult {
  stdout: string;
  stderr: string;
  exitCode: number;
  /** Files created or changed by the run (relative paths). */
  writes: FileView;
  /** Files the run deleted (relative paths). */
  removes: string[];
  /** The engine's state is no longer trusted (the host's own stack overflowed inside it): the next run loads a fresh one. */
  restart?: boolean;
}

/** Runs engine requests; `onProgress` gets human text while the interpreter loads. */
export interface EngineHost {
  run(
    req: EngineRequest,
    opts: {
      timeoutMs: number;
      signal?: AbortSignal;
      onProgress?: (text: string) => void;
    },
  ): Promise<EngineResult>;
}
