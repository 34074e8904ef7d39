import { IDBFactory, IDBKeyRange } from "fake-indexeddb";
import { describe, expect, it, vi } from "vitest";
import type { MessageWithParts, Session } from "../../core/schema";
import { createDatabase, type TabcodeDB } from "./db";
import { DexieStore } from "./dexie-store";
import type { MessagesSnapshot } from "./live-messages";
import { assistantMessage, conversation, makeSession, textPart, userMessage } from "./test-fixtures";

function open(factory = new IDBFactory(), name = `live-${Math.random()}`): { db: TabcodeDB; store: DexieStore; factory: IDBFactory; name: string } {
  const db = createDatabase({ name, indexedDB: factory, IDBKeyRange });
  return { db, store: new DexieStore(db, { warn: vi.fn(), journalDelayMs: 0 }), factory, name };
}

/** Watches a session and records every snapshot published. */
function watch(store: DexieStore, sessionID: string) {
  const seen: MessagesSnapshot[] = [];
  const stop = store.watchMessages(sessionID, () => {
    const s = store.messagesSnapshot(sessionID);
    if (s) seen.push(s);
  });
  const until = (ok: (s: MessagesSnapshot) => boolean) =>
    vi.waitFor(() => {
      const s = store.messagesSnapshot(sessionID);
      if (!s || !ok(s)) throw new Error("not yet");
      return s;
    });
  return { seen, stop, until };
}

async function seeded(turns: number, over: Partial<Session> = {}) {
  const t = open();
  const s = makeSession(over);
  await t.store.createSession(s);
  const all: MessageWithParts[] = [];
  for (let i = 0; i < turns; i++) all.push(...conversation(s.id));
  await t.store.importSession(s, all);
  return { ...t, session: s, all };
}

/** Runs `f` with `Date.now()` a second and a moment ahead (a matching check of the live copy is no longer fresh). */
async function aSecondLater<T>(f: () => Promise<T>): Promise<T> {
  const later = Date.now() + 1_001;
  const clock = vi.spyOn(Date, "now").mockImplementation(() => later);
  try {
    return await f();
  } finally {
    clock.mockRestore();
  }
}

/** A seeded session watched (and fully read) in tab `a`, and tab `b` on the same database. */
async function twoTabs(turns: number) {
  const a = await seeded(turns);
  const b = open(a.factory, a.name);
  const w = watch(a.store, a.session.id);
  await w.until((s) => s.complete);
  return { a, b, w };
}

const texts = (s: MessagesSnapshot) => s.messages.flatMap((m) => m.parts.flatMap((p) => (p.type === "text" ? [p.text] : [])));

