/**
 * The journal of streamed text: what a tab that is killed mid-stream would
 * otherwise lose. While a part streams, the store appends its new text to the
 * `deltas` table at most every `JOURNAL_DELAY_MS` (`appendJournal`: one
 * small write, issued in the same task that received the delta and committed
 * at once, so a main thread that then stays busy for seconds does not hold
 * it back; no read, no re-indexing, no table the UI's live queries watch),
 * and merges it into the part itself at the slower batch cadence, deleting
 * the journal rows of that batch in the same transaction. On start-up `recoverJournal` merges
 * what dead tabs left behind (a tab still alive holds a Web Lock on its owner
 * id, so its rows are left alone).
 */
import type { JournalRow, TabcodeDB } from "./db";
import { indexParts } from "./search-index";

/** Longest time streamed text stays only in memory. */
export const JOURNAL_DELAY_MS = 50;

/** The Web Lock a tab holds for as long as it may write journal rows as `owner`. */
export function ownerLock(owner: string): string {
  return `tabcode-journal-${owner}`;
}

/** A fresh owner id for this tab, held (Web Lock) until the tab goes away. */
export function journalOwner(): string {
  const owner = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
  const locks = typeof navigator !== "undefined" ? navigator.locks : undefined;
  void locks?.request(ownerLock(owner), () => new Promise<void>(() => undefined)).catch(() => undefined);
  return owner;
}

/** Owners whose tab is alive (holds its lock). Without Web Locks: none but `self`. */
export async function liveOwners(self: string): Promise<Set<string>> {
  const alive = new Set([self]);
  const locks = typeof navigator !== "undefined" ? navigator.locks : undefined;
  if (!locks) return alive;
  const state = await locks.query();
  for (const l of state.held ?? []) if (l.name?.startsWith("tabcode-journal-")) alive.add(l.name.slice("tabcode-journal-".length));
  return alive;
}

/**
 * Merges the rows of dead owners into their parts (in journal order), then
 * deletes them, in one transaction. Returns how many rows were merged.
 * Rows for parts that no longer exist (or are not text) are dropped.
 */
export async function recoverJournal(db: TabcodeDB, alive: ReadonlySet<string>): Promise<number> {
  return db.transaction("rw", [db.deltas, db.parts, db.terms], async () => {
    const rows = (await db.deltas.orderBy("seq").toArray()).filter((r) => !alive.has(r.owner));
    if (rows.length === 0) return 0;
    const text = new Map<string, string>();
    for (const r of rows) text.set(r.partID, (text.get(r.partID) ?? "") + r.text);
    const parts = await db.parts.bulkGet([...text.keys()]);
    const updated = parts.flatMap((p) => (p && (p.type === "text" || p.type === "reasoning") && typeof p.text === "string" ? [{ ...p, text: p.text + (text.get(p.id) ?? "") }] : []));
    if (updated.length) {
      await db.parts.bulkPut(updated);
      await indexParts(db, updated);
    }
    await db.deltas.bulkDelete(rows.flatMap((r) => (r.seq === undefined ? [] : [r.seq])));
    return rows.length;
  });
}

/**
 * Adds rows to the journal with the native IndexedDB API and commits at once
 * (`IDBTransaction.commit`): the write does not wait for this page's event
 * loop. Failures are reported through `onError` (the batch merge still
 * writes the text).
 */
export function appendJournal(db: TabcodeDB, rows: readonly JournalRow[], onError: (e: unknown) => void): void {
  try {
    const tx = db.backendDB().transaction("deltas", "readwrite");
    const table = tx.objectStore("deltas");
    for (const r of rows) table.add(r);
    tx.onerror = () => onError(tx.error);
    tx.onabort = () => onError(tx.error);
    tx.commit?.();
  } catch (e) {
    onError(e);
  }
}

/** Deletes the rows of one batch (inside the caller's Dexie transaction). */
export function deleteBatch(db: TabcodeDB, owner: string, batch: number): Promise<number> {
  return db.deltas.where("[owner+batch]").equals([owner, batch]).delete();
}
