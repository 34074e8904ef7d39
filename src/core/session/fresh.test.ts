import { describe, expect, it } from "vitest";
import { MemoryStore } from "../../testing/memory-store";
import { keptTailHistory } from "../compaction/test-fixtures";
import { emptyTokens } from "../schema";
import { startFresh } from "./fresh";

describe("Start fresh from here", () => {
  it("from a turn a summary kept: the brief has that summary's decisions (the summary is read before the turn, though written after it)", async () => {
    const { h, a2, s: summary } = keptTailHistory("## Goal\nDates\n\n## Key Decisions\n- Use dayjs for parsing.\n");
    const store = new MemoryStore();
    await store.importSession({ id: h.sessionID, title: "Dates", directory: "/workspace", version: "0.1.0", time: { created: 1, updated: 1 }, tokens: emptyTokens(), cost: 0 }, h.msgs);
    const fromKept = await startFresh(store, { sessionID: h.sessionID, messageID: a2.info.id, now: 10 });
    expect(fromKept.brief).toContain("## Key decisions\n- Use dayjs for parsing.");
    // From the summary itself: the same decisions; from turn one (before the summary is read): none.
    expect((await startFresh(store, { sessionID: h.sessionID, messageID: summary.info.id, now: 11 })).brief).toContain("- Use dayjs for parsing.");
    expect((await startFresh(store, { sessionID: h.sessionID, messageID: h.msgs[1]?.info.id ?? "", now: 12 })).brief).toContain("## Key decisions\n(none)");
  });
});
