import { IDBFactory, IDBKeyRange } from "fake-indexeddb";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { PartDelta } from "../../core/ports/store";
import { createDatabase, type TabcodeDB } from "./db";
import { JOURNAL_DELAY_MS, recoverJournal } from "./delta-journal";
import { DexieStore } from "./dexie-store";
import { assistantMessage, makeSession, textPart } from "./test-fixtures";

async function setup(owner = "tab-a") {
  const db = createDatabase({ indexedDB: new IDBFactory(), IDBKeyRange });
  const store = new DexieStore(db, { warn: vi.fn(), owner });
  const s = makeSession();
  const a = assistantMessage(s.id, "msg_parent");
  const part = textPart(a, "Hello");
  await store.createSession(s);
  await store.upsertMessage(a);
  await store.upsertPart(part);
  const delta = (d: string): PartDelta => ({ sessionID: s.id, messageID: a.id, partID: part.id, field: "text", delta: d });
  return { db, store, part, delta };
}

async function storedText(db: TabcodeDB, id: string): Promise<string | undefined> {
  const row = await db.parts.get(id);
  return row && "text" in row ? row.text : undefined;
}

describe("the journal of streamed text", () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it(`journals the first delta at once, then at most every ${JOURNAL_DELAY_MS} ms, and merges at the batch cadence without leaving rows`, async () => {
    const { db, store, part, delta } = await setup();
    const now = vi.spyOn(Date, "now");
    let t = 1_000_000;
    now.mockImplementation(() => t);
    store.appendDelta(delta(", "));
    await vi.waitFor(async () => expect(await db.deltas.count()).toBe(1));
    t += 10;
    store.appendDelta(delta("wor"));
    t += 10;
    store.appendDelta(delta("ld"));
    expect(store.writes.journal).toBe(1);
    vi.advanceTimersByTime(JOURNAL_DELAY_MS - 10 - 1);
    expect(store.writes.journal).toBe(1);
    vi.advanceTimersByTime(1);
    expect(store.writes.journal).toBe(2);
    // The two deltas that waited are one row (a part's consecutive deltas are joined before a write).
    await vi.waitFor(async () => expect((await db.deltas.orderBy("seq").toArray()).map((r) => r.text)).toEqual([", ", "world"]));
    // Not yet in the part: that is the batch's own (rarer) write.
    expect(await storedText(db, part.id)).toBe("Hello");
    t += 100;
    store.appendDelta(delta("!"));
    expect(store.writes.journal).toBe(3);
    vi.advanceTimersByTime(250);
    await vi.waitFor(async () => expect(await storedText(db, part.id)).toBe("Hello, world!"));
    await vi.waitFor(async () => expect(await db.deltas.count()).toBe(0));
    expect(store.writes).toEqual({ journal: 3, merge: 1 });
    now.mockRestore();
  });

  it("a tab killed before the merge: the next start puts the journaled text into the part, once", async () => {
    const { db, store, part, delta } = await setup("dead-tab");
    store.appendDelta(delta(" there"));
    store.appendDelta(delta(", friend"));
    vi.advanceTimersByTime(JOURNAL_DELAY_MS);
    await vi.waitFor(async () => expect(await db.deltas.count()).toBe(2));
    // The tab dies here: no merge, no pagehide. Another start on the same database:
    const next = new DexieStore(db, { warn: vi.fn(), owner: "new-tab" });
    expect(await next.recoverJournal()).toBe(2);
    expect(await storedText(db, part.id)).toBe("Hello there, friend");
    expect(await db.deltas.count()).toBe(0);
    expect((await db.terms.get(part.id))?.words).toEqual(expect.arrayContaining(["friend"]));
    expect(await next.recoverJournal()).toBe(0);
    expect(await storedText(db, part.id)).toBe("Hello there, friend");
  });

  it("rows of a tab that is still alive are left to it", async () => {
    const { db, store, part, delta } = await setup("alive-tab");
    store.appendDelta(delta(" still streaming"));
    vi.advanceTimersByTime(JOURNAL_DELAY_MS);
    await vi.waitFor(async () => expect(await db.deltas.count()).toBe(1));
    expect(await recoverJournal(db, new Set(["alive-tab"]))).toBe(0);
    await store.flush();
    expect(await storedText(db, part.id)).toBe("Hello still streaming");
    expect(await db.deltas.count()).toBe(0);
  });

  it("deltas after a journal write but before the merge go into the merge directly, never twice", async () => {
    const { db, store, part, delta } = await setup();
    store.appendDelta(delta(" one"));
    vi.advanceTimersByTime(JOURNAL_DELAY_MS);
    await vi.waitFor(async () => expect(await db.deltas.count()).toBe(1));
    store.appendDelta(delta(" two"));
    await store.flush();
    vi.advanceTimersByTime(1000);
    await store.flush();
    expect(await storedText(db, part.id)).toBe("Hello one two");
    expect(await db.deltas.count()).toBe(0);
    // Nothing is left to recover either.
    expect(await recoverJournal(db, new Set())).toBe(0);
  });

  it("journal rows of a part that no longer exists are dropped on recovery", async () => {
    const { db, part } = await setup();
    await db.deltas.add({ owner: "gone", batch: 1, sessionID: part.sessionID, messageID: part.messageID, partID: "prt_missing", text: " lost" });
    expect(await recoverJournal(db, new Set())).toBe(1);
    expect(await db.deltas.count()).toBe(0);
  });
});
