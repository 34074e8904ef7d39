import { IDBFactory, IDBKeyRange, IDBObjectStore } from "fake-indexeddb";
import Dexie from "dexie";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createDatabase } from "./db";
import { DexieStore } from "./dexie-store";
import { isQuotaExceeded, QUOTA_MESSAGE } from "./errors";
import { putSetting } from "./settings";
import { repairSession } from "../../core/session/repair";
import { StorageFullLog } from "./storage-full";
import { assistantMessage, conversation, makeSession, textPart, userMessage } from "./test-fixtures";

const quota = () => new DOMException("The quota has been exceeded.", "QuotaExceededError");

async function setup() {
  const db = createDatabase({ indexedDB: new IDBFactory(), IDBKeyRange });
  const store = new DexieStore(db, { warn: vi.fn() });
  return { db, store };
}

/** Makes the fake IndexedDB refuse writes of rows matching `when`, like a full disk. */
function failWrites(when: (value: unknown) => boolean = () => true): void {
  for (const method of ["put", "add"] as const) {
    const original = IDBObjectStore.prototype[method];
    vi.spyOn(IDBObjectStore.prototype, method).mockImplementation(function (this: IDBObjectStore, value, key) {
      if (when(value)) throw quota();
      return original.call(this, value, key);
    });
  }
}

function isPart(value: unknown): boolean {
  return typeof value === "object" && value !== null && String((value as { id?: unknown }).id).startsWith("prt_");
}

