/**
 * Files the user writes into a workspace (uploads, drops) while the agent may
 * be running. A step's patch lists what the step changed, for revert; an
 * upload made during the step is the user's, not the step's, so it is left
 * out unless the step changed the file again afterwards. Kept in memory per
 * sandbox: after a reload no step of this page can be running.
 */
import type { PathPolicy } from "../permission/path-policy";
import type { Sandbox } from "../ports/sandbox";
import { sha256Hex } from "./hash";

interface UserWrite {
  hash: string;
  seq: number;
}

const writes = new WeakMap<Sandbox, Map<string, UserWrite>>();
let counter = 0;

/** A position in the sequence of user writes (a step takes one when it starts). */
export function userWriteMark(): number {
  return counter;
}

/** Writes a user's file (`rel` to the workspace root) and remembers it as the user's. */
export async function writeUserFile(sandbox: Sandbox, rel: string, data: Uint8Array | string, opts?: { policy?: PathPolicy }): Promise<void> {
  await sandbox.fs.writeFile(`${sandbox.root}/${rel}`, data, opts);
  let byPath = writes.get(sandbox);
  if (!byPath) {
    byPath = new Map();
    writes.set(sandbox, byPath);
  }
  byPath.set(rel, { hash: await sha256Hex(data), seq: ++counter });
}

/** `files` (changed by a step that started at `mark`) without those the user wrote since and that still hold the user's content. */
export async function withoutUserWrites(sandbox: Sandbox, files: string[], mark: number): Promise<string[]> {
  const byPath = writes.get(sandbox);
  if (!byPath) return files;
  const out: string[] = [];
  for (const rel of files) {
    const w = byPath.get(rel);
    if (w && w.seq > mark) {
      const now = await sandbox.fs.readFile(`${sandbox.root}/${rel}`).catch(() => undefined);
      if (now && (await sha256Hex(now)) === w.hash) continue;
    }
    out.push(rel);
  }
  return out;
}
