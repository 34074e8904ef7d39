/**
 * The tabcode IndexedDB database (Dexie): tables, schema versions and opening.
 *
 * Tables (current version, see `migrations.ts` for the history):
 * - `sessions`  pk `id`; indexes `time.updated`, `parentID`.
 * - `messages`  pk `id`; `[sessionID+id]`: a session's messages in order.
 * - `parts`     pk `id`; `[messageID+id]`: a message's parts in order;
 *               `sessionID`: every part of a session in one query.
 * - `settings`  pk `key`; `value` is validated by whoever reads it.
 * - `terms`     pk `partID`; multi-entry `words`: the full-text search index.
 * - `deltas`    pk `++seq`; `[owner+batch]`: the journal of streamed text not yet merged into its part.
 *
 * Rows are the core schema records as they are; they are validated on read.
 */
import Dexie, { type Table } from "dexie";
import type { Message, Part, Session } from "../../core/schema";
import { isQuotaExceeded, QUOTA_MESSAGE } from "./errors";
import { type SchemaVersion, SCHEMA_VERSIONS } from "./migrations";
import type { TermsRow } from "./search-index";

/** The database name in the browser's IndexedDB. */
export const DB_NAME = "tabcode";

/** One row of the `settings` table. */
export interface SettingRow {
  key: string;
  value: unknown;
}

/** One journal row: text appended to a part by one batch of one tab. */
export interface JournalRow {
  seq?: number;
  /** The writing tab (see `delta-journal.ts`), alive while it holds `ownerLock(owner)`. */
  owner: string;
  /** The store's batch the text belongs to (rows of a merged batch are deleted with the merge). */
  batch: number;
  sessionID: string;
  messageID: string;
  partID: string;
  text: string;
}

/** The Dexie database with tabcode's tables. */
export type TabcodeDB = Dexie & {
  sessions: Table<Session, string>;
  messages: Table<Message, string>;
  parts: Table<Part, string>;
  settings: Table<SettingRow, string>;
  terms: Table<TermsRow, string>;
  deltas: Table<JournalRow, number>;
};

/** Where the database lives; tests pass a fresh fake-indexeddb factory. */
export interface DatabaseOptions {
  name?: string;
  indexedDB?: IDBFactory;
  IDBKeyRange?: typeof IDBKeyRange;
  /** Versions to declare; defaults to every version (tests open older ones). */
  versions?: readonly SchemaVersion[];
}

/** Declares `versions` on a Dexie instance. */
export function declareVersions(db: Dexie, versions: readonly SchemaVersion[]): void {
  for (const v of versions) {
    const declared = db.version(v.version).stores({ ...v.stores });
    if (v.upgrade) declared.upgrade(v.upgrade);
  }
}

/** A database object, not yet opened (Dexie opens it on first use). */
export function createDatabase(options: DatabaseOptions = {}): TabcodeDB {
  const db = new Dexie(options.name ?? DB_NAME, {
    ...(options.indexedDB ? { indexedDB: options.indexedDB } : {}),
    ...(options.IDBKeyRange ? { IDBKeyRange: options.IDBKeyRange } : {}),
  }) as TabcodeDB;
  declareVersions(db, options.versions ?? SCHEMA_VERSIONS);
  return db;
}

/** The result of `openDatabase`: expected failures are values. */
export type OpenDatabaseResult = { ok: true; value: TabcodeDB } | { ok: false; error: string };

const UNAVAILABLE =
  "This browser does not let tabcode use IndexedDB here, so sessions cannot be saved. " +
  "Private windows and strict privacy settings (blocked site data or cookies) can disable it: " +
  "open tabcode in a normal window, or allow site data for this page, then reload.";

function globalFactory(): IDBFactory | undefined {
  try {
    // Reading `indexedDB` itself throws a SecurityError in some sandboxed frames.
    const g = globalThis as { indexedDB?: IDBFactory };
    return g.indexedDB ?? undefined;
  } catch {
    return undefined;
  }
}

function errorName(e: unknown): string {
  return typeof e === "object" && e !== null && typeof (e as { name?: unknown }).name === "string"
    ? (e as { name: string }).name
    : "Error";
}

function innerName(e: unknown): string | undefined {
  if (typeof e !== "object" || e === null) return undefined;
  const inner = (e as { inner?: unknown }).inner;
  return inner ? errorName(inner) : undefined;
}

/** Words for the user about why the database would not open. */
export function describeOpenError(e: unknown): string {
  if (isQuotaExceeded(e)) return QUOTA_MESSAGE;
  const name = errorName(e);
  const inner = innerName(e);
  const detail = e instanceof Error && e.message ? ` (${e.message})` : "";
  if (name === "VersionError" || inner === "VersionError") {
    return `Sessions here were saved by a newer version of tabcode${detail}. Reload the page to get the newer version.`;
  }
  if (name === "UpgradeError") {
    return `Upgrading the saved sessions to this version of tabcode failed${detail}. Nothing was changed; reload to try again.`;
  }
  if (name === "MissingAPIError") return UNAVAILABLE;
  if (name === "TimeoutError") {
    return "Another tabcode tab is keeping the database open with an older version. Close other tabcode tabs and reload.";
  }
  return `${UNAVAILABLE} The browser said: ${inner ?? name}${detail}.`;
}

/**
 * Opens the database, or explains in words why it cannot: IndexedDB missing,
 * refused (private mode, blocked storage), newer data, failed upgrade, or
 * blocked by another tab for longer than `timeoutMs`. Never throws.
 */
export async function openDatabase(
  options: DatabaseOptions & { timeoutMs?: number } = {},
): Promise<OpenDatabaseResult> {
  const factory = options.indexedDB ?? globalFactory();
  if (!factory) return { ok: false, error: UNAVAILABLE };
  let db: TabcodeDB;
  try {
    db = createDatabase({ ...options, indexedDB: factory });
  } catch (e) {
    return { ok: false, error: describeOpenError(e) };
  }
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new DOMException("Opening the database timed out", "TimeoutError")),
      options.timeoutMs ?? 15_000,
    );
  });
  try {
    await Promise.race([db.open(), timeout]);
    return { ok: true, value: db };
  } catch (e) {
    db.close();
    return { ok: false, error: describeOpenError(e) };
  } finally {
    clearTimeout(timer);
  }
}
