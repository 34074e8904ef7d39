import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { DbSessionSummary } from "../core/import";
import type { HistoryDb } from "../adapters/import/db-client";
import type { HistorySession } from "../core/import";
import type { ImportRows } from "../core/ports/store";
import { emptyTokens } from "../core/schema";
import { MemoryStore } from "../testing/memory-store";
import type { AppServices } from "./bootstrap";
import { serializeExport } from "../core/export/json";
import { sampleSession } from "../core/export/test-helpers";
import { chunkSessions, importDatabase, importTextFiles, splitDrop } from "./history-import";

const s = (id: string, records: number, parentID?: string): DbSessionSummary => ({ sourceID: id, title: id, created: 0, updated: 0, project: "p", records, table: "session", ...(parentID ? { parentID } : {}) });

describe("chunks of a database import", () => {
  it("puts parents before children and cuts chunks by record budget; a big session is a chunk of its own", () => {
    const chunks = chunkSessions([s("child", 10, "a"), s("a", 1000), s("b", 1500), s("huge", 9000), s("c", 100)], 2000);
    expect(chunks.map((c) => c.map((x) => x.sourceID))).toEqual([["a"], ["b"], ["huge"], ["c", "child"]]);
  });

  it("caps the number of sessions per chunk", () => {
    const many = Array.from({ length: 7 }, (_, i) => s(`s${i}`, 1));
    expect(chunkSessions(many, 3000, 3).map((c) => c.length)).toEqual([3, 3, 1]);
  });
});

describe("splitting a drop", () => {
  const fixture = (name: string) => new File([readFileSync(new URL(`../core/import/__fixtures__/opencode-wal/${name}`, import.meta.url))], name);

  it("pairs opencode.db with the opencode.db-wal dropped beside it; -shm and other files are not databases", async () => {
    const files = [
      { path: "opencode/opencode.db", file: fixture("opencode.db") },
      { path: "opencode/opencode.db-wal", file: fixture("opencode.db-wal") },
      { path: "opencode/opencode.db-shm", file: new File([new Uint8Array(32)], "opencode.db-shm") },
      { path: "opencode/notes.jsonl", file: new File(["{}"], "notes.jsonl") },
    ];
    const { databases, texts } = await splitDrop(files);
    expect(databases.map((d) => [d.path, d.wal?.path])).toEqual([["opencode/opencode.db", "opencode/opencode.db-wal"]]);
    expect(texts.map((t) => t.path)).toEqual(["opencode/notes.jsonl"]);
  });

  it("a log whose name matches no database is paired only when it is the one log beside the one database", async () => {
    const renamed = await splitDrop([
      { path: "copy.db", file: fixture("opencode.db") },
      { path: "opencode.db-wal", file: fixture("opencode.db-wal") },
    ]);
    expect(renamed.databases[0]?.wal?.path).toBe("opencode.db-wal");
    const two = await splitDrop([
      { path: "a.db", file: fixture("opencode.db") },
      { path: "b.db", file: fixture("opencode.db") },
      { path: "c.db-wal", file: fixture("opencode.db-wal") },
    ]);
    expect(two.databases.map((d) => d.wal)).toEqual([undefined, undefined]);
  });
});

describe("importing a database", () => {
  const many = Array.from({ length: 75 }, (_, i) => s(`ses_${String(i).padStart(3, "0")}`, 1));
  const mapped = (id: string): HistorySession => ({
    info: { id: `ses_x${id}`, title: id, directory: "/workspace", version: "t", time: { created: 1, updated: 1 }, tokens: emptyTokens(), cost: 0, source: { tool: "opencode", id, updated: 1, importedAt: 1 } },
    messages: [],
  });

  function setup(failAt?: number) {
    const log: string[] = [];
    const store = new MemoryStore();
    const write = store.importSessions.bind(store);
    store.importSessions = async (rows: ImportRows[]) => {
      log.push(`write ${rows.length}`);
      await new Promise((r) => setTimeout(r, 1));
      return write(rows);
    };
    let n = 0;
    const db: HistoryDb = {
      sessions: many,
      schema: "test",
      ms: 0,
      notes: [],
      async read(chunk) {
        const i = n++;
        log.push(`read ${i}`);
        if (i === failAt) throw new Error("The database is damaged (SQLite reports it as malformed).");
        return { sessions: chunk.map((c) => mapped(c.sourceID)), issues: [] };
      },
      close: () => undefined,
    };
    return { log, db, app: { store } as unknown as AppServices };
  }

  it("asks the Worker for the next chunk before writing the current one; every session is written once", async () => {
    const { log, db, app } = setup();
    const out = await importDatabase(app, db, many);
    expect(out).toMatchObject({ created: 75, cancelled: false });
    expect(log.slice(0, 4)).toEqual(["read 0", "read 1", "write 10", "read 2"]);
    expect(log.filter((l) => l.startsWith("write"))).toHaveLength(8);
    expect(log.filter((l) => l.startsWith("read"))).toHaveLength(8);
  });

  it("a failed read stops with its reason; what was written before stays", async () => {
    const { db, app } = setup(1);
    const out = await importDatabase(app, db, many);
    expect(out.created).toBe(10);
    expect(out.error).toBe("The database is damaged (SQLite reports it as malformed).");
  });

  it("cancelling stops between chunks", async () => {
    const { db, app } = setup();
    const abort = new AbortController();
    const out = await importDatabase(app, db, many, { signal: abort.signal, onProgress: (p) => p.done > 0 && abort.abort() });
    expect(out).toMatchObject({ created: 10, cancelled: true });
  });
});

describe("importing an export through Import history", () => {
  it("counts the sessions that came in as copies (their ids were already here), as the Import button says", async () => {
    const app = { store: new MemoryStore() } as unknown as AppServices;
    const { session, messages } = sampleSession();
    const text = serializeExport({ format: "tabcode-session", version: 1, exportedAt: 1, info: session, messages });
    const drop = () => [{ path: "mine.json", file: new File([text], "mine.json") }];
    expect(await importTextFiles(app, drop())).toMatchObject({ created: 1, copied: 0 });
    expect(await importTextFiles(app, drop())).toMatchObject({ created: 1, copied: 1 });
  });
});
