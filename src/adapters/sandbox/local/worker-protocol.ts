/**
 * Messages between the page-side sandbox client and the sandbox Worker.
 * Every request carries an id; the Worker answers with one `result` (and,
 * for exec, `output` messages before it).
 */
import type { PathPolicy, PathRefusal } from "../../../core/permission/path-policy";
import type { SandboxFS } from "../../../core/ports/sandbox";
import type { PermissionRule } from "../../../core/schema";

export type FsMethod = keyof SandboxFS;

export type WorkerRequest =
  | { id: number; op: "open"; workspace: string; dbName?: string }
  | { id: number; op: "fs"; method: FsMethod; args: unknown[] }
  | { id: number; op: "exec"; command: string; cwd?: string; env?: Record<string, string>; timeoutMs?: number; policy?: PathPolicy; asks?: boolean }
  /** The page's answer to a `guard` ask of exec `target`: a refusal message, or none to run the command. */
  | { id: number; op: "answer"; target: number; ask: number; refusal?: string }
  /** Aborts the exec request `target` (no answer). */
  | { id: number; op: "abort"; target: number }
  | { id: number; op: "snapshot" }
  | { id: number; op: "restore"; hash: string }
  | { id: number; op: "changed"; from: string; to: string }
  | { id: number; op: "readAt"; hash: string; relPath: string }
  | { id: number; op: "replace"; content: string; oldString: string; newString: string; replaceAll: boolean };

/** A serialisable error: recognised by name. */
export interface WireError {
  name: string;
  message: string;
}

export type WorkerResponse =
  | { id: number; type: "result"; ok: true; value: unknown }
  | { id: number; type: "result"; ok: false; error: WireError }
  | { id: number; type: "output"; chunk: string }
  /** During an exec: a command to ask the user about, or a refusal to log. */
  | { id: number; type: "guard"; event: GuardEvent };

export type GuardEvent =
  | { kind: "ask"; ask: number; command: string; shown?: string }
  | { kind: "denied"; command: string; message: string; rule?: PermissionRule }
  | { kind: "path"; refusal: PathRefusal };


