/**
 * A person's own changes in the Files panel: create a file or folder, rename
 * or move one, delete one. Each goes through `user-writes` (so a running
 * step's patch and revert leave it alone), meets the protect rules like a
 * save in the viewer, and never replaces or deletes something the person was
 * not shown: a file already at the target, or one that changed since it was
 * shown, comes back as a question (`ask`).
 */
import { type ChangeKind, changeRefusal, PathRefused } from "../permission/path-policy";
import type { Sandbox } from "../ports/sandbox";
import { basename } from "../sandbox-path";
import type { Ruleset } from "../schema";
import { isReservedName } from "../workspace/user-path";
import { sha256Hex } from "./hash";
import { personPolicy } from "./save-user-file";
import { moveUserFolder, removeUserPath, writeUserFile } from "./user-writes";

/** Done (`rel`: where the file or folder is now; `paths`: every file path it touched, old and new), or why not. */
export type UserChange = { ok: true; rel: string; paths: string[] } | { ok: false; message: string; ask?: "replace" | "changed" };

/** What a delete would take: a file and its size, or a folder and the files in it. */
export type DeleteScope = { type: "file"; size: number } | { type: "folder"; files: number; hidden: number; complete: boolean };

/** The walk's bounds: a link to a folder above would otherwise never end. */
const MAX_FILES = 50_000;
const MAX_DEPTH = 32;

const at = (sandbox: Sandbox, rel: string) => `${sandbox.root}/${rel}`;
const tooBig = (rel: string) =>
  `${rel}/ holds more than ${MAX_FILES.toLocaleString("en")} files or nests deeper than ${MAX_DEPTH} folders: too many to check here. Use the terminal for it.`;
const gone = (rel: string): UserChange => ({ ok: false, message: `${rel} is no longer there (the agent may have moved or deleted it).` });

/** The files under folder `rel`, hidden ones too, relative to it; `complete` is false when the walk stopped at its bounds. */
export async function filesUnder(sandbox: Sandbox, rel: string): Promise<{ files: string[]; complete: boolean }> {
  const files: string[] = [];
  let complete = true;
  const walk = async (dir: string, prefix: string, depth: number): Promise<void> => {
    if (depth > MAX_DEPTH) complete = false;
    if (depth > MAX_DEPTH || files.length >= MAX_FILES) return;
    for (const e of await sandbox.fs.list(dir).catch(() => [])) {
      if (files.length >= MAX_FILES) {
        complete = false;
        return;
      }
      if (e.type === "directory") await walk(e.path, `${prefix}${e.name}/`, depth + 1);
      else files.push(`${prefix}${e.name}`);
    }
  };
  await walk(at(sandbox, rel), "", 0);
  return { files: files.sort(), complete };
}

/** What deleting `rel` would take, or undefined when it is not there. */
export async function deleteScope(sandbox: Sandbox, rel: string): Promise<DeleteScope | undefined> {
  const st = await sandbox.fs.stat(at(sandbox, rel));
  if (!st) return undefined;
  if (st.type === "file") return { type: "file", size: st.size };
  const { files, complete } = await filesUnder(sandbox, rel);
  return { type: "folder", files: files.length, hidden: files.filter((f) => f.split("/").some(isReservedName)).length, complete };
}

/** The nearest folder on the way to `rel` that is a file, if any. */
async function fileInTheWay(sandbox: Sandbox, rel: string): Promise<string | undefined> {
  const names = rel.split("/").slice(0, -1);
  for (let i = 1; i <= names.length; i++) {
    const dir = names.slice(0, i).join("/");
    const st = await sandbox.fs.stat(at(sandbox, dir));
    if (!st) return undefined;
    if (st.type === "file") return dir;
  }
  return undefined;
}

function refused(sandbox: Sandbox, rules: Ruleset[], paths: string[], kind: ChangeKind, not: string): UserChange | undefined {
  const policy = personPolicy(sandbox, rules);
  for (const p of paths) {
    const r = changeRefusal(policy, at(sandbox, p), kind);
    if (r) return { ok: false, message: `${not}: ${r.message}.` };
  }
  return undefined;
}

function failed(e: unknown, not: string, could: string): UserChange {
  if (e instanceof PathRefused) return { ok: false, message: `${not}: ${e.message}.` };
  return { ok: false, message: `${could}: ${e instanceof Error ? e.message : String(e)}` };
}

/** Creates an empty file `rel` (or, with `folder`, a folder), with its parent folders; never over something already there. */
export async function createUserPath(sandbox: Sandbox, rel: string, folder: boolean, rules: Ruleset[]): Promise<UserChange> {
  const no = refused(sandbox, rules, [rel], folder ? "mkdir" : "write", "Not created");
  if (no) return no;
  const blocker = await fileInTheWay(sandbox, rel);
  if (blocker) return { ok: false, message: `${blocker} is a file, so it cannot hold other files.` };
  const there = await sandbox.fs.stat(at(sandbox, rel));
  if (there) return { ok: false, message: there.type === "directory" ? `A folder ${rel} already exists.` : `${rel} already exists. Open it from the list, or choose another name.` };
  try {
    if (folder) await sandbox.fs.mkdir(at(sandbox, rel));
    else await writeUserFile(sandbox, rel, new Uint8Array(0), { policy: personPolicy(sandbox, rules) });
  } catch (e) {
    return failed(e, "Not created", `Could not create ${rel}`);
  }
  return { ok: true, rel, paths: folder ? [] : [rel] };
}

