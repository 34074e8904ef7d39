import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { detectSchema, type ImportIssue, listDbSessions, readDbSession } from "../../core/import";
import type { TextPart } from "../../core/schema";
import { fileReader, nodeSqlite } from "../../testing/sqlite-node";
import { type ByteReader, openReaderDb } from "./reader-vfs";
import { sqlSource } from "./sql-source";
import { isWalFile, isWalMode, readWithLog, withWal } from "./wal";

// A WAL-mode database (the 1.2 fixture) whose newest session lives only in the -wal file (see the fixtures' MANIFEST).
const path = (name: string) => fileURLToPath(new URL(`../../core/import/__fixtures__/opencode-wal/${name}`, import.meta.url));
const WAL_SESSION = "ses_4a1b2d9e0ffeOnlyInTheWalXy";

async function titles(reader: ByteReader): Promise<string[]> {
  const handle = openReaderDb(await nodeSqlite(), reader);
  try {
    const db = sqlSource(handle.db);
    const schema = detectSchema(db);
    if (!schema.ok) throw new Error(schema.error);
    return listDbSessions(db, schema.value).map((s) => s.sourceID);
  } finally {
    handle.close();
  }
}

/** A reader over bytes in memory (a copy of a fixture with some bytes changed). */
function bytesReader(bytes: Uint8Array): ByteReader {
  return { size: bytes.length, read: (offset, length) => bytes.slice(offset, Math.min(bytes.length, offset + length)) };
}

function readAll(p: string): Uint8Array {
  const r = fileReader(p);
  try {
    return r.read(0, r.size).slice();
  } finally {
    r.close();
  }
}

describe("opencode.db with its -wal file", () => {
  it("recognises a WAL-mode database and a write-ahead log by their headers", () => {
    const db = readAll(path("opencode.db"));
    const wal = readAll(path("opencode.db-wal"));
    expect(isWalMode(db.subarray(0, 100))).toBe(true);
    expect(isWalFile(wal.subarray(0, 4))).toBe(true);
    expect(isWalFile(db.subarray(0, 4))).toBe(false);
  });

  it("the main file alone lacks the session that is only in the log", async () => {
    expect(await titles(bytesReader(readAll(path("opencode.db"))))).not.toContain(WAL_SESSION);
  });

  it("applies the log: the newest session is listed and reads with its messages", async () => {
    const main = bytesReader(readAll(path("opencode.db")));
    const r = withWal(main, bytesReader(readAll(path("opencode.db-wal"))));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.frames).toBeGreaterThan(0);
    const ids = await titles(r.reader);
    expect(ids).toContain(WAL_SESSION);
    expect(ids).toHaveLength(3);
    const handle = openReaderDb(await nodeSqlite(), r.reader);
    try {
      const db = sqlSource(handle.db);
      const schema = detectSchema(db);
      if (!schema.ok) throw new Error(schema.error);
      const summary = listDbSessions(db, schema.value).find((s) => s.sourceID === WAL_SESSION);
      if (!summary) throw new Error("not listed");
      const issues: ImportIssue[] = [];
      const s = readDbSession(db, summary, issues, 1_800_000_000_000);
      expect(issues).toEqual([]);
      const texts = s?.messages.flatMap((m) => m.parts).filter((p): p is TextPart => p.type === "text").map((p) => p.text);
      expect(texts).toEqual(["Retry the forecast fetch once when it times out.", "Done: fetchForecast now retries once after a timeout (walrecovered)."]);
    } finally {
      handle.close();
    }
  });

  it("a damaged frame ends the log there: the cut transaction is not applied, the rest of the file reads", async () => {
    const wal = readAll(path("opencode.db-wal"));
    wal[wal.length - 100] = (wal[wal.length - 100] ?? 0) ^ 0xff;
    const r = withWal(bytesReader(readAll(path("opencode.db"))), bytesReader(wal));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.frames).toBe(0);
    expect(await titles(r.reader)).toHaveLength(2);
  });

  it("refuses a log with a damaged header or one that is not a log, in words", () => {
    const main = bytesReader(readAll(path("opencode.db")));
    const wal = readAll(path("opencode.db-wal"));
    wal[17] = (wal[17] ?? 0) ^ 1;
    expect(withWal(main, bytesReader(wal))).toEqual({ ok: false, error: "The -wal file's header is damaged (checksum)." });
    expect(withWal(main, bytesReader(new TextEncoder().encode("not a log at all, just text......")))).toEqual({ ok: false, error: "The -wal file is not a SQLite write-ahead log." });
  });

  it("says what to do when a WAL-mode database comes without its log, and what was applied when it came with one", async () => {
    const main = bytesReader(readAll(path("opencode.db")));
    const alone = readWithLog(main, undefined);
    expect(alone.notes).toHaveLength(1);
    expect(alone.notes[0]).toMatch(/WAL mode.*opencode\.db-wal.*quit OpenCode.*PRAGMA wal_checkpoint/);
    const both = readWithLog(main, bytesReader(readAll(path("opencode.db-wal"))));
    expect(both.notes[0]).toMatch(/^Read together with its -wal file \(\d+ pages of recent changes applied\)\.$/);
    expect(await titles(both.reader)).toContain(WAL_SESSION);
    const broken = readWithLog(main, bytesReader(new TextEncoder().encode("x".repeat(64))));
    expect(broken.notes).toEqual(["The -wal file is not a SQLite write-ahead log. It was not applied: sessions written only to it are not listed."]);
    expect(await titles(broken.reader)).toHaveLength(2);
  });
});
