import { describe, expect, it } from "vitest";
import { clearPendingDelete, foreignPendingDelete, keptForUndo, nextPendingDeleteDue, notePendingDelete, PENDING_DELETE_STALE_MS, stalePendingDeletes } from "./pending-deletes";
import { finishPendingDeletes } from "./storage-gc";

function memo() {
  const m = new Map<string, string>();
  return { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v), removeItem: (k: string) => void m.delete(k), m };
}

describe("pending deletes", () => {
  it("are finished by a later start-up only once no Undo can still be offered, and forgotten when undone or done", () => {
    const store = memo();
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
    const store = memo();
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
    const store = memo();
    store.setItem("tabcode.deleted.pending", "{not json");
    expect(stalePendingDeletes(Date.now(), store)).toEqual([]);
    store.setItem("tabcode.deleted.pending", JSON.stringify({ ses_a: "soon", ses_b: 1 }));
    expect(stalePendingDeletes(Date.now(), store)).toEqual(["ses_b"]);
  });
});

describe("finishPendingDeletes", () => {
  it("deletes the files of a session still gone, keeps those of one restored meanwhile, and forgets both", async () => {
    const store = memo();
    notePendingDelete("ses_gone", 0, store);
    notePendingDelete("ses_back", 0, store);
    notePendingDelete("ses_recent", PENDING_DELETE_STALE_MS, store);
    const deleted: string[] = [];
    let collected = 0;
    const app = {
      store: {
        getSession: async (id: string) => (id === "ses_back" ? ({ id } as never) : undefined),
        listSessions: async () => [],
        messages: async () => [],
      },
      sandbox: {
        deleteWorkspace: async (id: string) => void deleted.push(id),
        collectGarbage: async () => {
          collected++;
          return { trees: 0, blobs: 0, bytes: 0 };
        },
      },
    };
    await finishPendingDeletes(app, PENDING_DELETE_STALE_MS + 1, store);
    expect(deleted).toEqual(["ses_gone"]);
    expect(collected).toBe(1);
    // The recent one waits: its page may still offer Undo.
    expect(stalePendingDeletes(10 * PENDING_DELETE_STALE_MS, store)).toEqual(["ses_recent"]);
  });
});

describe("a delete whose Undo another tab still offers", () => {
  it("holds collections back until it is settled or stale; this tab's own are kept through keptForUndo instead", () => {
    const store = memo();
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
