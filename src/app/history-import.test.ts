import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { DbSessionSummary } from "../core/import";
import { chunkSessions, splitDrop } from "./history-import";

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
