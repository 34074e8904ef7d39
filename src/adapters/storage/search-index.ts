/**
 * Full-text search over stored parts: a `terms` table (one row per part, a
 * multi-entry `words` index) maintained in the same transactions that write
 * parts, so a query is an index range scan, not a scan of every session.
 *
 * Imports write **block rows** instead: one row per session (up to
 * `BLOCK_PARTS` parts) holding the block's distinct words and, per word, which
 * of its parts contain it. A multi-entry index entry costs IndexedDB far more
 * than bytes in a row, and a session repeats most of its words from part to
 * part, so a block needs a small fraction of the entries per-part rows need
 * (the import bench measures it). A part changed later gets its own row; hits
 * from a block are checked against the stored part, so a stale block never
 * shows a part that no longer matches.
 */
import type { Dexie, Table, Transaction } from "dexie";
import type { Part } from "../../core/schema";
import { firstMatch, matchesAll, partWords, searchableText, snippet, words } from "../../core/search/terms";

/** One row of the `terms` table. */
/** The tables the index reads and writes (the database's, or a transaction's). */
export interface TermsTables {
  terms: Table<TermsRow, string>;
  parts: Table<Part, string>;
}

export interface TermsRow {
  partID: string;
  sessionID: string;
  messageID: string;
  words: string[];
  /** Block rows only: the block's parts, and for each of `words` the indexes (into `parts`) of the parts holding it. */
  block?: { parts: string[]; postings: number[][] };
}

/** Most parts one block row covers (also bounds the work between two writes of an import). */
const BLOCK_PARTS = 250;
/** Primary keys of block rows (never a part id: those start with `prt_`). */
const BLOCK_KEY = "~block:";

export interface SearchHit {
  sessionID: string;
  messageID: string;
  partID: string;
  snippet: string;
}

export function termsRow(part: Part): TermsRow | undefined {
  const w = partWords(part);
  return w.length ? { partID: part.id, sessionID: part.sessionID, messageID: part.messageID, words: w } : undefined;
}

/** Writes (or clears) the index rows of `parts`; call inside a transaction that includes `terms`. */
export async function indexParts(db: TermsTables, parts: readonly Part[]): Promise<void> {
  const put: TermsRow[] = [];
  const del: string[] = [];
  for (const p of parts) {
    const row = termsRow(p);
    if (row) put.push(row);
    else del.push(p.id);
  }
  if (put.length) await db.terms.bulkPut(put);
  if (del.length) await db.terms.bulkDelete(del);
}

/** The block row of parts of one session written together (an import), or none when they hold no words. */
function blockRow(sessionID: string, parts: readonly Part[]): TermsRow | undefined {
  const postings = new Map<string, number[]>();
  const ids: string[] = [];
  for (const p of parts) {
    const w = partWords(p);
    if (w.length === 0) continue;
    const at = ids.push(p.id) - 1;
    for (const word of w) {
      const list = postings.get(word);
      if (list) list.push(at);
      else postings.set(word, [at]);
    }
  }
  const first = ids[0];
  if (first === undefined) return undefined;
  return { partID: `${BLOCK_KEY}${sessionID}:${first}`, sessionID, messageID: "", words: [...postings.keys()], block: { parts: ids, postings: [...postings.values()] } };
}

/**
 * Writes the parts of freshly imported sessions with their block rows, a
 * block at a time (each write awaited, so the page's thread is free between
 * them); call inside a transaction that includes `parts` and `terms`.
 */
export async function addImportedParts(db: TermsTables, parts: readonly Part[]): Promise<void> {
  const bySession = new Map<string, Part[]>();
  for (const p of parts) {
    const list = bySession.get(p.sessionID);
    if (list) list.push(p);
    else bySession.set(p.sessionID, [p]);
  }
  for (const [sessionID, list] of bySession) {
    for (let i = 0; i < list.length; i += BLOCK_PARTS) {
      const slice = list.slice(i, i + BLOCK_PARTS);
      await db.parts.bulkAdd(slice);
      const row = blockRow(sessionID, slice);
      if (row) await db.terms.add(row);
    }
  }
}

/** The parts of a block row that hold every query word (as word prefixes). */
function blockHits(row: TermsRow, query: readonly string[]): string[] {
  const block = row.block;
  if (!block) return [];
  let hit: Set<number> | undefined;
  for (const q of query) {
    const has = new Set<number>();
    row.words.forEach((w, i) => {
      if (w.startsWith(q)) for (const k of block.postings[i] ?? []) if (!hit || hit.has(k)) has.add(k);
    });
    hit = has;
    if (hit.size === 0) return [];
  }
  return [...(hit ?? [])].flatMap((k) => block.parts[k] ?? []);
}

/** v2 → v3: build the index for every stored part (rows of any shape are skipped). */
export async function backfillTerms(tx: Transaction): Promise<void> {
  const rows: TermsRow[] = [];
  await tx
    .table("parts")
    .toCollection()
    .each((row: Part) => {
      try {
        if (typeof row?.id !== "string" || typeof row.sessionID !== "string") return;
        const r = termsRow(row);
        if (r) rows.push(r);
      } catch {
        // A malformed row is simply not indexed.
      }
    });
  if (rows.length) await tx.table("terms").bulkPut(rows);
}

