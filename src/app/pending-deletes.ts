/**
 * Deleted sessions whose files wait for the Undo toast to go (`prepareDelete` in session-actions.ts). Remembered in localStorage,
 * so a page closed while the toast showed does not leave the files behind for good: a later start-up
 * deletes the files of an entry older than `PENDING_DELETE_STALE_MS` whose session is still gone. The note
 * also holds other tabs' snapshot collections and terminal-log sweeps back while the Undo is offered, so a
 * delete whose note cannot be written (storage full, even after making room) can have no Undo: the user is asked
 * before it is done, for good.
 */
import { pageStorage } from "../adapters/storage/page-storage";
import { isQuotaExceeded } from "../adapters/storage/errors";
import type { MessageWithParts, Session } from "../core/schema";

/** The localStorage key of the entries (other tabs' changes to it arrive as `storage` events). */
export const PENDING_DELETES_KEY = "tabcode.deleted.pending";
const KEY = PENDING_DELETES_KEY;
/** Older than this, no tab can still be offering its Undo (a toast lasts seconds, even hovered for a while). */
export const PENDING_DELETE_STALE_MS = 10 * 60_000;

type Memo = Pick<Storage, "getItem" | "setItem" | "removeItem">;

/**
 * The rows of sessions deleted in this tab whose Undo is still offered: a snapshot collection meanwhile must
 * keep what they name (an Undo would bring back a revert, diffs or a fork point whose trees were collected).
 */
export const keptForUndo = new Map<string, { session: Session; messages: MessageWithParts[] }>();

/** Whether a session deleted in another tab may still be undone there: collections wait until it is settled. */
export function foreignPendingDelete(now = Date.now(), memo: Memo | undefined = pageStorage()): boolean {
  return Object.entries(read(memo)).some(([id, at]) => !keptForUndo.has(id) && now - at < PENDING_DELETE_STALE_MS);
}

function read(memo: Memo | undefined): Record<string, number> {
  try {
    const v: unknown = JSON.parse(memo?.getItem(KEY) ?? "{}");
    if (!v || typeof v !== "object" || Array.isArray(v)) return {};
    return Object.fromEntries(Object.entries(v).filter((e): e is [string, number] => typeof e[1] === "number"));
  } catch {
    return {};
  }
}

/** Writes the entries: "full" when storage refused for want of room, "refused" for any other refusal (no access). */
function write(memo: Memo | undefined, all: Record<string, number>): "noted" | "full" | "refused" {
  try {
    if (Object.keys(all).length === 0) memo?.removeItem(KEY);
    else memo?.setItem(KEY, JSON.stringify(all));
    return "noted";
  } catch (e) {
    return isQuotaExceeded(e) ? "full" : "refused";
  }
}

/**
 * Notes a delete whose Undo is offered: "noted" when the note is stored, "full" when storage is full even after
 * `makeRoom` (glance pictures, the oldest terminal logs) was asked for space once, "refused" when storage refused
 * for another reason (no room would help). A page without storage access at all has nowhere to note it (and no
 * other tab reads such notes): "noted", as before.
 */
export function notePendingDelete(sessionID: string, now = Date.now(), memo: Memo | undefined = pageStorage(), makeRoom: (need: number) => boolean = () => false): "noted" | "full" | "refused" {
  if (!memo) return "noted";
  let before: string | null = null;
  try {
    before = memo.getItem(KEY);
  } catch {
    // Read as none: the write below says whether storage can be used at all.
  }
  const all = { ...read(memo), [sessionID]: now };
  const first = write(memo, all);
  // Only a full storage is helped by room: other refusals would only cost the glance's pictures and old logs.
  if (first !== "full" || !makeRoom(noteGrowth(before, JSON.stringify(all)))) return first;
  return write(memo, all);
}

/** A key nothing reads: the room a note would take is tried under it (see `probePendingDelete`). */
const PROBE_KEY = "tabcode.deleted.probe";

/** The characters writing `written` as the entries adds to storage: all of it and the key, or its growth over `before`. */
function noteGrowth(before: string | null, written: string): number {
  return before === null ? KEY.length + written.length : written.length - before.length;
}

/**
 * What `notePendingDelete` would answer, found out changing nothing that stays. The shared entry itself is never
 * written: every tab writes it, and putting it back would erase a note another tab wrote in between. The room the
 * note would take (its growth over the entry stored) is tried under a key of its own and given back at once. When
 * storage is full, `couldMakeRoom(need)` judges whether making room would let the note in, and must free nothing:
 * a delete asked about may still be called off, and then nothing may have been thrown away for it.
 */
export function probePendingDelete(sessionID: string, now = Date.now(), memo: Memo | undefined = pageStorage(), couldMakeRoom: (need: number) => boolean = () => false): "noted" | "full" | "refused" {
  if (!memo) return "noted";
  let before: string | null;
  try {
    before = memo.getItem(KEY);
  } catch {
    return "refused";
  }
  const need = noteGrowth(before, JSON.stringify({ ...read(memo), [sessionID]: now }));
  try {
    memo.setItem(PROBE_KEY, "x".repeat(Math.max(0, need - PROBE_KEY.length)));
    return "noted";
  } catch (e) {
    if (!isQuotaExceeded(e)) return "refused";
    return couldMakeRoom(need) ? "noted" : "full";
  } finally {
    try {
      memo.removeItem(PROBE_KEY);
    } catch {
      // Nothing was written.
    }
  }
}

/**
 * Forgets `sessionID`'s entry. Given `at` (the time a check wrote), only while the entry is still that one: one
 * entry per session is shared by every tab, and a delete called off in one tab must not clear the note of a
 * delete another tab made of the same session meanwhile (its Undo still offered).
 */
export function clearPendingDelete(sessionID: string, memo: Memo | undefined = pageStorage(), at?: number): void {
  const all = read(memo);
  if (!(sessionID in all)) return;
  if (at !== undefined && all[sessionID] !== at) return;
  delete all[sessionID];
  write(memo, all);
}

/** Every session whose delete is not settled yet (its Undo may still be offered, or a start-up will finish it). */
export function pendingDeleteIDs(memo: Memo | undefined = pageStorage()): string[] {
  return Object.keys(read(memo));
}

/** The entries a start-up should finish: old enough that no Undo can still be pressed. */
export function stalePendingDeletes(now = Date.now(), memo: Memo | undefined = pageStorage()): string[] {
  return Object.entries(read(memo))
    .filter(([, at]) => now - at >= PENDING_DELETE_STALE_MS)
    .map(([id]) => id);
}

/** How long until the next entry this tab does not hold becomes stale (a page closed before its Undo went), if any. */
export function nextPendingDeleteDue(now = Date.now(), memo: Memo | undefined = pageStorage()): number | undefined {
  const waits = Object.entries(read(memo))
    .filter(([id, at]) => !keptForUndo.has(id) && now - at < PENDING_DELETE_STALE_MS)
    .map(([, at]) => at + PENDING_DELETE_STALE_MS - now);
  return waits.length ? Math.min(...waits) : undefined;
}