/**
 * Renames or moves the file or folder `from` to `to` (parent folders created). A folder named as the target
 * (`into`, or one already there) receives it under its own name, as `mv` does. A file already at the target
 * is replaced only with `replace`; without it the answer asks.
 */
export async function renameUserPath(sandbox: Sandbox, from: string, to: string, rules: Ruleset[], opts: { into?: boolean; replace?: boolean } = {}): Promise<UserChange> {
  const src = await sandbox.fs.stat(at(sandbox, from));
  if (!src) return gone(from);
  const target = to === from ? undefined : await sandbox.fs.stat(at(sandbox, to));
  const dest = opts.into || target?.type === "directory" ? `${to}/${basename(from)}` : to;
  if (dest === from) return { ok: false, message: `${from} is already there. Type another name or folder.` };
  if (src.type === "directory" && dest.startsWith(`${from}/`)) return { ok: false, message: `A folder cannot be moved into itself.` };
  const blocker = await fileInTheWay(sandbox, dest);
  if (blocker) return { ok: false, message: `${blocker} is a file, so it cannot hold other files.` };
  const walk = src.type === "directory" ? await filesUnder(sandbox, from) : { files: [], complete: true };
  if (!walk.complete) return { ok: false, message: tooBig(from) };
  const inside = walk.files;
  const moved = ["", ...inside.map((f) => `/${f}`)];
  const no = refused(sandbox, rules, moved.flatMap((m) => [`${from}${m}`, `${dest}${m}`]), "rename", "Not renamed");
  if (no) return no;
  try {
    const bytes = src.type === "file" ? await sandbox.fs.readFile(at(sandbox, from)) : undefined;
    // Checked last, right before the change: the agent may have written the target meanwhile.
    const there = await sandbox.fs.stat(at(sandbox, dest));
    if (there?.type === "directory") return { ok: false, message: `A folder ${dest} already exists. Choose another name.` };
    if (there && src.type === "directory") return { ok: false, message: `A file ${dest} already exists. Choose another name.` };
    if (there && !opts.replace) return { ok: false, ask: "replace", message: `${dest} already exists. Replace it with ${from}? What ${dest} holds now will be lost.` };
    if (bytes) {
      // Written first, then the old one removed: a failure half-way leaves two copies, never none.
      await writeUserFile(sandbox, dest, bytes, { policy: personPolicy(sandbox, rules) });
      await removeUserPath(sandbox, from, [from]);
      return { ok: true, rel: dest, paths: [from, dest] };
    }
    await moveUserFolder(sandbox, from, dest, inside);
  } catch (e) {
    return failed(e, "Not renamed", `Could not rename ${from}`);
  }
  return { ok: true, rel: dest, paths: inside.flatMap((f) => [`${from}/${f}`, `${dest}/${f}`]) };
}

/**
 * Deletes the file or folder `rel`. `seen` is what the person was shown: the file's bytes, or the number of
 * files in the folder; when it no longer holds, nothing is deleted and the answer asks (`changed`).
 */
export async function deleteUserPath(sandbox: Sandbox, rel: string, rules: Ruleset[], seen?: { bytes?: Uint8Array; files?: number }): Promise<UserChange> {
  const st = await sandbox.fs.stat(at(sandbox, rel));
  if (!st) return gone(rel);
  const walk = st.type === "directory" ? await filesUnder(sandbox, rel) : { files: [""], complete: true };
  // Every file it holds meets the protect rules and is remembered as the person's change: one not listed would not.
  if (!walk.complete) return { ok: false, message: tooBig(rel) };
  const files = st.type === "directory" ? walk.files.map((f) => `${rel}/${f}`) : [rel];
  const no = refused(sandbox, rules, [rel, ...files], "delete", "Not deleted");
  if (no) return no;
  try {
    if (st.type === "file" && seen?.bytes) {
      const now = await sandbox.fs.readFile(at(sandbox, rel));
      if ((await sha256Hex(now)) !== (await sha256Hex(seen.bytes))) {
        return { ok: false, ask: "changed", message: `${rel} changed since it was shown to you (the agent may have written it). Delete it anyway?` };
      }
    }
    if (st.type === "directory" && seen?.files !== undefined && seen.files !== files.length) {
      return { ok: false, ask: "changed", message: `${rel}/ now holds ${files.length === 1 ? "1 file" : `${files.length.toLocaleString("en")} files`}, not ${seen.files.toLocaleString("en")} (the agent may be working there). Delete it anyway?` };
    }
    await removeUserPath(sandbox, rel, files);
  } catch (e) {
    return failed(e, "Not deleted", `Could not delete ${rel}`);
  }
  return { ok: true, rel, paths: files };
}
