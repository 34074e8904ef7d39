import { IDBFactory, IDBKeyRange } from "fake-indexeddb";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createDatabase, describeOpenError, openDatabase } from "./db";
import { DexieStore } from "./dexie-store";
import { QUOTA_MESSAGE } from "./errors";
import { makeSession } from "./test-fixtures";

/** A factory whose `open()` fails the way a browser in private mode or with blocked storage does. */
function refusingFactory(name: string): IDBFactory {
  const real = new IDBFactory();
  return Object.assign(Object.create(real) as IDBFactory, {
    open: () => {
      throw new DOMException("The operation is insecure.", name);
    },
  });
}

describe("openDatabase", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it("opens a fresh database at the current version", async () => {
    const r = await openDatabase({ indexedDB: new IDBFactory(), IDBKeyRange });
    expect(r.ok).toBe(true);
    if (r.ok) {
      expect(r.value.isOpen()).toBe(true);
      expect(r.value.name).toBe("tabcode");
      r.value.close();
    }
  });

  it("reports IndexedDB missing instead of throwing", async () => {
    vi.stubGlobal("indexedDB", undefined);
    const r = await openDatabase();
    expect(r).toEqual({ ok: false, error: expect.stringMatching(/IndexedDB/) });
    if (!r.ok) expect(r.error).toMatch(/[Pp]rivate/);
  });

  it("reports open() refused (private mode, blocked storage) with the browser's reason", async () => {
    for (const name of ["SecurityError", "InvalidStateError"]) {
      const r = await openDatabase({ indexedDB: refusingFactory(name), IDBKeyRange });
      expect(r.ok).toBe(false);
      if (!r.ok) {
        expect(r.error).toMatch(/cannot be saved/);
        expect(r.error).toContain(name);
      }
    }
  });

  it("still opens data written by a newer version (Dexie 4 adopts the newer schema; rows are validated on read)", async () => {
    const factory = new IDBFactory();
    const future = createDatabase({ indexedDB: factory, IDBKeyRange });
    future.version(99).stores({ sessions: "id, time.updated, parentID, other", todos: "id" });
    await future.open();
    const s = makeSession();
    await future.sessions.put(s);
    future.close();
    const r = await openDatabase({ indexedDB: factory, IDBKeyRange });
    expect(r.ok).toBe(true);
    if (r.ok) {
      expect(await new DexieStore(r.value).listSessions()).toEqual([s]);
      r.value.close();
    }
  });

  it("gives up after a timeout when another tab blocks the upgrade", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => {});
    const factory = new IDBFactory();
    const old = indexedOpen(factory, 10); // an old tab keeps version 1 (IndexedDB 10) open and ignores versionchange
    await old;
    const r = await openDatabase({ indexedDB: factory, IDBKeyRange, timeoutMs: 50 });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatch(/Close other tabcode tabs/);
  });

  it("words for other failures", () => {
    expect(describeOpenError(new DOMException("full", "QuotaExceededError"))).toBe(QUOTA_MESSAGE);
    expect(describeOpenError({ name: "UpgradeError", message: "x" })).toMatch(/Upgrading/);
    expect(describeOpenError({ name: "MissingAPIError" })).toMatch(/IndexedDB/);
    expect(describeOpenError(new DOMException("too new", "VersionError"))).toMatch(/newer version of tabcode/);
  });
});

/** Opens a raw connection that never closes, like a stale tab. */
function indexedOpen(factory: IDBFactory, version: number): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const req = factory.open("tabcode", version);
    req.onupgradeneeded = () => {
      req.result.createObjectStore("sessions", { keyPath: "id" });
    };
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}
