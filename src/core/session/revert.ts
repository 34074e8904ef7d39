import type { Sandbox } from "../ports/sandbox";
import type { Store } from "../ports/store";
import type { MessageWithParts, PatchPart, Session } from "../schema";
import { branchTree } from "../conversation/branches";
import { conversationView } from "../conversation/view";
import { isMissingSnapshot } from "../snapshot/store";
import { writeUserFile } from "../snapshot/user-writes";
import { sameBytes } from "../util/bytes";

/** The user message a revert of `messageID` starts at: the message itself, or the user message before it. */
export function revertPoint(msgs: MessageWithParts[], messageID: string): string | undefined {
  let lastUser: string | undefined;
  for (const m of msgs) {
    if (m.info.role === "user") lastUser = m.info.id;
    if (m.info.id === messageID) return lastUser;
  }
  return undefined;
}

/** Patch parts of every step at or after `fromID`, oldest first. */
export function patchesFrom(msgs: MessageWithParts[], fromID: string): PatchPart[] {
  return msgs.filter((m) => m.info.id >= fromID).flatMap((m) => m.parts.filter((p): p is PatchPart => p.type === "patch"));
}

/**
 * Soft revert (spec §4.2): the turn of `messageID` and everything after it are
 * hidden, and the files those steps changed (edits and shell effects alike,
 * from the per-step patches) go back to how they were before. The current
 * files are snapshotted first, so `unrevert` can bring them back. Messages are
 * deleted only when the next prompt commits the revert.
 */
export async function revertSession(
  store: Store,
  sandbox: Sandbox | undefined,
  sessionID: string,
  messageID: string,
): Promise<Session | undefined> {
  const session = await store.getSession(sessionID);
  if (!session) return undefined;
  const { path: msgs, shown } = conversationView(session, await store.messages(sessionID));
  const point = revertPoint(shown, messageID);
  if (!point) return session;
  let snapshot = session.revert?.snapshot;
  // When the files cannot go back (their earlier states are not in this browser), the messages still are
  // reverted; the revert records it, so what is shown never says the files were restored.
  let filesKept = session.revert?.filesKept === true;
  let undone = session.revert?.undone ?? [];
  const patches = patchesFrom(msgs, point).reverse();
  if (sandbox && !(await beforeStatesHere(sandbox, patches))) filesKept = true;
  else if (sandbox) {
    // A further revert: what the user changed since the first one is theirs too; unrevert must bring it back with
    // the rest, and this revert must name it when it puts such a file back (so it is merged in first).
    if (snapshot && session.revert?.after) snapshot = await withUserChanges(sandbox, snapshot, await userChangesSince(sandbox, session.revert.after));
    // Found before anything is written: once a revert has put files back, the user's changes are in `snapshot` only.
    undone = [...new Set([...undone, ...(await changedSince(sandbox, msgs, point, snapshot))])].sort();
    snapshot ??= await sandbox.snapshot();
    for (const patch of patches) {
      for (const file of patch.files) {
        const before = await sandbox.readAt(patch.hash, file);
        const abs = `${sandbox.root}/${file}`;
        if (before === undefined) await sandbox.fs.rm(abs);
        else await sandbox.fs.writeFile(abs, before);
      }
    }
  }
  const ownKept = session.revert?.ownKept?.filter((f) => !undone.includes(f)) ?? [];
  // Where the revert left the files: what the user changes after it is theirs, and unrevert keeps it.
  // (A revert that wrote nothing leaves the files where the previous one did: its `after` still holds.)
  const after = sandbox && snapshot && !filesKept ? await sandbox.snapshot() : snapshot ? session.revert?.after : undefined;
  const revert = {
    messageID: point,
    ...(snapshot ? { snapshot } : {}),
    ...(after ? { after } : {}),
    ...(filesKept ? { filesKept } : {}),
    ...(undone.length ? { undone } : {}),
    ...(ownKept.length ? { ownKept } : {}),
  };
  return store.updateSession(sessionID, (s) => ({ ...s, revert }));
}

/**
 * Files the reverted steps changed that were changed again after the last of those steps, not by the model:
 * the user's edits and uploads, their terminal commands. The revert puts these back too (it restores the
 * files as they were before the turn); the banner names them and offers to keep the user's versions.
 */
export async function changedSince(sandbox: Sandbox, msgs: readonly MessageWithParts[], fromID: string, current?: string): Promise<string[]> {
  // Where the newest reverted step to change each file left it: that step's end snapshot.
  const left = new Map<string, string>();
  for (const m of msgs) {
    if (m.info.id < fromID) continue;
    const end = m.parts.findLast((p) => (p.type === "step-finish" && p.snapshot) || p.type === "snapshot");
    const after = end?.type === "step-finish" ? end.snapshot : end?.type === "snapshot" ? end.snapshot : undefined;
    if (!after) continue;
    for (const p of m.parts) if (p.type === "patch") for (const f of p.files) left.set(f, after);
  }
  const out: string[] = [];
  for (const [file, after] of left) {
    const then = await sandbox.readAt(after, file).catch(() => null);
    if (then === null) continue;
    // `current`: the snapshot an earlier revert started from, when one is in force (the files now are its result).
    const now = current ? await sandbox.readAt(current, file).catch(() => undefined) : await sandbox.fs.readFile(`${sandbox.root}/${file}`).catch(() => undefined);
    if (!sameBytes(then, now)) out.push(file);
  }
  return out.sort();
}


/**
 * During a revert, puts back the user's own versions of the files it undid (`revert.undone`, taken from the
 * state the revert started from); the rest of the revert stands. Unrevert still restores everything.
 */