describe("DexieStore.watchMessages (the UI's in-memory sessions)", () => {
  it("a message added with its parts is published once, whole", async () => {
    const { store, session } = await seeded(1);
    const w = watch(store, session.id);
    await w.until((s) => s.complete && s.messages.length === 2);
    const before = w.seen.length;
    const u = userMessage(session.id);
    await store.addMessage(u, [textPart(u, "the prompt"), textPart(u, "an attachment")], (x) => x);
    expect(w.seen.length - before).toBe(1);
    expect(w.seen.at(-1)?.messages.at(-1)?.parts.map((p) => (p.type === "text" ? p.text : p.type))).toEqual(["the prompt", "an attachment"]);
    w.stop();
  });

  it("reads the session once and then answers writes without reading it again", async () => {
    const { db, store, session, all } = await seeded(3);
    const w = watch(store, session.id);
    const first = await w.until((s) => s.complete && s.messages.length === 6);
    expect(first.messages.map((m) => m.info.id)).toEqual(all.map((m) => m.info.id));

    const whole = vi.spyOn(db.parts, "where");
    const last = all[5];
    if (!last) throw new Error("no last message");
    await store.upsertPart(textPart(last.info, "a new paragraph"));
    const next = await w.until((s) => texts(s).includes("a new paragraph"));
    expect(whole).not.toHaveBeenCalled();
    // Only the message that changed is a new object: the others keep their identity (their views do not re-render).
    expect(next.messages.slice(0, 5)).toEqual(first.messages.slice(0, 5));
    for (const [i, m] of next.messages.slice(0, 5).entries()) expect(m).toBe(first.messages[i]);
    expect(next.messages[5]).not.toBe(first.messages[5]);
    w.stop();
  });

  it("a session read ahead (the one a link opens) is there for its first watcher, without a second read", async () => {
    const { db, store, session, all } = await seeded(3);
    const reads = vi.spyOn(db.messages, "where");
    store.prefetchMessages(session.id);
    await vi.waitFor(() => expect(store.messagesSnapshot(session.id)?.complete).toBe(true));
    const calls = reads.mock.calls.length;
    expect(calls).toBeGreaterThan(0);
    const w = watch(store, session.id);
    expect(store.messagesSnapshot(session.id)?.messages.map((m) => m.info.id)).toEqual(all.map((m) => m.info.id));
    expect(reads.mock.calls.length).toBe(calls);
    w.stop();
  });

  it("paints the newest messages of a long session first, then fills in the rest", async () => {
    const { store, session } = await seeded(40); // 80 messages, tail 40
    const w = watch(store, session.id);
    const full = await w.until((s) => s.complete);
    expect(full.messages).toHaveLength(80);
    const partial = w.seen.find((s) => !s.complete);
    expect(partial?.messages).toHaveLength(40);
    expect(partial?.messages.map((m) => m.info.id)).toEqual(full.messages.slice(40).map((m) => m.info.id));
    // The partial messages come with all their parts.
    expect(partial?.messages.map((m) => m.parts.length)).toEqual(full.messages.slice(40).map((m) => m.parts.length));
  });

  it("waits for the whole session when it has branches or a revert (what is shown needs every message)", async () => {
    const { store, session, all } = await seeded(40, { branches: { root: "x" } });
    const w = watch(store, session.id);
    await w.until((s) => s.complete);
    expect(w.seen.every((s) => s.complete)).toBe(true);
    expect(store.messagesSnapshot(session.id)?.messages).toHaveLength(all.length);
  });

  it("keeps writes made while the first read is under way", async () => {
    const { store, session, all } = await seeded(30);
    const last = all[all.length - 1];
    if (!last) throw new Error("no last message");
    const w = watch(store, session.id);
    await store.upsertPart(textPart(last.info, "written during the read"));
    const s = await w.until((x) => x.complete);
    expect(texts(s)).toContain("written during the read");
  });

  it("merges streamed text as it is flushed, and shows parts written before their message once it is", async () => {
    const { store, session } = await seeded(1);
    const w = watch(store, session.id);
    await w.until((s) => s.complete);
    // A prompt writes its text part before the message.
    const u = userMessage(session.id);
    await store.upsertPart(textPart(u, "the question"));
    expect(texts(store.messagesSnapshot(session.id) ?? { messages: [], complete: true })).not.toContain("the question");
    await store.upsertMessage(u);
    await w.until((s) => texts(s).includes("the question"));
    const a = assistantMessage(session.id, u.id);
    const p = textPart(a, "");
    await store.upsertMessage(a);
    await store.upsertPart(p);
    for (const d of ["Hel", "lo ", "there"]) store.appendDelta({ sessionID: session.id, messageID: a.id, partID: p.id, field: "text", delta: d });
    await store.flush();
    await w.until((s) => texts(s).includes("Hello there"));
  });

  it("follows deletes, a deleted session and an import that replaces a session", async () => {
    const { store, session, all } = await seeded(2);
    const w = watch(store, session.id);
    await w.until((s) => s.complete && s.messages.length === 4);
    const [first] = all;
    if (!first) throw new Error("no message");
    await store.deleteMessages(session.id, [first.info.id]);
    await w.until((s) => s.messages.length === 3);
    await store.importSession(session, conversation(session.id));
    await w.until((s) => s.messages.length === 5);
    await store.deleteSession(session.id);
    await w.until((s) => s.messages.length === 0);
  });

  it("sees what another tab writes to the same database, reading only what it names", async () => {
    const { a, b, w } = await twoTabs(2);
    const last = a.all[a.all.length - 1];
    if (!last) throw new Error("no last message");
    const whole = vi.spyOn(a.db.parts, "where");
    await b.store.upsertPart(textPart(last.info, "from the other tab"));
    await w.until((s) => texts(s).includes("from the other tab"));
    const u = userMessage(a.session.id);
    await b.store.upsertPart(textPart(u, "a prompt from the other tab"));
    await b.store.upsertMessage(u);
    await w.until((s) => texts(s).includes("a prompt from the other tab"));
    expect(whole).not.toHaveBeenCalled();
  });

  it("shows no messages for a session whose stored record is damaged, as messages() does", async () => {
    const { db, store, session } = await seeded(1);
    await db.sessions.put({ ...session, title: 42 } as unknown as Session);
    const w = watch(store, session.id);
    const s = await w.until((x) => x.complete);
    expect(s.messages).toEqual([]);
    expect(await store.messages(session.id)).toEqual([]);
  });
});

