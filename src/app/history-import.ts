/**
 * "Import history": routes dropped files to the importers and writes what
 * they map, a chunk at a time, with progress and cancellation between chunks.
 * - SQLite (`opencode.db`) → the Worker (lazy-loaded), picker first;
 * - our exports and `opencode export` files → the export import;
 * - storage trees, Claude Code, Codex, Gemini CLI files → the core mappers, in
 *   a Worker of their own (lazy-loaded) that hands over chunks to write.
 * A cancelled import can simply be started again: sessions already imported
 * from the same source are recognised and skipped.
 */
import { type DbSessionSummary, type HistoryChunk, type HistorySession, type ImportIssue, isSqlite, type SourceIndex, sourceIndex, writeHistory } from "../core/import";
import type { HistoryDb } from "../adapters/import/db-client";
import { isWalFile } from "../adapters/import/wal";
import type { AppServices } from "./bootstrap";
import { forgetGlance } from "../ui/glance/keeper";
import { READ_MEASURE, WRITE_MEASURE } from "./import-measures";
import { importFile } from "./session-actions";

/** A dropped or picked file with its path inside the dropped folder (or its name). */
export interface DroppedFile {
  path: string;
  file: File;
}

export interface HistoryProgress {
  /** Sessions written. */
  done: number;
  /** Sessions found so far (it grows while the files are still being read). */
  total: number;
  parts: number;
  /** While dropped text files are still being read and mapped: bytes of them mapped, of all. */
  reading?: { done: number; total: number };
}

export interface HistoryOutcome {
  created: number;
  updated: number;
  unchanged: number;
  kept: number;
  /** Of `created`, sessions of an export whose ids were already here, imported as copies. */
  copied: number;
  /** The first imported (or updated) session, to open. */
  firstID?: string;
  issues: ImportIssue[];
  /** Files no importer recognised. */
  unknown: string[];
  cancelled: boolean;
  /** A write failed: what was written before it stays, the failed chunk is not written. */
  error?: string;
  notes: string[];
}

interface Options {
  onProgress?: (p: HistoryProgress) => void;
  signal?: AbortSignal;
}

function emptyOutcome(): HistoryOutcome {
  return { created: 0, updated: 0, unchanged: 0, kept: 0, copied: 0, issues: [], unknown: [], cancelled: false, notes: [] };
}

/** A dropped database with the `-wal` file dropped beside it, if any. */
export interface DroppedDatabase extends DroppedFile {
  wal?: DroppedFile;
}

/**
 * Splits a drop: SQLite databases (each paired with its `name-wal` log when
 * that was dropped too) apart from the text files. `-shm` files are not needed.
 */
export async function splitDrop(files: readonly DroppedFile[]): Promise<{ databases: DroppedDatabase[]; texts: DroppedFile[] }> {
  const databases: DroppedDatabase[] = [];
  const logs: DroppedFile[] = [];
  const texts: DroppedFile[] = [];
  for (const f of files) {
    const head = new Uint8Array(await f.file.slice(0, 16).arrayBuffer());
    if (isSqlite(head)) databases.push({ ...f });
    else if (isWalFile(head)) logs.push(f);
    else if (/\.(jsonl?|zip)$/i.test(f.path)) texts.push(f);
  }
  for (const log of logs) {
    const db = databases.find((d) => `${d.path}-wal` === log.path) ?? (databases.length === 1 && logs.length === 1 ? databases[0] : undefined);
    if (db && !db.wal) db.wal = log;
  }
  return { databases, texts };
}

/** Opens a dropped database (with its `-wal` log, if dropped with it) in the Worker; the Worker code loads only now. */
export async function openDatabase(db: DroppedDatabase): Promise<{ ok: true; value: HistoryDb } | { ok: false; error: string }> {
  const { openHistoryDb } = await import("../adapters/import/db-client");
  return openHistoryDb(db.file, db.wal?.file);
}

