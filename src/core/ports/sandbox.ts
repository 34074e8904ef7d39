/**
 * The sandbox port: a workspace filesystem plus a shell. Backends: the
 * WebContainer one and the local one (just-bash in a Worker over a persisted
 * filesystem). Every backend passes one contract suite.
 *
 * Paths are absolute POSIX paths inside the sandbox; a workspace is confined
 * to its `root` directory and tools refuse paths outside it.
 */

import type { PathPolicy, PathRefusal } from "../permission/path-policy";
import type { PermissionRule } from "../schema";

export interface FileEntry {
  name: string;
  /** Absolute path. */
  path: string;
  type: "file" | "directory";
  size: number;
  /** Last modification, ms since epoch. */
  mtime: number;
}

export interface SandboxFS {
  readFile(path: string): Promise<Uint8Array>;
  readText(path: string): Promise<string>;
  /** Creates parent directories as needed. With `policy`, a change the path rules refuse throws `PathRefused` (through links too). */
  writeFile(path: string, data: string | Uint8Array, opts?: { policy?: PathPolicy }): Promise<void>;
  /** Direct children, sorted by name. Rejects when `path` is not a directory. */
  list(path: string): Promise<FileEntry[]>;
  stat(path: string): Promise<FileEntry | undefined>;
  exists(path: string): Promise<boolean>;
  /** mkdir -p */
  mkdir(path: string): Promise<void>;
  /** rm -r (no error when missing) */
  rm(path: string): Promise<void>;
  rename(from: string, to: string): Promise<void>;
}

/** What the commands of one exec call are checked against while they run (see the local sandbox's exec guard). */
export interface ExecGuard {
  /** Path rules (and the rulesets the `bash` rules come from). */
  policy: PathPolicy;
  /**
   * Asks the user about a command the rules leave to ask; resolves to a refusal message, or undefined to run it.
   * `command` is what the rules were matched against; `shown`, the same command with its arguments quoted as the
   * shell needs them, for the question.
   */
  ask?(command: string, shown?: string): Promise<string | undefined>;
  /** Told about every command the rules refused. */
  denied?(command: string, message: string, rule?: PermissionRule): void;
  /** Told about every change the path rules refused. */
  pathRefused?(refusal: PathRefusal): void;
}

export interface ExecOptions {
  /** Checks every command and file change as it happens (the local sandbox enforces it). */
  guard?: ExecGuard;
  cwd?: string;
  env?: Record<string, string>;
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Streamed output as it arrives (backends that buffer call it once). */
  onOutput?: (chunk: string) => void;
}

export interface ExecResult {
  stdout: string;
  stderr: string;
  /** stdout and stderr interleaved as produced (or concatenated when the backend cannot interleave). */
  combined: string;
  exitCode: number;
  timedOut: boolean;
  aborted: boolean;
}

export interface Sandbox {
  readonly kind: "webcontainer" | "local";
  /** The session's working directory. */
  readonly root: string;
  readonly fs: SandboxFS;
  /** Runs a shell command. Expected failures are values (exit codes), not throws. */
  exec(command: string, opts?: ExecOptions): Promise<ExecResult>;
  /** Content-addressed snapshot of the workspace under `root`; returns its hash. */
  snapshot(): Promise<string>;
  /** Makes the workspace equal to snapshot `hash`. */
  restore(hash: string): Promise<void>;
  /** Paths (relative to root) that differ between two snapshots. */
  changed(from: string, to: string): Promise<string[]>;
  /** A file's bytes at a snapshot (binary files intact), or undefined if it did not exist then. */
  readAt(hash: string, relPath: string): Promise<Uint8Array | undefined>;
  /**
   * The edit tool's replacer cascade, run where it does not block the page
   * (the local sandbox runs it in its Worker). Backends without one leave it out.
   */
  replaceText?(content: string, oldString: string, newString: string, replaceAll: boolean): Promise<ReplaceTextResult>;
}

export type ReplaceTextResult = { ok: true; content: string } | { ok: false; error: string };
