import { describe, expect, it, vi } from "vitest";
import { finishApp, storedDeleteSession } from "../testing/delete-app";
import { fakeStorage } from "../testing/fake-storage";
import { prepareDelete } from "./session-actions";
import { makeRoom } from "./terminal-log";
import { terminalLogKey } from "./terminal-log-key";
import { clearPendingDelete, foreignPendingDelete, keptForUndo, nextPendingDeleteDue, notePendingDelete, PENDING_DELETE_STALE_MS, stalePendingDeletes } from "./pending-deletes";
import { finishPendingDeletes } from "./storage-gc";

describe("pending deletes", () => {
  it("are finished by a later start-up only once no Undo can still be offered, and forgotten when undone or done", () => {
    const store = fakeStorage();
    notePendingDelete("ses_a", 1_000, store);
    notePendingDelete("ses_b", 5_000, store);
    expect(stalePendingDeletes(1_000 + PENDING_DELETE_STALE_MS - 1, store)).toEqual([]);
    expect(stalePendingDeletes(1_000 + PENDING_DELETE_STALE_MS, store)).toEqual(["ses_a"]);
    clearPendingDelete("ses_a", store);
    expect(stalePendingDeletes(10 * PENDING_DELETE_STALE_MS, store)).toEqual(["ses_b"]);
    clearPendingDelete("ses_b", store);
    expect(store.m.size).toBe(0);
  });

  it("say when the next one this tab does not hold is due (a page left open finishes it then)", () => {
    const store = fakeStorage();
    expect(nextPendingDeleteDue(0, store)).toBeUndefined();
    notePendingDelete("ses_a", 1_000, store);
    notePendingDelete("ses_b", 3_000, store);
    expect(nextPendingDeleteDue(2_000, store)).toBe(1_000 + PENDING_DELETE_STALE_MS - 2_000);
    // This tab's own (its Undo toast still up) finishes with the toast, not on a timer.
    keptForUndo.set("ses_a", { session: {} as never, messages: [] });
    expect(nextPendingDeleteDue(2_000, store)).toBe(3_000 + PENDING_DELETE_STALE_MS - 2_000);
    keptForUndo.delete("ses_a");
    expect(nextPendingDeleteDue(3_000 + PENDING_DELETE_STALE_MS, store)).toBeUndefined();
  });

  it("read nothing from a damaged entry", () => {
    const store = fakeStorage();
    store.setItem("tabcode.deleted.pending", "{not json");
    expect(stalePendingDeletes(Date.now(), store)).toEqual([]);
    store.setItem("tabcode.deleted.pending", JSON.stringify({ ses_a: "soon", ses_b: 1 }));
    expect(stalePendingDeletes(Date.now(), store)).toEqual(["ses_b"]);
  });
});

describe("finishPendingDeletes", () => {
  it("deletes the files of a session still gone, keeps those of one restored meanwhile, and forgets both", async () => {
    const store = fakeStorage();
    notePendingDelete("ses_gone", 0, store);
    notePendingDelete("ses_back", 0, store);
    notePendingDelete("ses_recent", PENDING_DELETE_STALE_MS, store);
    const { app, deleted, counts } = finishApp(["ses_back"]);
    await finishPendingDeletes(app, PENDING_DELETE_STALE_MS + 1, store);
    expect(deleted).toEqual(["ses_gone"]);
    expect(counts.collected).toBe(1);
    // The recent one waits: its page may still offer Undo.
    expect(stalePendingDeletes(10 * PENDING_DELETE_STALE_MS, store)).toEqual(["ses_recent"]);
  });
});

describe("a delete whose Undo another tab still offers", () => {
  it("holds collections back until it is settled or stale; this tab's own are kept through keptForUndo instead", () => {
    const store = fakeStorage();
    notePendingDelete("ses_elsewhere", 1_000, store);
    expect(foreignPendingDelete(1_000 + 5, store)).toBe(true);
    expect(foreignPendingDelete(1_000 + PENDING_DELETE_STALE_MS, store)).toBe(false);
    keptForUndo.set("ses_elsewhere", { session: {} as never, messages: [] });
    expect(foreignPendingDelete(1_000 + 5, store)).toBe(false);
    keptForUndo.delete("ses_elsewhere");
  });
});