/** Settings row of the re-index of tool inputs (`reindexToolInputs`): the last part id done, or `true` once finished. */
export const TOOL_INPUT_REINDEX_KEY = "search.toolInputsReindexed";
/** Parts read per transaction of the re-index: a few milliseconds each, so the page's own writes wait little. */
const REINDEX_CHUNK = 300;

/**
 * Whether a tool part was indexed with wrong words before tool inputs were read as written: its input was indexed
 * as JSON, where an escape (`\n`, `\t`, `\u…`) glued its letter to the next word ("\nexport" gave "nexport").
 */
function gluedByEscapes(part: Part): boolean {
  if (part.type !== "tool") return false;
  return /\\[bfnrtu]/.test(JSON.stringify(part.state.input) ?? "");
}

/**
 * Gives tool parts indexed under the old rule a row of their own with the words as written, so a search finds
 * them; a part of an imported block gets its row beside the block's (a search reads a part's own row first).
 * Runs through the parts in id order, `chunk` at a time, each chunk in its own transaction with its progress, so
 * it resumes after a reload and runs once per database; `pause` runs between chunks (the page's idle time).
 * Returns how many rows it wrote.
 */
export async function reindexToolInputs(db: Dexie & TermsTables & { settings: Table<{ key: string; value: unknown }, string> }, opts: { chunk?: number; pause?: () => Promise<void> } = {}): Promise<number> {
  const chunk = opts.chunk ?? REINDEX_CHUNK;
  let written = 0;
  // Done once per database: every later start-up only reads the flag, with no write transaction to hold up a send.
  if ((await db.settings.get(TOOL_INPUT_REINDEX_KEY))?.value === true) return 0;
  for (;;) {
    const done = await db.transaction("rw", [db.parts, db.terms, db.settings], async () => {
      const at = (await db.settings.get(TOOL_INPUT_REINDEX_KEY))?.value;
      if (at === true) return true;
      const parts = await (typeof at === "string" ? db.parts.where(":id").above(at) : db.parts.orderBy(":id")).limit(chunk).toArray();
      const rows: TermsRow[] = [];
      for (const p of parts) {
        try {
          const row = gluedByEscapes(p) ? termsRow(p) : undefined;
          if (row) rows.push(row);
        } catch {
          // A malformed row is left as it is.
        }
      }
      if (rows.length) await db.terms.bulkPut(rows);
      written += rows.length;
      const last = parts[parts.length - 1]?.id;
      const finished = parts.length < chunk || last === undefined;
      await db.settings.put({ key: TOOL_INPUT_REINDEX_KEY, value: finished ? true : last });
      return finished;
    });
    if (done) return written;
    await opts.pause?.();
  }
}

/**
 * Parts whose text contains every word of `query` (as word prefixes), newest
 * first, at most `limit`. The rarest-looking (longest) word drives the scan.
 */
export async function searchParts(db: TermsTables, query: string, limit = 50): Promise<SearchHit[]> {
  const q = words(query, 8);
  if (q.length === 0) return [];
  const driver = [...q].sort((a, b) => b.length - a.length)[0] ?? "";
  // A lazy cursor: stops as soon as `limit` rows match every word.
  const found = await db.terms
    .where("words")
    .startsWith(driver)
    .reverse()
    .distinct()
    .filter((r) => (r.block ? blockHits(r, q).length > 0 : matchesAll(r.words, q)))
    .limit(limit)
    .toArray();
  // Per-part rows, then the parts of block rows; a part with both (changed after its import) once.
  const where = new Map<string, { sessionID: string; messageID?: string; fromBlock: boolean }>();
  for (const r of found) if (!r.block) where.set(r.partID, { sessionID: r.sessionID, messageID: r.messageID, fromBlock: false });
  for (const r of found) if (r.block) for (const id of blockHits(r, q)) if (!where.has(id)) where.set(id, { sessionID: r.sessionID, fromBlock: true });
  const ids = [...where.keys()].sort((a, b) => (a < b ? 1 : -1));
  const hits: SearchHit[] = [];
  // A message's snippet reads as the message does on screen (its markdown parsed; loaded with the first hit).
  const readable = ids.length > 0 ? await import("./readable-text") : undefined;
  const excerpt = (p: Part) => {
    const text = searchableText(p);
    return snippet(p.type === "text" && readable ? readable.readableAround(text, firstMatch(text, q)) : text, q);
  };
  for (let i = 0; i < ids.length && hits.length < limit; i += limit) {
    const batch = ids.slice(i, i + limit);
    const parts = await db.parts.bulkGet(batch);
    batch.forEach((id, k) => {
      const p = parts[k];
      const w = where.get(id);
      if (!p || !w || hits.length >= limit) return;
      // A block is written once; the part may have changed since.
      if (w.fromBlock && !matchesAll(partWords(p), q)) return;
      hits.push({ sessionID: p.sessionID, messageID: p.messageID, partID: id, snippet: excerpt(p) });
    });
  }
  return hits;
}
