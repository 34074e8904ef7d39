import { IDBFactory, IDBKeyRange } from "fake-indexeddb";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { PartDelta } from "../../core/ports/store";
import type { TextPart } from "../../core/schema";
import { createDatabase, type TabcodeDB } from "./db";
import { DexieStore } from "./dexie-store";
import { assistantMessage, makeSession, textPart } from "./test-fixtures";

async function setup(): Promise<{ db: TabcodeDB; store: DexieStore; part: TextPart; delta: (d: string) => PartDelta }> {
  const db = createDatabase({ indexedDB: new IDBFactory(), IDBKeyRange });
  const warn = vi.fn();
  const store = new DexieStore(db, { warn });
  const s = makeSession();
  const a = assistantMessage(s.id, "msg_parent");
  const part = textPart(a, "");
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

describe("DexieStore delta batching", () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it("writes many deltas with one write on flush()", async () => {
    const { db, store, part, delta } = await setup();
    const bulkPut = vi.spyOn(db.parts, "bulkPut");
    for (let i = 0; i < 500; i++) store.appendDelta(delta(`${i % 10}`));
    expect(await storedText(db, part.id)).toBe("");
    await store.flush();
    expect(bulkPut).toHaveBeenCalledTimes(1);
    expect(await storedText(db, part.id)).toBe("0123456789".repeat(50));
    expect(store.pendingText(part.id)).toBeUndefined();
  });

  it("ignores empty deltas and flushes nothing when nothing is pending", async () => {
    const { db, store, part, delta } = await setup();
    const bulkPut = vi.spyOn(db.parts, "bulkPut");
    store.appendDelta(delta(""));
    expect(store.pendingText(part.id)).toBeUndefined();
    await store.flush();
    expect(bulkPut).not.toHaveBeenCalled();
  });

  describe("timer", () => {
    beforeEach(() => {
      // Only timers: fake-indexeddb schedules its own work with setImmediate.
      vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    });

    it("writes at most every 250 ms, started by the first pending delta", async () => {
      const { db, store, part, delta } = await setup();
      const bulkPut = vi.spyOn(db.parts, "bulkPut");
      store.appendDelta(delta("a"));
      vi.advanceTimersByTime(100);
      store.appendDelta(delta("b"));
      vi.advanceTimersByTime(100);
      store.appendDelta(delta("c"));
      vi.advanceTimersByTime(49);
      expect(bulkPut).not.toHaveBeenCalled();
      vi.advanceTimersByTime(1);
      await vi.waitFor(() => expect(bulkPut).toHaveBeenCalledTimes(1));
      await vi.waitFor(async () => expect(await storedText(db, part.id)).toBe("abc"));

      store.appendDelta(delta("d"));
      vi.advanceTimersByTime(249);
      expect(bulkPut).toHaveBeenCalledTimes(1);
      vi.advanceTimersByTime(1);
      await vi.waitFor(async () => expect(await storedText(db, part.id)).toBe("abcd"));
      expect(bulkPut).toHaveBeenCalledTimes(2);
    });

    it("flush() on demand cancels the pending timer", async () => {
      const { db, store, part, delta } = await setup();
      const bulkPut = vi.spyOn(db.parts, "bulkPut");
      store.appendDelta(delta("x"));
      await store.flush();
      vi.advanceTimersByTime(1000);
      await store.flush();
      expect(bulkPut).toHaveBeenCalledTimes(1);
      expect(await storedText(db, part.id)).toBe("x");
    });
  });

  it("shows pending text until it is committed", async () => {
    const { store, part, delta } = await setup();
    store.appendDelta(delta("Hel"));
    store.appendDelta(delta("lo"));
    expect(store.pendingText(part.id)).toBe("Hello");
    const flushed = store.flush();
    // Still visible while the write is in flight.
    expect(store.pendingText(part.id)).toBe("Hello");
    store.appendDelta(delta("!"));
    expect(store.pendingText(part.id)).toBe("Hello!");
    await flushed;
    expect(store.pendingText(part.id)).toBe("!");
    await store.flush();
    expect(store.pendingText(part.id)).toBeUndefined();
  });

  it("upsertPart of a part with pending deltas writes them first, in order", async () => {
    const { db, store, part, delta } = await setup();
    store.appendDelta(delta("a"));
    const flushed = store.flush(); // in flight
    store.appendDelta(delta("b")); // pending
    const put = store.upsertPart({ ...part, text: "ab", metadata: { done: true } });
    store.appendDelta(delta("c")); // after the upsert
    await Promise.all([flushed, put]);
    expect(await db.parts.get(part.id)).toEqual({ ...part, text: "ab", metadata: { done: true } });
    await store.flush();
    expect(await storedText(db, part.id)).toBe("abc");
  });

  it("drops pending deltas of a deleted session", async () => {
    const { db, store, part, delta } = await setup();
    store.appendDelta(delta("lost"));
    await store.deleteSession(part.sessionID);
    expect(store.pendingText(part.id)).toBeUndefined();
    await store.flush();
    expect(await db.parts.count()).toBe(0);
  });

  it("warns and drops deltas for a part that was never written", async () => {
    const db = createDatabase({ indexedDB: new IDBFactory(), IDBKeyRange });
    const warn = vi.fn();
    const store = new DexieStore(db, { warn });
    store.appendDelta({ sessionID: "ses_x", messageID: "msg_x", partID: "prt_x", field: "text", delta: "hi" });
    await store.flush();
    expect(warn).toHaveBeenCalledWith(expect.stringContaining("prt_x"));
    expect(store.pendingText("prt_x")).toBeUndefined();
  });
});