describe("DexieStore.sessionAsRead (the session row read with the newest messages)", () => {
  it("gives the row the first read brought, so a view need not read it again; nothing before that read", async () => {
    const { store, session } = await seeded(30);
    expect(store.sessionAsRead(session.id)).toBeUndefined();
    const w = watch(store, session.id);
    await w.until((s) => s.messages.length > 0);
    expect(store.sessionAsRead(session.id)).toEqual(session);
    expect(store.sessionAsRead("ses_never_read")).toBeUndefined();
    w.stop();
  });

  it("is gone once this tab writes the row, once two seconds have passed, and once another tab names the session", async () => {
    const renamed = await seeded(3);
    const w1 = watch(renamed.store, renamed.session.id);
    await w1.until((s) => s.complete);
    await renamed.store.updateSession(renamed.session.id, (x) => ({ ...x, title: "Renamed" }));
    expect(renamed.store.sessionAsRead(renamed.session.id)).toBeUndefined();

    const prompted = await seeded(3);
    const w2 = watch(prompted.store, prompted.session.id);
    await w2.until((s) => s.complete);
    const u = userMessage(prompted.session.id);
    await prompted.store.addMessage(u, [textPart(u, "next")], (x) => ({ ...x, time: { ...x.time, updated: x.time.updated + 1 } }));
    expect(prompted.store.sessionAsRead(prompted.session.id)).toBeUndefined();

    const old = await seeded(3);
    const w3 = watch(old.store, old.session.id);
    await w3.until((s) => s.complete);
    const later = Date.now() + 2_001;
    const clock = vi.spyOn(Date, "now").mockImplementation(() => later);
    try {
      expect(old.store.sessionAsRead(old.session.id)).toBeUndefined();
    } finally {
      clock.mockRestore();
    }
    expect(old.store.sessionAsRead(old.session.id)).toEqual(old.session);

    const { a, b, w } = await twoTabs(2);
    expect(a.store.sessionAsRead(a.session.id)).toEqual(a.session);
    const v = userMessage(a.session.id);
    await b.store.upsertPart(textPart(v, "from the other tab"));
    await b.store.upsertMessage(v);
    await w.until((s) => texts(s).includes("from the other tab"));
    expect(a.store.sessionAsRead(a.session.id)).toBeUndefined();
    for (const x of [w1, w2, w3, w]) x.stop();
  });

  it("never gives a row older than a write this tab made while the first read was under way", async () => {
    const { store, session } = await seeded(30);
    const w = watch(store, session.id);
    const renamed = store.updateSession(session.id, (x) => ({ ...x, title: "Renamed meanwhile" }));
    await w.until((s) => s.complete);
    await renamed;
    expect(store.sessionAsRead(session.id)?.title ?? "Renamed meanwhile").toBe("Renamed meanwhile");
    w.stop();
  });

  it("comes back with the next read after an import replaces the session", async () => {
    const { store, session, all } = await seeded(3);
    const w = watch(store, session.id);
    await w.until((s) => s.complete);
    const replaced = { ...session, title: "Imported again" };
    await store.importSession(replaced, all);
    await vi.waitFor(() => expect(store.sessionAsRead(session.id)?.title).toBe("Imported again"));
    w.stop();
  });
});