async function writeChunk(app: AppServices, sessions: HistorySession[], index: SourceIndex, out: HistoryOutcome): Promise<boolean> {
  const w = await writeHistory(app.store, sessions, index);
  // Re-imported sessions replace the earlier copies: the kept picture of the last screen may show one.
  forgetGlance();
  if (!w.ok) {
    out.error = w.error;
    return false;
  }
  out.created += w.value.created.length;
  out.updated += w.value.updated.length;
  out.unchanged += w.value.unchanged.length;
  out.kept += w.value.kept.length;
  out.firstID ??= w.value.created[0] ?? w.value.updated[0];
  return true;
}

/**
 * Chunks of sessions of about `budget` records each (a large session is a chunk of its own):
 * small enough that writing one (with its search index) stays a short task on the page.
 */
export function chunkSessions(sessions: readonly DbSessionSummary[], budget = 600, maxSessions = 10): DbSessionSummary[][] {
  // Parents before children, so a child finds its parent already written.
  const ordered = [...sessions].sort((a, b) => Number(a.parentID !== undefined) - Number(b.parentID !== undefined));
  const out: DbSessionSummary[][] = [];
  let cur: DbSessionSummary[] = [];
  let size = 0;
  for (const s of ordered) {
    if (cur.length > 0 && (size + s.records > budget || cur.length >= maxSessions)) {
      out.push(cur);
      cur = [];
      size = 0;
    }
    cur.push(s);
    size += s.records;
  }
  if (cur.length) out.push(cur);
  return out;
}

/**
 * Imports the picked sessions of an open database, chunk by chunk. The Worker
 * reads and maps the next chunk while this one is written, so reading and
 * writing overlap.
 */
export async function importDatabase(app: AppServices, db: HistoryDb, picked: readonly DbSessionSummary[], opts: Options = {}): Promise<HistoryOutcome> {
  const out = emptyOutcome();
  const index = await sourceIndex(app.store);
  const importedAt = Date.now();
  const progress: HistoryProgress = { done: 0, total: picked.length, parts: 0 };
  opts.onProgress?.(progress);
  const chunks = chunkSessions(picked);
  const readAt = (i: number) => {
    const chunk = chunks[i];
    if (!chunk) return undefined;
    const p = db.read(chunk, importedAt);
    // Awaited below; a read left behind by a cancel or a failed write must not be an unhandled rejection.
    p.catch(() => undefined);
    return p;
  };
  let next = readAt(0);
  for (let i = 0; i < chunks.length && next; i++) {
    if (opts.signal?.aborted) {
      out.cancelled = true;
      break;
    }
    let read: Awaited<ReturnType<HistoryDb["read"]>>;
    const waited = performance.now();
    try {
      read = await next;
    } catch (e) {
      out.error = e instanceof Error ? e.message : String(e);
      break;
    }
    next = readAt(i + 1);
    // User Timing entries (DevTools, and the import bench's split of the time).
    performance.measure(READ_MEASURE, { start: waited });
    out.issues.push(...read.issues);
    const writing = performance.now();
    const ok = await writeChunk(app, read.sessions, index, out);
    performance.measure(WRITE_MEASURE, { start: writing });
    if (!ok) break;
    progress.done += chunks[i]?.length ?? 0;
    progress.parts += partsOf(read.sessions);
    opts.onProgress?.({ ...progress });
  }
  return out;
}

const CANCELLED = Symbol("cancelled");