export async function keepOwnChanges(store: Store, sandbox: Sandbox, sessionID: string): Promise<Session | undefined> {
  const session = await store.getSession(sessionID);
  const revert = session?.revert;
  if (!revert?.snapshot || !revert.undone?.length) return session;
  for (const file of revert.undone) {
    const mine = await sandbox.readAt(revert.snapshot, file);
    const abs = `${sandbox.root}/${file}`;
    if (mine === undefined) await sandbox.fs.rm(abs);
    else await writeUserFile(sandbox, file, mine);
  }
  const kept = [...new Set([...(revert.ownKept ?? []), ...revert.undone])].sort();
  return store.updateSession(sessionID, (s) => (s.revert ? { ...s, revert: { ...s.revert, undone: undefined, ownKept: kept } } : s));
}

/** Whether this browser holds the state before each patch (an imported session's steps name states it never had). */
async function beforeStatesHere(sandbox: Sandbox, patches: readonly PatchPart[]): Promise<boolean> {
  for (const patch of patches) {
    const file = patch.files[0];
    if (file === undefined) continue;
    try {
      await sandbox.readAt(patch.hash, file);
    } catch (e) {
      if (isMissingSnapshot(e)) return false;
      throw e;
    }
  }
  return true;
}

/**
 * Undoes a soft revert: the files come back as they were, and so do the hidden messages. Files the user changed
 * while the revert stood (uploads, edits, terminal commands) keep the user's changes. When the state the revert
 * started from is not in this browser (a session imported with a revert pending), the messages come back and the
 * files stay as they are.
 */
export async function unrevertSession(store: Store, sandbox: Sandbox | undefined, sessionID: string): Promise<Session | undefined> {
  const session = await store.getSession(sessionID);
  const revert = session?.revert;
  if (!revert) return session;
  if (sandbox && revert.snapshot) {
    const since = revert.after ? await userChangesSince(sandbox, revert.after) : new Map<string, Uint8Array | undefined>();
    try {
      await sandbox.restore(revert.snapshot);
    } catch (e) {
      if (!isMissingSnapshot(e)) throw e;
    }
    await applyChanges(sandbox, since);
  }
  return store.updateSession(sessionID, (s) => ({ ...s, revert: undefined }));
}

async function applyChanges(sandbox: Sandbox, changes: ReadonlyMap<string, Uint8Array | undefined>): Promise<void> {
  for (const [file, data] of changes) {
    if (data === undefined) await sandbox.fs.rm(`${sandbox.root}/${file}`).catch(() => undefined);
    else await writeUserFile(sandbox, file, data);
  }
}

/** `base` with `changes` applied, as a snapshot (the workspace is left as it was). */
async function withUserChanges(sandbox: Sandbox, base: string, changes: ReadonlyMap<string, Uint8Array | undefined>): Promise<string> {
  if (changes.size === 0) return base;
  const now = await sandbox.snapshot();
  try {
    await sandbox.restore(base);
  } catch (e) {
    if (isMissingSnapshot(e)) return base;
    throw e;
  }
  await applyChanges(sandbox, changes);
  const merged = await sandbox.snapshot();
  await sandbox.restore(now);
  return merged;
}

/** The files changed since `after` (a snapshot this browser may not hold), with their contents now (undefined: deleted). */
async function userChangesSince(sandbox: Sandbox, after: string): Promise<Map<string, Uint8Array | undefined>> {
  const out = new Map<string, Uint8Array | undefined>();
  const now = await sandbox.snapshot();
  if (now === after) return out;
  const files = await sandbox.changed(after, now).catch((e: unknown) => {
    if (isMissingSnapshot(e)) return [];
    throw e;
  });
  for (const file of files) out.set(file, await sandbox.readAt(now, file));
  return out;
}

/**
 * The snapshot of the workspace right after `messageID`: the pre-step snapshot
 * of the first later step, or undefined when nothing ran after it (then the
 * current files are that state).
 */
export function snapshotAfter(msgs: readonly MessageWithParts[], messageID: string): string | undefined {
  for (const m of msgs) {
    if (m.info.id <= messageID) continue;
    for (const p of m.parts) if (p.type === "step-start" && p.snapshot) return p.snapshot;
  }
  return undefined;
}

/**
 * Commits a soft revert (the next prompt does, spec §4.2): deletes the shown
 * branch from the revert point, with every branch that grew out of the removed
 * turns; branches that split off before the revert point keep their messages.
 * Returns the deleted messages (their storage may be freed).
 */
export async function commitRevert(store: Store, session: Session): Promise<MessageWithParts[]> {
  const revert = session.revert;
  if (!revert) return [];
  const all = await store.messages(session.id);
  const { path, shown } = conversationView(session, all);
  const cut = new Set(path.slice(shown.length).map((m) => m.info.id));
  const tree = branchTree(all);
  const turns = [...cut].filter((id) => tree.prevOf.has(id));
  while (turns.length) {
    const turn = turns.pop() as string;
    for (const child of tree.children.get(turn) ?? []) {
      if (cut.has(child.info.id)) continue;
      cut.add(child.info.id);
      turns.push(child.info.id);
    }
    for (const answer of tree.answers.get(turn) ?? []) cut.add(answer.info.id);
  }
  await store.deleteMessages(session.id, [...cut]);
  // A goal set by a message that went ends with it.
  await store.updateSession(session.id, (s) => ({ ...s, revert: undefined, ...(s.goal && cut.has(s.goal.messageID) ? { goal: undefined } : {}) }));
  return all.filter((m) => cut.has(m.info.id));
}
