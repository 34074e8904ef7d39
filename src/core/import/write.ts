/**
 * Writes mapped history sessions, keyed by where they came from: a session
 * already imported from the same tool and id is left alone when the source is
 * unchanged, replaced when it changed (the new copy is written first, then the
 * old one removed, so a failure never loses it), and kept next to the new copy
 * when it was continued here. Each chunk is written in one transaction when the
 * store can: a session is never half-written.
 */
import { describeThrown, isQuotaError } from "../errors";
import type { ImportRows, Store } from "../ports/store";
import type { Session } from "../schema";
import type { HistorySession } from "./types";

export interface WriteOutcome {
  created: string[];
  updated: string[];
  unchanged: string[];
  /** Sessions continued here that were kept beside their updated copy. */
  kept: string[];
}

/** Imported sessions by source key (`tool` + id); the newest import wins. */
export type SourceIndex = Map<string, Session>;

export function sourceKey(tool: string, id: string): string {
  return `${tool}\u0000${id}`;
}

export async function sourceIndex(store: Store): Promise<SourceIndex> {
  const all = [...(await store.listSessions()), ...(await store.listSessions({ archived: true }))];
  const out: SourceIndex = new Map();
  for (const s of all) {
    if (!s.source) continue;
    const key = sourceKey(s.source.tool, s.source.id);
    const prev = out.get(key);
    if (!prev?.source || prev.source.importedAt < s.source.importedAt) out.set(key, s);
  }
  return out;
}

/** Whether the user added to an imported session here (it was updated after it was imported). */
function continuedHere(s: Session): boolean {
  return s.source !== undefined && s.time.updated > s.source.importedAt;
}


/**
 * Writes one chunk. Parents are linked by source id, through this chunk or
 * sessions imported before. `index` is updated with what was written.
 */
export async function writeHistory(store: Store, sessions: readonly HistorySession[], index: SourceIndex): Promise<{ ok: true; value: WriteOutcome } | { ok: false; error: string }> {
  const out: WriteOutcome = { created: [], updated: [], unchanged: [], kept: [] };
  const rows: ImportRows[] = [];
  const replaced: string[] = [];
  const chunkIds = new Map<string, string>();
  const pending: { s: HistorySession; key: string }[] = [];
  for (const s of sessions) {
    const src = s.info.source;
    if (!src) continue;
    const key = sourceKey(src.tool, src.id);
    const existing = index.get(key);
    if (existing?.source && existing.source.updated === src.updated) {
      out.unchanged.push(existing.id);
      chunkIds.set(key, existing.id);
      continue;
    }
    if (existing && continuedHere(existing)) out.kept.push(existing.id);
    else if (existing) replaced.push(existing.id);
    chunkIds.set(key, s.info.id);
    pending.push({ s, key });
    (existing ? out.updated : out.created).push(s.info.id);
  }
  for (const { s } of pending) {
    const src = s.info.source;
    const info: Session = { ...s.info };
    const parentKey = s.parentSourceID === undefined || !src ? undefined : sourceKey(src.tool, s.parentSourceID);
    const parent = parentKey === undefined ? undefined : (chunkIds.get(parentKey) ?? index.get(parentKey)?.id);
    if (parent !== undefined) info.parentID = parent;
    rows.push({ session: info, messages: s.messages });
  }
  try {
    if (store.importSessions) await store.importSessions(rows);
    else {
      const done: string[] = [];
      try {
        for (const r of rows) {
          await store.importSession(r.session, r.messages);
          done.push(r.session.id);
        }
      } catch (e) {
        for (const id of done) await store.deleteSession(id).catch(() => undefined);
        throw e;
      }
    }
  } catch (e) {
    return { ok: false, error: `Nothing of this batch was imported: ${describeThrown(e)}${isQuotaError(e) ? " (the browser's storage is full)" : ""}` };
  }
  for (const r of rows) if (r.session.source) index.set(sourceKey(r.session.source.tool, r.session.source.id), r.session);
  for (const id of replaced) await store.deleteSession(id).catch(() => undefined);
  return { ok: true, value: out };
}