/** Resolves with `CANCELLED` as soon as `signal` aborts, else as `p` does. */
function unlessCancelled<T>(p: Promise<T>, signal: AbortSignal | undefined): Promise<T | typeof CANCELLED> {
  if (!signal) return p;
  if (signal.aborted) return Promise.resolve(CANCELLED);
  return new Promise((resolve, reject) => {
    const onAbort = () => resolve(CANCELLED);
    signal.addEventListener("abort", onAbort, { once: true });
    p.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

function partsOf(sessions: readonly HistorySession[]): number {
  return sessions.reduce((n, s) => n + s.messages.reduce((k, m) => k + m.parts.length, 0), 0);
}

/**
 * Imports dropped text files (folders included). A Worker (loaded now) reads,
 * parses and maps them and hands over chunks of sessions; the page only writes
 * them, so it repaints, shows progress and takes Cancel between and during
 * chunks. Exports go through the export import, file by file, before the rest.
 */
export async function importTextFiles(app: AppServices, files: readonly DroppedFile[], opts: Options = {}): Promise<HistoryOutcome> {
  const out = emptyOutcome();
  const { readHistoryFiles } = await import("../adapters/import/history-client");
  const reader = readHistoryFiles(files, Date.now());
  // Shown (with Cancel) from the start: reading and sorting a large drop takes a moment too.
  opts.onProgress?.({ done: 0, total: 0, parts: 0, reading: { done: 0, total: files.reduce((n, f) => n + f.file.size, 0) } });
  try {
    const started = await unlessCancelled(reader.start(), opts.signal);
    if (started === CANCELLED) {
      out.cancelled = true;
      return out;
    }
    for (const i of started.exports) {
      const f = files[i];
      if (!f) continue;
      const bytes = /\.zip$/i.test(f.path) ? new Uint8Array(await f.file.arrayBuffer()) : new TextEncoder().encode(await f.file.text());
      await viaExportImport(app, f, bytes, out);
    }
    out.issues.push(...started.issues);
    out.unknown.push(...started.unknown);
    const index = await sourceIndex(app.store);
    const progress: HistoryProgress = { done: 0, total: 0, parts: 0, reading: { done: 0, total: started.bytes } };
    opts.onProgress?.({ ...progress });
    // The reader maps the next chunk while this one is written.
    const ask = () => {
      const p = reader.next();
      // Awaited below; one left behind by a cancel or a failed write must not be an unhandled rejection.
      p.catch(() => undefined);
      return p;
    };
    let next: Promise<HistoryChunk> | undefined = ask();
    while (next) {
      const chunk: HistoryChunk | typeof CANCELLED = await unlessCancelled(next, opts.signal);
      if (chunk === CANCELLED) {
        out.cancelled = true;
        break;
      }
      next = chunk.last ? undefined : ask();
      // One by one: a drop of thousands of broken lines would overflow a spread's arguments.
      for (const i of chunk.issues) out.issues.push(i);
      progress.total += chunk.sessions.length;
      if (progress.reading) progress.reading.done = chunk.read;
      if (chunk.sessions.length) {
        const writing = performance.now();
        const ok = await writeChunk(app, chunk.sessions, index, out);
        performance.measure(WRITE_MEASURE, { start: writing });
        if (!ok) break;
        progress.done += chunk.sessions.length;
        progress.parts += partsOf(chunk.sessions);
      }
      if (chunk.last) delete progress.reading;
      opts.onProgress?.({ ...progress, ...(progress.reading ? { reading: { ...progress.reading } } : {}) });
      if (opts.signal?.aborted && !chunk.last) {
        out.cancelled = true;
        break;
      }
    }
  } catch (e) {
    // The reader's own words (a fault or a crash): what was written before stays.
    out.error = e instanceof Error ? e.message : String(e);
  } finally {
    reader.close();
  }
  return out;
}

async function viaExportImport(app: AppServices, f: DroppedFile, bytes: Uint8Array, out: HistoryOutcome): Promise<void> {
  // Import history is where other agents' files go: its issues do not point back to it.
  const r = await importFile(app, bytes, { hint: false });
  if (!r.ok) {
    out.issues.push({ at: f.path, problem: r.error });
    return;
  }
  out.created += r.value.sessionIDs.length;
  out.copied += r.value.copied;
  out.firstID ??= r.value.sessionIDs[0];
  out.notes.push(...r.value.warnings);
}
