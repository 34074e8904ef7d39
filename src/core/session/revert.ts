import type { Sandbox } from "../ports/sandbox";
import type { Store } from "../ports/store";
import type { MessageWithParts, PatchPart, Session } from "../schema";
import { branchTree } from "../conversation/branches";
import { conversationView } from "../conversation/view";
import { isMissingSnapshot } from "../snapshot/store";

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
  const patches = patchesFrom(msgs, point).reverse();
  if (sandbox && !(await beforeStatesHere(sandbox, patches))) filesKept = true;
  else if (sandbox) {
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
  return store.updateSession(sessionID, (s) => ({ ...s, revert: { messageID: point, ...(snapshot ? { snapshot } : {}), ...(filesKept ? { filesKept } : {}) } }));
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

/** Undoes a soft revert: the files come back as they were, and so do the hidden messages. */
export async function unrevertSession(store: Store, sandbox: Sandbox | undefined, sessionID: string): Promise<Session | undefined> {
  const session = await store.getSession(sessionID);
  if (!session?.revert) return session;
  if (sandbox && session.revert.snapshot) await sandbox.restore(session.revert.snapshot);
  return store.updateSession(sessionID, (s) => ({ ...s, revert: undefined }));
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
  await store.updateSession(session.id, (s) => ({ ...s, revert: undefined }));
  return all.filter((m) => cut.has(m.info.id));
}
