import { IDBFactory, IDBKeyRange } from "fake-indexeddb";
import { describe, expect, it, vi } from "vitest";
import { createDatabase } from "./db";
import { DexieStore } from "./dexie-store";
import { conversation, makeSession, textPart } from "./test-fixtures";

async function setup() {
  const db = createDatabase({ indexedDB: new IDBFactory(), IDBKeyRange });
  const warn = vi.fn();
  const store = new DexieStore(db, { warn });
  return { db, store, warn };
}

describe("DexieStore validation on read", () => {
  it("skips a corrupt session row, reports it, and still lists the others", async () => {
    const { db, store, warn } = await setup();
    const good1 = makeSession({}, 1000);
    const good2 = makeSession({}, 2000);
    const bad = makeSession({}, 3000);
    await store.importSession(good1, conversation(good1.id));
    await store.createSession(good2);
    await store.importSession(bad, conversation(bad.id));
    await db.table("sessions").put({ ...bad, title: 42 });

    expect((await store.listSessions()).map((s) => s.id)).toEqual([good2.id, good1.id]);
    expect(store.corrupt()).toEqual([
      { table: "sessions", id: bad.id, sessionID: bad.id, issue: "title: Invalid input: expected string, received number" },
    ]);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]?.[0]).toContain(bad.id);

    // Its messages are not shown; the session reads as missing.
    expect(await store.messages(bad.id)).toEqual([]);
    expect(await store.getSession(bad.id)).toBeUndefined();
    expect(await store.updateSession(bad.id, (s) => s)).toBeUndefined();
    // Reading again reports nothing new.
    await store.listSessions();
    expect(warn).toHaveBeenCalledTimes(1);
    expect(await store.messages(good1.id)).toHaveLength(2);
  });

  it("still finds a session row missing the indexed time.updated", async () => {
    const { db, store } = await setup();
    const good = makeSession();
    const bad = makeSession();
    await store.createSession(good);
    await db.table("sessions").put({ ...bad, time: { created: 1 } });
    expect((await store.listSessions()).map((s) => s.id)).toEqual([good.id]);
    expect(store.corrupt().map((r) => [r.table, r.id])).toEqual([["sessions", bad.id]]);
  });

  it("skips a corrupt part and a corrupt message, keeping the rest of the session", async () => {
    const { db, store } = await setup();
    const s = makeSession();
    const convo = conversation(s.id);
    await store.importSession(s, convo);
    const [user, assistant] = convo;
    if (!user || !assistant) throw new Error("fixture");
    const broken = textPart(assistant.info, "x");
    // A part with missing fields, and a message with an unknown role.
    await db.table("parts").put({ id: broken.id, sessionID: s.id, messageID: assistant.info.id, type: "text" });
    await db.table("messages").put({ ...user.info, role: "robot" });

    const msgs = await store.messages(s.id);
    expect(msgs).toEqual([assistant]);
    const corrupt = store.corrupt();
    expect(corrupt).toHaveLength(2);
    const part = corrupt.find((r) => r.table === "parts");
    expect(part).toMatchObject({ id: broken.id, sessionID: s.id });
    expect(part?.issue).toMatch(/text/);
    expect(corrupt.find((r) => r.table === "messages")).toMatchObject({ id: user.info.id, sessionID: s.id });
    expect(await store.getMessage(user.info.id)).toBeUndefined();
  });

  it("forgets corrupt records of a deleted session", async () => {
    const { db, store } = await setup();
    const bad = makeSession();
    await db.table("sessions").put({ ...bad, cost: "free" });
    await store.listSessions();
    expect(store.corrupt()).toHaveLength(1);
    await store.deleteSession(bad.id);
    expect(store.corrupt()).toEqual([]);
    expect(await db.sessions.count()).toBe(0);
  });
});