describe("DexieStore.messages of a session on screen (the run's read without reading it again)", () => {
  it("answers from the watched copy, deep-copied, without reading the parts again", async () => {
    const { db, store, session } = await seeded(3);
    const w = watch(store, session.id);
    const snap = await w.until((s) => s.complete);
    const fromStorage = await store.messages(session.id);
    // Every row read of a query goes through a collection's toArray (key counts do not).
    const rowsRead = vi.spyOn(Object.getPrototypeOf(db.parts.toCollection()) as { toArray(): unknown }, "toArray");
    const copy = await store.messages(session.id);
    expect(await store.messageInfos(session.id)).toEqual(fromStorage.map((m) => m.info));
    expect(rowsRead).not.toHaveBeenCalled();
    expect(copy).toEqual(fromStorage);
    // The caller owns the copy: changing it changes nothing on screen.
    const first = copy[0]?.parts[0];
    if (first?.type !== "text") throw new Error("no text part");
    first.text = "changed by the caller";
    expect(texts(store.messagesSnapshot(session.id) ?? snap)).not.toContain("changed by the caller");
    w.stop();
  });

  it("reads storage when another tab added a row whose notice has not arrived, or is still being read", async () => {
    const { a, b, w } = await twoTabs(2);
    // The other tab's prompt is committed; this tab has not been told yet.
    const u = userMessage(a.session.id);
    const bc = BroadcastChannel.prototype.postMessage;
    const held: unknown[] = [];
    const spy = vi.spyOn(BroadcastChannel.prototype, "postMessage").mockImplementation(function (this: BroadcastChannel, m: unknown) {
      held.push([this, m]);
    });
    await b.store.upsertPart(textPart(u, "a prompt from the other tab"));
    await b.store.upsertMessage(u);
    const read = await a.store.messages(a.session.id);
    expect(read.map((m) => m.info.id)).toContain(u.id);
    expect(texts({ messages: read, complete: true })).toContain("a prompt from the other tab");
    spy.mockRestore();
    for (const [ch, m] of held as [BroadcastChannel, unknown][]) bc.call(ch, m);
    await w.until((s) => texts(s).includes("a prompt from the other tab"));
    const again = await a.store.messages(a.session.id);
    expect(again).toEqual(read);
  });

  it("a run that starts while the session's older messages are still loading waits for that read instead of reading it all again", async () => {
    const { store, session, all } = await seeded(30);
    const live = (store as unknown as { live: { readAll(id: string): Promise<unknown> } }).live;
    const fullReads = vi.spyOn(live, "readAll");
    let painted: (s: MessagesSnapshot) => void = () => undefined;
    const firstPaint = new Promise<MessagesSnapshot>((resolve) => {
      painted = resolve;
    });
    const stop = store.watchMessages(session.id, () => {
      const s = store.messagesSnapshot(session.id);
      if (s) painted(s);
    });
    // The newest messages are on screen; the rest is not read yet.
    const first = await firstPaint;
    expect(first.complete).toBe(false);
    expect(first.messages.length).toBeLessThan(all.length);
    const [shared, copy] = await Promise.all([store.sharedMessages(session.id), store.messages(session.id)]);
    expect(shared?.map((m) => m.info.id)).toEqual(all.map((m) => m.info.id));
    expect(copy.map((m) => m.info.id)).toEqual(all.map((m) => m.info.id));
    expect(shared).toBe(store.messagesSnapshot(session.id)?.messages);
    // One read of the whole session: the screen's own.
    expect(fullReads).toHaveBeenCalledTimes(1);
    stop();
  });

  it("reads storage while a session is not watched", async () => {
    const { db, store, session, all } = await seeded(30);
    const rowsRead = vi.spyOn(Object.getPrototypeOf(db.parts.toCollection()) as { toArray(): unknown }, "toArray");
    expect((await store.messages(session.id)).length).toBe(all.length);
    expect(rowsRead).toHaveBeenCalled();
  });

  it("shares the watched copy itself (for a reader that copies what it changes), and nothing for a session not watched or not matching storage", async () => {
    const { db, store, session } = await seeded(3);
    expect(await store.sharedMessages(session.id)).toBeUndefined();
    const w = watch(store, session.id);
    const snap = await w.until((s) => s.complete);
    expect(await store.sharedMessages(session.id)).toBe(snap.messages);
    // The infos a new prompt's place needs are shared too (an info is replaced, never changed).
    expect((await store.messageInfos(session.id))[0]).toBe(snap.messages[0]?.info);
    // A row committed below the live layer (as another tab's write looks before its notice arrives): nothing shared,
    // once the last matching check is more than a moment old (a check a moment ago stands for this tab's own writes).
    await db.messages.put(userMessage(session.id) as never);
    expect(await aSecondLater(() => store.sharedMessages(session.id))).toBeUndefined();
    w.stop();
  });

  it("a check that matched a moment ago stands for this tab's own writes; another tab's notice or a second later means a new one", async () => {
    const { a, b, w } = await twoTabs(3);
    const counts = vi.spyOn(Object.getPrototypeOf(a.db.parts.toCollection()) as { count(): unknown }, "count");
    await a.store.sharedMessages(a.session.id);
    const checks = () => counts.mock.calls.length / 2; // a check counts the messages and the parts
    expect(checks()).toBe(1);
    // This tab's prompt (the run starts right after it): answered without asking storage again, and it is in the copy.
    const u = userMessage(a.session.id);
    await a.store.addMessage(u, [textPart(u, "my own prompt")]);
    const own = await a.store.sharedMessages(a.session.id);
    expect(own?.map((m) => m.info.id)).toContain(u.id);
    expect(checks()).toBe(1);
    // Another tab's write, once its notice is in: checked again.
    const v = userMessage(a.session.id);
    await b.store.addMessage(v, [textPart(v, "a prompt from the other tab")]);
    await w.until((s) => s.messages.some((m) => m.info.id === v.id));
    expect((await a.store.sharedMessages(a.session.id))?.map((m) => m.info.id)).toContain(v.id);
    expect(checks()).toBe(2);
    expect(await a.store.sharedMessages(a.session.id)).toBeDefined();
    expect(checks()).toBe(2);
    // A second later: checked again, even with nothing new.
    expect(await aSecondLater(() => a.store.sharedMessages(a.session.id))).toBeDefined();
    expect(checks()).toBe(3);
    w.stop();
  });
});

