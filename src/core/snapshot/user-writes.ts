/**
 * Files the user writes, moves or deletes in a workspace (uploads, drops, the
 * Files panel) while the agent may be running. A step's patch lists what the
 * step changed, for revert; a change made during the step is the user's, not
 * the step's, so it is left out unless the step changed the file again
 * afterwards. Kept in memory per sandbox: after a reload no step of this page
 * can be running.
 */
import type { PathPolicy } from "../permission/path-policy";
import type { Sandbox } from "../ports/sandbox";
import { sha256Hex } from "./hash";

interface UserWrite {
  /** The content's hash, or null: the user removed the file. */
  hash: string | null;
  seq: number;
}

const writes = new WeakMap<Sandbox, Map<string, UserWrite>>();
let counter = 0;

/** A position in the sequence of user writes (a step takes one when it starts). */
export function userWriteMark(): number {
  return counter;
}

function remember(sandbox: Sandbox, rel: string, hash: string | null): void {
  let byPath = writes.get(sandbox);
  if (!byPath) {
    byPath = new Map();
    writes.set(sandbox, byPath);
  }
  byPath.set(rel, { hash, seq: ++counter });
}

/** Writes a user's file (`rel` to the workspace root) and remembers it as the user's. */
export async function writeUserFile(sandbox: Sandbox, rel: string, data: Uint8Array | string, opts?: { policy?: PathPolicy }): Promise<void> {
  await sandbox.fs.writeFile(`${sandbox.root}/${rel}`, data, opts);
  remember(sandbox, rel, await sha256Hex(data));
}

/** Deletes a user's file or folder `rel`; `files` (relative to the root) are the files it held, remembered as removed by the user. */
export async function removeUserPath(sandbox: Sandbox, rel: string, files: readonly string[]): Promise<void> {
  await sandbox.fs.rm(`${sandbox.root}/${rel}`);
  for (const f of files) remember(sandbox, f, null);
}

/** Moves a user's folder `from` to `to` (relative to the root); `files` (relative to the folder) are remembered as the user's, at both ends. */
export async function moveUserFolder(sandbox: Sandbox, from: string, to: string, files: readonly string[]): Promise<void> {
  await sandbox.fs.rename(`${sandbox.root}/${from}`, `${sandbox.root}/${to}`);
  for (const f of files) {
    remember(sandbox, `${from}/${f}`, null);
    const now = await sandbox.fs.readFile(`${sandbox.root}/${to}/${f}`).catch(() => undefined);
    if (now) remember(sandbox, `${to}/${f}`, await sha256Hex(now));
  }
}

/** `files` (changed by a step that started at `mark`) without those the user wrote or removed since and that are still as the user left them. */
export async function withoutUserWrites(sandbox: Sandbox, files: string[], mark: number): Promise<string[]> {
  const byPath = writes.get(sandbox);
  if (!byPath) return files;
  const out: string[] = [];
  for (const rel of files) {
    const w = byPath.get(rel);
    if (w && w.seq > mark) {
      const now = await sandbox.fs.readFile(`${sandbox.root}/${rel}`).catch(() => undefined);
      if (w.hash === null ? now === undefined : now && (await sha256Hex(now)) === w.hash) continue;
    }
    out.push(rel);
  }
  return out;
}
