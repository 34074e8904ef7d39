import { IDBFactory, IDBKeyRange } from "fake-indexeddb";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { MessageWithParts } from "../../core/schema";
import { createDatabase } from "./db";
import { DexieStore } from "./dexie-store";
import { conversation, makeSession, textPart, userMessage } from "./test-fixtures";

function setup() {
  const db = createDatabase({ indexedDB: new IDBFactory(), IDBKeyRange });
  return { db, store: new DexieStore(db, { warn: vi.fn() }) };
}

describe("DexieStore transactions and queries", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("deleteSession is one transaction: a failure at the last step keeps everything", async () => {
    const { db, store } = setup();
    const s = makeSession();
    const convo = conversation(s.id);
    await store.importSession(s, convo);
    vi.spyOn(db.sessions, "delete").mockImplementation(() => {
      throw new Error("disk error");
    });
    await expect(store.deleteSession(s.id)).rejects.toThrow("disk error");
    vi.restoreAllMocks();
    expect(await store.getSession(s.id)).toEqual(s);
    expect(await store.messages(s.id)).toEqual(convo);
  });

  it("onSessionsChanged reports session writes (not message writes) until unsubscribed", async () => {
    const { store } = setup();
    const calls: number[] = [];
    const off = store.onSessionsChanged(() => calls.push(Date.now()));
    const s = makeSession();
    await store.createSession(s);
    await new Promise((r) => setTimeout(r, 20));
    expect(calls.length).toBeGreaterThan(0);
    const seen = calls.length;
    await store.upsertMessage(userMessage(s.id));
    await new Promise((r) => setTimeout(r, 20));
    expect(calls.length).toBe(seen);
    off();
    await store.updateSession(s.id, (x) => ({ ...x, title: "Renamed" }));
    await new Promise((r) => setTimeout(r, 20));
    expect(calls.length).toBe(seen);
  });

  it("updateSession leaves the row unchanged when the patch throws", async () => {
    const { store } = setup();
    const s = makeSession();
    await store.createSession(s);
    await expect(
      store.updateSession(s.id, () => {
        throw new Error("bad patch");
      }),
    ).rejects.toThrow("bad patch");
    expect(await store.getSession(s.id)).toEqual(s);
  });

  it("loads a session's parts with one query, not one per message", async () => {
    const { db, store } = setup();
    const s = makeSession();
    const convo: MessageWithParts[] = [];
    for (let i = 0; i < 20; i++) {
      const m = userMessage(s.id);
      convo.push({ info: m, parts: [textPart(m, `a${i}`), textPart(m, `b${i}`)] });
    }
    await store.importSession(s, convo);
    const where = vi.spyOn(db.parts, "where");
    const get = vi.spyOn(db.parts, "get");
    expect(await store.messages(s.id)).toEqual(convo);
    expect(where).toHaveBeenCalledTimes(1);
    expect(where).toHaveBeenCalledWith("sessionID");
    expect(get).not.toHaveBeenCalled();
  });

  it("ignores parts whose message is gone", async () => {
    const { db, store } = setup();
    const s = makeSession();
    const convo = conversation(s.id);
    await store.importSession(s, convo);
    const orphan = textPart({ id: "msg_gone", sessionID: s.id }, "orphan");
    await db.parts.put(orphan);
    expect(await store.messages(s.id)).toEqual(convo);
    expect(store.corrupt()).toEqual([]);
  });
});