describe("token counts written for a session on screen", () => {
  it("reach the in-memory copy without a new snapshot (nothing shown changes), and the run's copy carries them", async () => {
    const { store, session } = await seeded(2);
    const w = watch(store, session.id);
    const before = await w.until((s) => s.complete);
    const published = w.seen.length;
    const part = before.messages[0]?.parts[0];
    if (!part) throw new Error("no part");
    // Views that size the next request from the counts are told at once for the first slice of counts,
    // then once more for the rest of a burst.
    const version = store.countsVersion();
    const told = vi.fn();
    const stop = store.watchCounts(told);
    await store.saveCounts([{ ...part, tokenCount: { encoding: "o200k_base", count: 5, size: 3 } }]);
    expect(w.seen.length).toBe(published);
    expect(store.messagesSnapshot(session.id)).toBe(before);
    const copy = await store.messages(session.id);
    expect(copy[0]?.parts[0]?.tokenCount?.count).toBe(5);
    expect(store.countsVersion()).toBe(version + 1);
    expect(told).toHaveBeenCalledTimes(1);
    const second = before.messages[1]?.parts[0];
    if (!second) throw new Error("no second part");
    await store.saveCounts([{ ...second, tokenCount: { encoding: "o200k_base", count: 7, size: 3 } }]);
    await store.saveCounts([{ ...part, tokenCount: { encoding: "o200k_base", count: 8, size: 3 } }]);
    expect(told).toHaveBeenCalledTimes(1);
    await vi.waitFor(() => expect(store.countsVersion()).toBe(version + 2));
    expect(told).toHaveBeenCalledTimes(2);
    expect((await store.messages(session.id))[1]?.parts[0]?.tokenCount?.count).toBe(7);
    stop();
    w.stop();
  });
});
