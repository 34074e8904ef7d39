/**
 * The versioned IndexedDB schema of tabcode, one entry per version.
 *
 * Rules for changing it:
 * - Never edit a released version: add a new one. `upgrade.test.ts` opens a
 *   database exactly as each earlier version wrote it and checks nothing is lost.
 * - `stores` lists every table in full: primary key first, then indexes
 *   (Dexie syntax: `[a+b]` is a compound index, `a.b` a nested key path).
 * - An `upgrade` runs inside the version-change transaction: if it throws,
 *   IndexedDB rolls the whole upgrade back and the old data stays as it was.
 *   It must therefore tolerate rows of any shape (a corrupt row must not
 *   block opening the database); reading code validates rows anyway.
 *
 * History:
 * - v1: first schema. Sessions listed by primary key (descending ids, so by
 *   creation). Messages indexed by `sessionID`, parts by `messageID`. Session
 *   rows carried no usage totals.
 * - v2: sessions listed by last activity (`time.updated` index); messages of a
 *   session in order through `[sessionID+id]`; parts through `[messageID+id]`
 *   and `sessionID`, so a whole session's parts load with one query. Session
 *   rows gain running totals (`tokens`, `cost`), backfilled from the
 *   step-finish parts so the session list can show usage without loading
 *   messages (and, since `unpriced` was added to the row, how many of those
 *   steps had no known price; rows that already had totals leave it out and
 *   get it on their next run).
 * - v3: full-text search. A `terms` table holds each part's distinct words
 *   (multi-entry index) and is written in the same transactions as the parts;
 *   the upgrade builds it for every stored part.
 * - v4: a `deltas` journal of streamed text (auto-increment `seq`,
 *   `[owner+batch]` = the writing tab and its batch): small appends every 50 ms while a part streams, merged
 *   into the part (and deleted) in the part's own, rarer writes; what a killed
 *   tab left behind is merged on the next start. No data to migrate.
 */
import type { Transaction } from "dexie";
import type { Tokens } from "../../core/schema";
import { backfillTerms } from "./search-index";

/** One version of the database schema. */
export interface SchemaVersion {
  /** Dexie version number (IndexedDB sees it multiplied by 10). */
  version: number;
  /** Every table: primary key then indexes; `null` deletes a table. */
  stores: Readonly<Record<string, string | null>>;
  /** What changed and why, in words. */
  notes: string;
  /** Data migration run once when upgrading from the previous version. */
  upgrade?: (tx: Transaction) => Promise<void>;
}

const V1_STORES = {
  sessions: "id, parentID",
  messages: "id, sessionID",
  parts: "id, messageID",
  settings: "key",
} as const;

const V2_STORES = {
  sessions: "id, time.updated, parentID",
  messages: "id, [sessionID+id]",
  parts: "id, [messageID+id], sessionID",
  settings: "key",
} as const;

const V3_STORES = {
  ...V2_STORES,
  terms: "partID, sessionID, messageID, *words",
} as const;

const V4_STORES = {
  ...V3_STORES,
  deltas: "++seq, [owner+batch]",
} as const;

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function num(v: unknown): number {
  return typeof v === "number" && Number.isFinite(v) && v >= 0 ? v : 0;
}

interface Totals {
  tokens: Tokens;
  cost: number;
  /** Steps with no known price (`priceUnknown`), whose cost is not in `cost`. */
  unpriced: number;
}

function emptyTotals(): Totals {
  return { tokens: { input: 0, output: 0, reasoning: 0, cache: { read: 0, write: 0 } }, cost: 0, unpriced: 0 };
}

/** Adds one step-finish row (of any shape) to the running totals. */
function addStep(t: Totals, row: Record<string, unknown>): void {
  const tk = isRecord(row.tokens) ? row.tokens : {};
  const cache = isRecord(tk.cache) ? tk.cache : {};
  t.tokens.input += num(tk.input);
  t.tokens.output += num(tk.output);
  t.tokens.reasoning += num(tk.reasoning);
  t.tokens.cache.read += num(cache.read);
  t.tokens.cache.write += num(cache.write);
  t.cost += num(row.cost);
  if (row.priceUnknown === true) t.unpriced++;
}

/** v1 → v2: backfill session usage totals from step-finish parts. */
export async function backfillSessionTotals(tx: Transaction): Promise<void> {
  const totals = new Map<string, Totals>();
  await tx
    .table("parts")
    .toCollection()
    .each((row: unknown) => {
      if (!isRecord(row) || row.type !== "step-finish" || typeof row.sessionID !== "string") return;
      let t = totals.get(row.sessionID);
      if (!t) {
        t = emptyTotals();
        totals.set(row.sessionID, t);
      }
      addStep(t, row);
    });
  await tx
    .table("sessions")
    .toCollection()
    .modify((row: unknown) => {
      if (!isRecord(row) || typeof row.id !== "string") return;
      const t = totals.get(row.id) ?? emptyTotals();
      if (!isRecord(row.tokens)) row.tokens = t.tokens;
      if (typeof row.cost !== "number") {
        row.cost = t.cost;
        // Counted in the same pass: a row whose cost this backfill sets knows its unpriced steps too.
        if (row.unpriced === undefined) row.unpriced = t.unpriced;
      }
    });
}

/** Every schema version, oldest first. The last one is current. */
export const SCHEMA_VERSIONS: readonly SchemaVersion[] = [
  {
    version: 1,
    stores: V1_STORES,
    notes: "First schema: sessions by id and parentID, messages by sessionID, parts by messageID, settings by key.",
  },
  {
    version: 2,
    stores: V2_STORES,
    notes:
      "Indexes for ordered reads ([sessionID+id], [messageID+id], parts by sessionID, sessions by time.updated); " +
      "session usage totals (tokens, cost) backfilled from step-finish parts.",
    upgrade: backfillSessionTotals,
  },
  {
    version: 3,
    stores: V3_STORES,
    notes: "Full-text search: a terms table (one row per part, multi-entry words index) backfilled from stored parts.",
    upgrade: (tx) => backfillTerms(tx),
  },
  {
    version: 4,
    stores: V4_STORES,
    notes: "A journal of streamed text deltas (deltas: ++seq, [owner+batch]), so a killed tab loses at most ~50 ms of a streaming answer.",
  },
];

/** The schema version this code writes. */
export const CURRENT_VERSION: number = SCHEMA_VERSIONS[SCHEMA_VERSIONS.length - 1]?.version ?? 0;