describe("liveSnapshots", () => {
  it("keeps what a session deleted here names while its Undo is offered", async () => {
    const { liveSnapshots } = await import("./storage-gc");
    const app = { store: { listSessions: async () => [], messages: async () => [] } };
    keptForUndo.set("ses_gone", { session: { revert: { messageID: "msg_1", snapshot: "tree_kept" } } as never, messages: [] });
    expect([...(await liveSnapshots(app))]).toEqual(["tree_kept"]);
    keptForUndo.delete("ses_gone");
    expect([...(await liveSnapshots(app))]).toEqual([]);
  });
});

/** A terminal log of `n` commands with 1,000 characters of output each. */
const logOf = (n: number) => JSON.stringify(Array.from({ length: n }, (_, i) => ({ id: `cmd_${i}`, command: "cat big", start: i, status: "done", output: "x".repeat(1_000) })));

describe("a delete's note in a full storage", () => {
  it("makes room from the oldest terminal logs and is written", () => {
    const memo = fakeStorage(30_000);
    memo.setItem(terminalLogKey("ses_old"), logOf(12));
    memo.setItem(terminalLogKey("ses_new"), logOf(12).replaceAll('"start":', '"start":1000'));
    memo.setItem("tabcode.settings", "s".repeat(30_000 - memo.used() - 30));
    expect(notePendingDelete("ses_x", 1_000, memo)).toBe("full");
    expect(notePendingDelete("ses_x", 1_000, memo, (need) => makeRoom(need, memo))).toBe("noted");
    expect(stalePendingDeletes(1_000 + PENDING_DELETE_STALE_MS, memo)).toEqual(["ses_x"]);
    // The session used longest ago gave the room; the newer log and the settings are whole.
    expect((memo.getItem(terminalLogKey("ses_old")) ?? "").length).toBeLessThan(logOf(12).length);
    expect(memo.getItem(terminalLogKey("ses_new"))).toBe(logOf(12).replaceAll('"start":', '"start":1000'));
    expect(memo.getItem("tabcode.settings")?.length).toBeGreaterThan(0);
  });

  it("refused for another reason than room (no access): not written, and nothing is thrown away for room", () => {
    const memo = fakeStorage();
    memo.setItem(terminalLogKey("ses_old"), logOf(3));
    memo.setItem = () => {
      throw new DOMException("The operation is insecure.", "SecurityError");
    };
    let asked = 0;
    expect(
      notePendingDelete("ses_x", 1_000, memo, (need) => {
        asked++;
        return makeRoom(need, memo);
      }),
    ).toBe("refused");
    expect(asked).toBe(0);
    expect(memo.getItem(terminalLogKey("ses_old"))).toBe(logOf(3));
  });

  it("refused for another reason: the delete is not undoable, and says why (not 'storage is full')", async () => {
    try {
      const { memo, s, app } = await storedSession(Number.POSITIVE_INFINITY);
      memo.setItem = () => {
        throw new DOMException("The operation is insecure.", "SecurityError");
      };
      const plan = await prepareDelete(app, s);
      expect(plan.undoable).toBe(false);
      expect(plan.why).toBe("refused");
      plan.cancel();
    } finally {
      vi.unstubAllGlobals();
    }
  });

  const storedSession = storedDeleteSession;

  /** A session with a terminal log in a storage that has nothing left to give way (the rest is settings and the like). */
  async function fullStorageWithSession() {
    const stored = await storedSession(20_000);
    const { memo, s } = stored;
    memo.setItem(terminalLogKey(s.id), logOf(2));
    memo.setItem("tabcode.settings", "s".repeat(20_000 - memo.used() - 30));
    return stored;
  }

  it("that cannot be written even then: the check says so before anything is deleted, and Cancel leaves the session as it was", async () => {
    try {
      const { memo, store, s, app, deleted, stopped } = await fullStorageWithSession();
      const plan = await prepareDelete(app, s);
      expect(plan.undoable).toBe(false);
      expect(plan.why).toBe("full");
      // Asking the user comes first: nothing is deleted, no run is stopped.
      expect(await store.getSession(s.id)).toBeDefined();
      expect(stopped).toEqual([]);
      plan.cancel();
      expect(await store.getSession(s.id)).toBeDefined();
      expect(deleted).toEqual([]);
      expect(memo.getItem(terminalLogKey(s.id))).toBe(logOf(2));
      expect(memo.getItem("tabcode.deleted.pending")).toBeNull();
      // A cancelled delete cannot be run afterwards by mistake.
      await expect(plan.run()).rejects.toThrow("cancelled");
      expect(await store.getSession(s.id)).toBeDefined();
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it("that cannot be written even then: once the user agrees, the delete is final at once, with no Undo", async () => {
    try {
      const { memo, store, s, app, deleted, stopped } = await fullStorageWithSession();
      const plan = await prepareDelete(app, s);
      expect(plan.undoable).toBe(false);
      const done = await plan.run();
      expect(done.undo).toBeUndefined();
      expect(stopped).toEqual([s.id]);
      // An Undo here would have had a note no other tab (nor a later start-up) could see.
      expect(deleted).toEqual([s.id]);
      expect(await store.getSession(s.id)).toBeUndefined();
      expect(memo.getItem(terminalLogKey(s.id))).toBeNull();
      expect(keptForUndo.has(s.id)).toBe(false);
      expect(memo.getItem("tabcode.deleted.pending")).toBeNull();
      await expect(plan.run()).rejects.toThrow("already");
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it("the note the check wrote is the one the delete uses; a cancelled or failed delete leaves no note behind", async () => {
    try {
      const { memo, store, s, app, stopped } = await storedSession(100_000);

      const cancelled = await prepareDelete(app, s);
      expect(cancelled.undoable).toBe(true);
      const noted = memo.getItem("tabcode.deleted.pending");
      expect(JSON.parse(noted ?? "{}")).toHaveProperty(s.id);
      cancelled.cancel();
      cancelled.cancel();
      expect(memo.getItem("tabcode.deleted.pending")).toBeNull();
      expect(await store.getSession(s.id)).toBeDefined();
      expect(stopped).toEqual([]);

      // Used, not written again: the delete's note is the check's, to the millisecond.
      const plan = await prepareDelete(app, s);
      const at = memo.getItem("tabcode.deleted.pending");
      await new Promise((r) => setTimeout(r, 5));
      const done = await plan.run();
      expect(memo.getItem("tabcode.deleted.pending")).toBe(at);
      // Cancel after the delete ran changes nothing: the Undo still has its note.
      plan.cancel();
      expect(memo.getItem("tabcode.deleted.pending")).toBe(at);
      await done.undo?.();
      expect(memo.getItem("tabcode.deleted.pending")).toBeNull();

      // Running in another tab: nothing deleted, and the note goes with the refusal.
      const busy = { ...app, sessions: { ...app.sessions, assertIdleEverywhere: async () => Promise.reject(new Error("running in another tab")) } } as unknown as typeof app;
      await expect((await prepareDelete(busy, s)).run()).rejects.toThrow("another tab");
      expect(await store.getSession(s.id)).toBeDefined();
      expect(memo.getItem("tabcode.deleted.pending")).toBeNull();
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it("with room, a delete still offers its Undo and leaves the files until it goes", async () => {
    try {
      const { memo, store, s, app, deleted } = await storedSession(100_000);
      const plan = await prepareDelete(app, s);
      expect(plan.undoable).toBe(true);
      const done = await plan.run();
      expect(done.undo).toBeTypeOf("function");
      expect(deleted).toEqual([]);
      expect(stalePendingDeletes(Date.now() + PENDING_DELETE_STALE_MS, memo)).toEqual([s.id]);
      await done.undo?.();
      expect(await store.getSession(s.id)).toBeDefined();
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
