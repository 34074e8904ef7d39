import { IDBFactory, IDBKeyRange } from "fake-indexeddb";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createDatabase } from "../adapters/storage/db";
import { DexieStore } from "../adapters/storage/dexie-store";
import { makeSession as storedSession } from "../adapters/storage/test-fixtures";
import { makeSession } from "../core/compaction/test-fixtures";
import { MemoryStore } from "../testing/memory-store";
import { deleteApp, finishApp } from "../testing/delete-app";
import { fakeStorage } from "../testing/fake-storage";
import { notePendingDelete, PENDING_DELETE_STALE_MS } from "./pending-deletes";
import { prepareDelete } from "./session-actions";
import { finishPendingDeletes } from "./storage-gc";
import { onTerminalSessionGone, sweepTerminalLogs } from "./terminal-log";
import { terminalLogKey } from "./terminal-log-key";

const LOG = JSON.stringify([{ id: "cmd_1", command: "export TOKEN=sk-secret", start: 1, status: "done", output: "" }]);

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("sweepTerminalLogs (start-up, when idle)", () => {
  it("removes the logs of sessions that no longer exist, and only those", async () => {
    const memo = fakeStorage();
    for (const id of ["ses_live", "ses_gone", "ses_undo"]) memo.setItem(terminalLogKey(id), LOG);
    memo.setItem("tabcode.terminalOpen", "1");
    memo.setItem("tabcode.other", "x");
    // Deleted, its Undo perhaps still offered (here or in another tab): its final delete takes the log.
    notePendingDelete("ses_undo", Date.now(), memo);
    const swept = await sweepTerminalLogs(async (ids) => new Set(ids.filter((id) => id === "ses_live")), memo);
    expect(swept).toBe(1);
    expect(memo.getItem(terminalLogKey("ses_gone"))).toBeNull();
    expect(memo.getItem(terminalLogKey("ses_live"))).toBe(LOG);
    expect(memo.getItem(terminalLogKey("ses_undo"))).toBe(LOG);
    expect(memo.getItem("tabcode.terminalOpen")).toBe("1");
    expect(memo.getItem("tabcode.other")).toBe("x");
  });

  it("reads nothing when no log is stored", async () => {
    const lookups: string[][] = [];
    const lookup = async (ids: string[]) => {
      lookups.push(ids);
      return new Set<string>();
    };
    expect(await sweepTerminalLogs(lookup, fakeStorage())).toBe(0);
    expect(lookups).toEqual([]);
  });

  it("asks the store once for all the logged sessions, in one read of the session keys", async () => {
    const memo = fakeStorage();
    const ids = Array.from({ length: 40 }, (_, i) => `ses_${String(i).padStart(2, "0")}`);
    for (const id of ids) memo.setItem(terminalLogKey(id), LOG);
    const db = createDatabase({ indexedDB: new IDBFactory(), IDBKeyRange });
    const store = new DexieStore(db);
    for (const id of ids.slice(0, 10)) await store.importSession(storedSession({ id }), []);
    // Every read of the sessions table, by kind (a get per session was what each start-up paid).
    const reads = { get: 0, bulk: 0 };
    db.sessions.hook("reading", (row) => {
      reads.get++;
      return row;
    });
    const asked: string[][] = [];
    const swept = await sweepTerminalLogs(async (logged) => {
      asked.push(logged);
      reads.bulk++;
      return store.existingSessionIDs(logged);
    }, memo);
    expect(asked).toEqual([ids]);
    expect(reads).toEqual({ get: 0, bulk: 1 });
    expect(swept).toBe(30);
    expect(ids.filter((id) => memo.getItem(terminalLogKey(id)) !== null)).toEqual(ids.slice(0, 10));
    // The counter counts: a row read the old way (one per session) shows.
    await store.getSession(ids[0] ?? "");
    expect(reads.get).toBe(1);
    db.close();
  });
});

describe("a deleted session's terminal log", () => {
  it("stays while its Undo is offered (Undo brings it back with the session) and goes when the delete is final", async () => {
    const memo = fakeStorage();
    vi.stubGlobal("localStorage", memo);
    const store = new MemoryStore();
    const s = makeSession();
    await store.importSession(s, []);
    const { app, deleted } = deleteApp(store);
    const heard: string[] = [];
    const off = onTerminalSessionGone((event, id) => heard.push(`${event} ${id}`));
    memo.setItem(terminalLogKey(s.id), LOG);

    const first = await (await prepareDelete(app, s)).run();
    expect(memo.getItem(terminalLogKey(s.id))).toBe(LOG);
    expect(heard).toEqual([`deleted ${s.id}`]);
    await first.undo?.();
    expect(await store.getSession(s.id)).toBeDefined();
    expect(memo.getItem(terminalLogKey(s.id))).toBe(LOG);

    const second = await (await prepareDelete(app, s)).run();
    second.finish();
    await vi.waitFor(() => expect(deleted).toEqual([s.id]));
    expect(memo.getItem(terminalLogKey(s.id))).toBeNull();
    expect(heard.at(-1)).toBe(`forgotten ${s.id}`);
    off();
  });

  it("goes when a later start-up finishes the delete of a page closed before its Undo went", async () => {
    const memo = fakeStorage();
    memo.setItem(terminalLogKey("ses_gone"), LOG);
    memo.setItem(terminalLogKey("ses_back"), LOG);
    notePendingDelete("ses_gone", 0, memo);
    notePendingDelete("ses_back", 0, memo);
    const { app } = finishApp(["ses_back"]);
    await finishPendingDeletes(app, PENDING_DELETE_STALE_MS + 1, memo);
    expect(memo.getItem(terminalLogKey("ses_gone"))).toBeNull();
    // Restored meanwhile (imported again): its log is its own again.
    expect(memo.getItem(terminalLogKey("ses_back"))).toBe(LOG);
  });
});
