/**
 * Full-text search over stored parts: a `terms` table (one row per part, a
 * multi-entry `words` index) maintained in the same transactions that write
 * parts, so a query is an index range scan, not a scan of every session.
 */
import type { Table, Transaction } from "dexie";
import type { Part } from "../../core/schema";
import { matchesAll, partWords, searchableText, snippet, words } from "../../core/search/terms";

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
}

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
    .filter((r) => matchesAll(r.words, q))
    .limit(limit)
    .toArray();
  const matched = found.sort((a, b) => (a.partID < b.partID ? 1 : -1));
  const parts = await db.parts.bulkGet(matched.map((m) => m.partID));
  const hits: SearchHit[] = [];
  matched.forEach((m, i) => {
    const p = parts[i];
    if (p) hits.push({ sessionID: m.sessionID, messageID: m.messageID, partID: m.partID, snippet: snippet(searchableText(p), q) });
  });
  return hits;
}
