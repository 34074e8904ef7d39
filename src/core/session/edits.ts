import { ascendingId } from "../ids";
import { isMissingSnapshot } from "../snapshot/store";
import type { Sandbox } from "../ports/sandbox";
import type { Store } from "../ports/store";
import type { MessageWithParts, Ruleset, Session } from "../schema";
import { branchTree, ROOT, siblings } from "../conversation/branches";
import { type ConversationView, conversationView } from "../conversation/view";

/**
 * Edits of a session's own state that the UI asks for (rename, archive,
 * rules, summary text, branch switch). The UI never writes these itself.
 * Files follow branches: leaving a branch records where its workspace stands,
 * and entering one restores the workspace as that branch left it.
 */

export async function renameSession(store: Store, sessionID: string, title: string): Promise<Session | undefined> {
  const t = title.trim();
  if (!t) return store.getSession(sessionID);
  return store.updateSession(sessionID, (s) => ({ ...s, title: t }));
}

/** The model the session's next step uses (each answer keeps the model that wrote it). */
export async function setSessionModel(store: Store, sessionID: string, model: { providerID: string; modelID: string }): Promise<Session | undefined> {
  const modelID = model.modelID.trim();
  if (!modelID) return store.getSession(sessionID);
  return store.updateSession(sessionID, (s) => ({ ...s, model: { providerID: model.providerID, modelID } }));
}

export async function setArchived(store: Store, sessionID: string, archived: boolean, now: number): Promise<Session | undefined> {
  return store.updateSession(sessionID, (s) => ({ ...s, time: { ...s.time, archived: archived ? now : undefined } }));
}

/** The session's own permission rules; incomplete rows are dropped. */
export async function setSessionRules(store: Store, sessionID: string, rules: Ruleset): Promise<Session | undefined> {
  return store.updateSession(sessionID, (s) => ({ ...s, permission: rules.filter((r) => r.permission && r.pattern) }));
}

/** Rewrites a summary's text (its last text part that the model sees); false when there is none. */
export async function editSummary(store: Store, sessionID: string, messageID: string, text: string): Promise<boolean> {
  const msg = (await store.messages(sessionID)).find((m) => m.info.id === messageID);
  if (msg?.info.role !== "assistant" || !msg.info.summary) return false;
  const part = msg.parts.filter((p) => p.type === "text" && !p.ignored).at(-1);
  if (part?.type !== "text") return false;
  await store.upsertPart({ ...part, text, tokenCount: undefined });
  return true;
}

/**
 * Records where the shown branch's workspace stands before the user leaves it
 * (a `snapshot` marker on its last message), unless its steps already say so.
 */
export async function leaveBranch(store: Store, sandbox: Sandbox | undefined, view: ConversationView): Promise<void> {
  const last = view.shown.at(-1);
  if (!sandbox || !last) return;
  const now = await sandbox.snapshot().catch(() => undefined);
  if (!now || now === view.snapshot) return;
  await store.upsertPart({ id: ascendingId("prt"), sessionID: last.info.sessionID, messageID: last.info.id, type: "snapshot", snapshot: now });
}

/** The workspace as it was before `userID` was answered: its first step's starting snapshot. */
export function snapshotBefore(all: MessageWithParts[], userID: string): string | undefined {
  for (const m of all) {
    if (m.info.role !== "assistant" || m.info.parentID !== userID) continue;
    for (const p of m.parts) if (p.type === "step-start" && p.snapshot) return p.snapshot;
  }
  return undefined;
}

/**
 * Restores the workspace a branch stands at (when known). A state this browser never held (an imported or
 * shared session's: its workspace starts empty here) leaves the files as they are rather than refusing the edit
 * or the switch.
 */
export async function enterBranch(sandbox: Sandbox | undefined, snapshot: string | undefined): Promise<void> {
  if (!sandbox || !snapshot) return;
  try {
    await sandbox.restore(snapshot);
  } catch (e) {
    if (!isMissingSnapshot(e)) throw e;
  }
}

export class BranchSwitchError extends Error {
  override readonly name = "BranchSwitchError";
}

/**
 * Shows the alternative `step` places from `messageID` at its branch point
 * (±1), with the workspace as that branch left it. Refused during a soft revert.
 */
export async function switchBranch(store: Store, sandbox: Sandbox | undefined, sessionID: string, messageID: string, step: number): Promise<Session | undefined> {
  const session = await store.getSession(sessionID);
  if (!session) return undefined;
  if (session.revert) throw new BranchSwitchError("Unrevert first (or send a message to make the revert permanent) before switching branches.");
  await store.flush();
  const all = await store.messages(sessionID);
  const s = siblings(all, messageID);
  const target = s.ids[s.index + step];
  if (!target) return session;
  return selectBranches(store, sandbox, session, all, { [s.key]: target });
}

/** Shows the branch `messageID` is on (a search hit on a branch not shown), files included. Refused during a soft revert. */
export async function showBranchOf(store: Store, sandbox: Sandbox | undefined, sessionID: string, messageID: string): Promise<Session | undefined> {
  const session = await store.getSession(sessionID);
  if (!session) return undefined;
  if (session.revert) throw new BranchSwitchError("Unrevert first (or send a message to make the revert permanent) before switching branches.");
  await store.flush();
  const all = await store.messages(sessionID);
  const m = all.find((x) => x.info.id === messageID);
  if (!m) return session;
  const tree = branchTree(all);
  const selections: Record<string, string> = {};
  for (let turn: string | undefined = m.info.role === "user" ? m.info.id : m.info.parentID; turn !== undefined && turn !== ROOT; ) {
    const key = tree.prevOf.get(turn);
    if (key === undefined) break;
    selections[key] = turn;
    turn = key;
  }
  return selectBranches(store, sandbox, session, all, selections);
}

async function selectBranches(store: Store, sandbox: Sandbox | undefined, session: Session, all: MessageWithParts[], selections: Record<string, string>): Promise<Session | undefined> {
  await leaveBranch(store, sandbox, conversationView(session, all));
  // Files first, then the selection: whoever sees the new branch sees its files.
  await enterBranch(sandbox, conversationView({ ...session, branches: { ...session.branches, ...selections } }, all).snapshot);
  return store.updateSession(session.id, (x) => ({ ...x, branches: { ...x.branches, ...selections } }));
}
