import { describe, expect, it } from "vitest";
import type { DbSessionSummary } from "../core/import";
import { chunkSessions } from "./history-import";

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
