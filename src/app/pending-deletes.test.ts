import { describe, expect, it } from "vitest";
import { clearPendingDelete, notePendingDelete, PENDING_DELETE_STALE_MS, stalePendingDeletes } from "./pending-deletes";

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

  it("read nothing from a damaged entry", () => {
    const store = memo();
    store.setItem("tabcode.deleted.pending", "{not json");
    expect(stalePendingDeletes(Date.now(), store)).toEqual([]);
    store.setItem("tabcode.deleted.pending", JSON.stringify({ ses_a: "soon", ses_b: 1 }));
    expect(stalePendingDeletes(Date.now(), store)).toEqual(["ses_b"]);
  });
});
