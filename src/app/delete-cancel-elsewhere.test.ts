/**
 * One pending-delete note per session, shared by every tab: a delete called off in one tab must not clear the note
 * of a delete another tab made of the same session meanwhile, whose Undo is still offered.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { makeSession } from "../core/compaction/test-fixtures";
import { deleteApp } from "../testing/delete-app";
import { fakeStorage } from "../testing/fake-storage";
import { MemoryStore } from "../testing/memory-store";
import { foreignPendingDelete, keptForUndo, pendingDeleteIDs } from "./pending-deletes";
import { prepareDelete } from "./session-actions";

const T0 = 1_800_000_000_000;

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  keptForUndo.clear();
});

describe("a delete called off after another tab deleted the same session", () => {
  it("leaves that tab's note (its Undo is still offered), and the Undo brings the session back", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(T0);
    const memo = fakeStorage();
    vi.stubGlobal("localStorage", memo);
    const store = new MemoryStore();
    const s = makeSession();
    await store.importSession(s, []);
    const { app } = deleteApp(store);
    const here = await prepareDelete(app, s); // this tab: checked, not answered yet
    vi.setSystemTime(T0 + 30_000);
    const there = await prepareDelete(app, s); // the other tab: checked and run
    const done = await there.run();
    expect(done.undo).toBeTypeOf("function");
    // The other tab's Undo rows live in that tab: out of this module's map, to look as this tab does.
    const rows = keptForUndo.get(s.id);
    keptForUndo.delete(s.id);
    here.cancel();
    expect(pendingDeleteIDs(memo)).toContain(s.id);
    expect(foreignPendingDelete(Date.now(), memo)).toBe(true);
    if (rows) keptForUndo.set(s.id, rows);
    await done.undo?.();
    expect(await store.getSession(s.id)).toBeDefined();
  });
});
