/**
 * The opencode.db reader, in a Worker: sqlite-wasm over a read-only VFS that
 * slices the dropped File with FileReaderSync (pages are read on demand; the
 * file is never copied into memory). The page asks for the session list, then
 * for sessions a chunk at a time; mapping runs here, off the page's thread.
 */
import sqlite3InitModule, { type Oo1DB, type Sqlite3 } from "@sqlite.org/sqlite-wasm";
import { type DbSchema, detectSchema, type ImportIssue, listDbSessions, readDbSession } from "../../core/import";
import type { DbRequest, DbResponse } from "./db-protocol";
import { cachedReader } from "./block-cache";
import { type ByteReader, openReaderDb } from "./reader-vfs";
import { readWithLog } from "./wal";
import { sqlSource } from "./sql-source";

declare const FileReaderSync: { new (): { readAsArrayBuffer(b: Blob): ArrayBuffer } };

let sqlite: Promise<Sqlite3> | undefined;
let current: { db: Oo1DB; close: () => void; schema: DbSchema } | undefined;

function blobReader(file: Blob): ByteReader {
  const r = new FileReaderSync();
  // Large aligned reads: one FileReaderSync round trip per 256 KB instead of per 4 KB page.
  return cachedReader({ size: file.size, read: (offset, length) => new Uint8Array(r.readAsArrayBuffer(file.slice(offset, Math.min(file.size, offset + length)))) });
}

function post(m: DbResponse): void {
  (self as unknown as { postMessage(m: DbResponse): void }).postMessage(m);
}

function inWords(e: unknown): string {
  const text = e instanceof Error ? e.message : String(e);
  if (/SQLITE_NOTADB|file is not a database/i.test(text)) return "The file is not a SQLite database (or it is damaged).";
  if (/SQLITE_CORRUPT|malformed/i.test(text)) return "The database is damaged (SQLite reports it as malformed).";
  return `The database could not be read (${text.slice(0, 200)}).`;
}

async function handle(req: DbRequest): Promise<void> {
  try {
    if (req.type === "open") {
      const t0 = performance.now();
      sqlite ??= sqlite3InitModule({ print: () => undefined, printErr: () => undefined });
      const sqlite3 = await sqlite;
      current?.close();
      current = undefined;
      const { reader, notes } = readWithLog(blobReader(req.file), req.wal ? blobReader(req.wal) : undefined);
      const h = openReaderDb(sqlite3, reader);
      const src = sqlSource(h.db);
      const schema = detectSchema(src);
      if (!schema.ok) {
        h.close();
        post({ id: req.id, type: "error", error: schema.error });
        return;
      }
      current = { ...h, schema: schema.value };
      const sessions = listDbSessions(src, schema.value);
      const label = [schema.value.v1 ? "OpenCode 1.2+ (session/message/part)" : "", schema.value.v2 ? "OpenCode 2.x (session_v2/session_message)" : ""].filter(Boolean).join(" and ");
      post({ id: req.id, type: "opened", sessions, schema: label, ms: performance.now() - t0, notes });
    } else if (req.type === "read") {
      if (!current) throw new Error("no database is open");
      const src = sqlSource(current.db);
      const issues: ImportIssue[] = [];
      const sessions = req.sessions.flatMap((s) => readDbSession(src, s, issues, req.importedAt) ?? []);
      post({ id: req.id, type: "read", sessions, issues });
    } else {
      current?.close();
      current = undefined;
      post({ id: req.id, type: "closed" });
    }
  } catch (e) {
    post({ id: req.id, type: "error", error: inWords(e) });
  }
}

self.onmessage = (e: MessageEvent<DbRequest>) => void handle(e.data);
