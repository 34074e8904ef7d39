/**
 * Messages between the page-side sandbox client and the sandbox Worker.
 * Every request carries an id; the Worker answers with one `result` (and,
 * for exec, `output` messages before it).
 */
import type { SandboxFS } from "../../../core/ports/sandbox";

export type FsMethod = keyof SandboxFS;

export type WorkerRequest =
  | { id: number; op: "open"; workspace: string; dbName?: string }
  | { id: number; op: "fs"; method: FsMethod; args: unknown[] }
  | { id: number; op: "exec"; command: string; cwd?: string; env?: Record<string, string>; timeoutMs?: number }
  /** Aborts the exec request `target` (no answer). */
  | { id: number; op: "abort"; target: number }
  | { id: number; op: "snapshot" }
  | { id: number; op: "restore"; hash: string }
  | { id: number; op: "changed"; from: string; to: string }
  | { id: number; op: "readAt"; hash: string; relPath: string };

/** A serialisable error: recognised by name. */
export interface WireError {
  name: string;
  message: string;
}

export type WorkerResponse =
  | { id: number; type: "result"; ok: true; value: unknown }
  | { id: number; type: "result"; ok: false; error: WireError }
  | { id: number; type: "output"; chunk: string };