describe("quota errors", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("recognises QuotaExceededError however Dexie wraps it", () => {
    expect(isQuotaExceeded(quota())).toBe(true);
    expect(isQuotaExceeded(new Dexie.AbortError("aborted", quota()))).toBe(true);
    expect(isQuotaExceeded(new Dexie.AbortError("outer", new Dexie.AbortError("inner", quota())))).toBe(true);
    expect(isQuotaExceeded({ name: "BulkError", failures: [new Error("x"), quota()] })).toBe(true);
    expect(isQuotaExceeded({ name: "BulkError", failuresByPos: { 3: quota() } })).toBe(true);
    expect(isQuotaExceeded(new Dexie.ConstraintError("exists"))).toBe(false);
    expect(isQuotaExceeded("QuotaExceededError")).toBe(false);
    // localStorage's refusals: by name in every engine, by the legacy code where the name differs.
    expect(isQuotaExceeded(new DOMException("full", "QuotaExceededError"))).toBe(true);
    expect(isQuotaExceeded(new DOMException("no access", "SecurityError"))).toBe(false);
    expect(isQuotaExceeded({ name: "Error", code: 22 })).toBe(false);
  });

  it("maps a table put throwing QuotaExceededError to QuotaError with advice", async () => {
    const { db, store } = await setup();
    const s = makeSession();
    await store.createSession(s);
    vi.spyOn(db.sessions, "put").mockImplementation(() => {
      throw quota();
    });
    const err = await store.updateSession(s.id, (x) => ({ ...x, title: "new" })).catch((e: unknown) => e);
    expect(err).toMatchObject({ name: "QuotaError", message: QUOTA_MESSAGE });
    expect(QUOTA_MESSAGE).toMatch(/full/);
    expect(QUOTA_MESSAGE).toMatch(/[Ee]xport/);
    expect(QUOTA_MESSAGE).toMatch(/delete old sessions/);
    vi.restoreAllMocks();
    expect((await store.getSession(s.id))?.title).toBe(s.title);
  });

  it("maps IndexedDB-level quota failures on every write path", async () => {
    const { db, store } = await setup();
    const s = makeSession();
    const u = userMessage(s.id);
    await store.createSession(s);
    await store.upsertMessage(u);
    failWrites();
    const attempts: Promise<unknown>[] = [
      store.createSession(makeSession()),
      store.updateSession(s.id, (x) => x),
      store.upsertMessage(u),
      store.upsertPart(textPart(u, "x")),
      store.importSession(makeSession(), conversation("ses_other")),
      putSetting(db, "theme", "dark"),
    ];
    const results = await Promise.allSettled(attempts);
    for (const r of results) {
      expect(r).toMatchObject({ status: "rejected", reason: { name: "QuotaError", message: QUOTA_MESSAGE } });
    }
  });

  it("a failed import stores nothing", async () => {
    const { store } = await setup();
    const s = makeSession();
    failWrites(isPart);
    await expect(store.importSession(s, conversation(s.id))).rejects.toMatchObject({ name: "QuotaError" });
    vi.restoreAllMocks();
    expect(await store.getSession(s.id)).toBeUndefined();
    expect(await store.messages(s.id)).toEqual([]);
    expect(await store.listSessions()).toEqual([]);
  });

  it("a failed delta flush keeps the text pending and writes it once space is back", async () => {
    const { db, store } = await setup();
    const s = makeSession();
    const u = userMessage(s.id);
    const p = textPart(u, "");
    await store.importSession(s, [{ info: u, parts: [p] }]);
    const d = (delta: string) => ({ sessionID: s.id, messageID: u.id, partID: p.id, field: "text" as const, delta });
    store.appendDelta(d("one "));
    failWrites();
    const failed = store.flush();
    store.appendDelta(d("two "));
    const queued = store.flush();
    store.appendDelta(d("three"));
    const results = await Promise.allSettled([failed, queued]);
    expect(results.map((r) => r.status === "rejected" && (r.reason as Error).name)).toEqual(["QuotaError", "QuotaError"]);
    expect(store.pendingText(p.id)).toBe("one two three");
    expect(await db.parts.get(p.id)).toMatchObject({ text: "" });
    vi.restoreAllMocks();
    await store.flush();
    expect(store.pendingText(p.id)).toBeUndefined();
    expect(await db.parts.get(p.id)).toMatchObject({ text: "one two three" });
  });

  it("text refused while storage is full is written on its own once space returns, with no more text arriving", async () => {
    const db = createDatabase({ indexedDB: new IDBFactory(), IDBKeyRange });
    const store = new DexieStore(db, { warn: vi.fn(), flushDelayMs: 5, quotaRetryMs: 20 });
    const s = makeSession();
    const u = userMessage(s.id);
    const p = textPart(u, "");
    await store.importSession(s, [{ info: u, parts: [p] }]);
    failWrites(isPart);
    store.appendDelta({ sessionID: s.id, messageID: u.id, partID: p.id, field: "text", delta: "shown but not stored" });
    await vi.waitFor(() => expect(store.hasUnsavedText()).toBe(true));
    expect(store.pendingText(p.id)).toBe("shown but not stored");
    await new Promise((r) => setTimeout(r, 60));
    expect(await db.parts.get(p.id)).toMatchObject({ text: "" });
    vi.restoreAllMocks();
    await vi.waitFor(async () => expect(await db.parts.get(p.id)).toMatchObject({ text: "shown but not stored" }), { timeout: 5000 });
    expect(store.pendingText(p.id)).toBeUndefined();
  });

  it("an answer refused by a full storage is listed for download, noted across a reload, and repaired as 'storage was full'", async () => {
    const factory = new IDBFactory();
    const name = `full-${Math.random()}`;
    const local = new MemoryStorage();
    const db = createDatabase({ name, indexedDB: factory, IDBKeyRange });
    const store = new DexieStore(db, { warn: vi.fn(), flushDelayMs: 5, quotaRetryMs: 60_000, storageFull: new StorageFullLog(local) });
    const s = makeSession();
    const u = userMessage(s.id);
    const a = assistantMessage(s.id, u.id);
    const p = textPart(a, "");
    await store.importSession(s, [
      { info: u, parts: [textPart(u, "question")] },
      { info: a, parts: [p] },
    ]);
    const changes = vi.fn();
    store.subscribeUnsaved(changes);
    failWrites(isPart);
    store.appendDelta({ sessionID: s.id, messageID: a.id, partID: p.id, field: "text", delta: "twelve chars" });
    await vi.waitFor(() => expect(store.unsavedAnswers()).toEqual([{ sessionID: s.id, messageID: a.id, chars: 12 }]));
    expect(changes).toHaveBeenCalled();
    vi.restoreAllMocks();

    // The tab is reloaded before space returned: a new store over the same database and localStorage.
    const reloaded = new DexieStore(createDatabase({ name, indexedDB: factory, IDBKeyRange }), { warn: vi.fn(), storageFull: new StorageFullLog(local) });
    expect(reloaded.storageWasFull(a.id)).toBe(true);
    expect(reloaded.storageWasFull(u.id)).toBe(false);
    await repairSession(reloaded, s.id, 1_700_000_009_000);
    const repaired = (await reloaded.messages(s.id)).find((m) => m.info.id === a.id)?.info;
    const error = repaired?.role === "assistant" ? repaired.error : undefined;
    expect(error?.data.message).toMatch(/storage was full/);
    expect(error?.data.message).not.toMatch(/closed/);
  });

  it("once the refused text is stored, the answer is no longer listed and a later interruption names the tab", async () => {
    const local = new MemoryStorage();
    const db = createDatabase({ indexedDB: new IDBFactory(), IDBKeyRange });
    const store = new DexieStore(db, { warn: vi.fn(), flushDelayMs: 5, quotaRetryMs: 20, storageFull: new StorageFullLog(local) });
    const s = makeSession();
    const u = userMessage(s.id);
    const a = assistantMessage(s.id, u.id);
    const p = textPart(a, "");
    await store.importSession(s, [{ info: a, parts: [p] }]);
    failWrites(isPart);
    store.appendDelta({ sessionID: s.id, messageID: a.id, partID: p.id, field: "text", delta: "later stored" });
    await vi.waitFor(() => expect(store.unsavedAnswers()).toHaveLength(1));
    vi.restoreAllMocks();
    await vi.waitFor(() => expect(store.unsavedAnswers()).toEqual([]), { timeout: 5000 });
    expect(store.storageWasFull(a.id)).toBe(false);
    await repairSession(store, s.id, 1_700_000_009_000);
    const info = (await store.messages(s.id))[0]?.info;
    expect(info?.role === "assistant" ? info.error?.data.message : undefined).toMatch(/tab was closed or reloaded/);
  });
});

/** A `Storage` in memory (Node has no localStorage). */
class MemoryStorage implements Storage {
  private readonly map = new Map<string, string>();
  get length() {
    return this.map.size;
  }
  clear() {
    this.map.clear();
  }
  getItem(key: string) {
    return this.map.get(key) ?? null;
  }
  key(i: number) {
    return [...this.map.keys()][i] ?? null;
  }
  removeItem(key: string) {
    this.map.delete(key);
  }
  setItem(key: string, value: string) {
    this.map.set(key, value);
  }
}
