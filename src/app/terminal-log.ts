/**
 * Where the terminal keeps each session's commands: localStorage, `tabcode.terminal.<sessionID>`. A log holds
 * command lines and their output (secrets too), so it goes with its session: when the session's deletion is
 * final (its files go then: `deleteSessionFiles`, and `finishPendingDeletes` for a page closed before its
 * Undo went), never at the delete itself (Undo brings the log back); and, at start-up when the page is idle,
 * logs of sessions that no longer exist (left by versions that kept them) are swept.
 */
import { pageStorage } from "../adapters/storage/page-storage";
import { pendingDeleteIDs } from "./pending-deletes";

const PREFIX = "tabcode.terminal.";

export function terminalLogKey(sessionID: string): string {
  return `${PREFIX}${sessionID}`;
}

type Memo = Pick<Storage, "getItem" | "setItem" | "removeItem" | "key" | "length">;

/** `deleted`: the session was deleted (its Undo still offered); `forgotten`: its log is gone for good. */
type Gone = (event: "deleted" | "forgotten", sessionID: string) => void;
const listeners = new Set<Gone>();

/** The terminal, once loaded, hears of its sessions going (this page's copy of a log lives in memory). */
export function onTerminalSessionGone(l: Gone): () => void {
  listeners.add(l);
  return () => {
    listeners.delete(l);
  };
}

/** A session was deleted, its Undo still offered: a command of its running in the terminal stops. */
export function terminalSessionDeleted(sessionID: string): void {
  for (const l of listeners) l("deleted", sessionID);
}

/** The session's deletion is final: its terminal log goes, from storage and from this page. */
export function forgetTerminalLog(sessionID: string, memo: Pick<Storage, "removeItem"> | undefined = pageStorage()): void {
  try {
    memo?.removeItem(terminalLogKey(sessionID));
  } catch {
    // No storage access: nothing was kept there either.
  }
  for (const l of listeners) l("forgotten", sessionID);
}

/** The sessions with a terminal log in storage. */
function loggedSessions(memo: Memo | undefined): string[] {
  const ids: string[] = [];
  try {
    for (let i = 0; i < (memo?.length ?? 0); i++) {
      const k = memo?.key(i);
      if (k?.startsWith(PREFIX) && k.length > PREFIX.length) ids.push(k.slice(PREFIX.length));
    }
  } catch {
    // No storage access.
  }
  return ids;
}

/**
 * Removes the logs of sessions that no longer exist; returns how many went. A session whose delete is still
 * pending (its Undo may be offered, here or in another tab) keeps its log: its final delete takes it.
 */
export async function sweepTerminalLogs(exists: (sessionID: string) => Promise<boolean>, memo: Memo | undefined = pageStorage()): Promise<number> {
  let swept = 0;
  for (const id of loggedSessions(memo)) {
    if (await exists(id)) continue;
    // Read after the lookup: a delete made meanwhile is noted before its rows go.
    if (pendingDeleteIDs(memo).includes(id)) continue;
    forgetTerminalLog(id, memo);
    swept++;
  }
  return swept;
}
