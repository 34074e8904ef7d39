import { afterEach, expect, it, vi } from "vitest";
import { makeSession } from "../core/compaction/test-fixtures";
import type { MessageWithParts } from "../core/schema";
import { deleteApp } from "../testing/delete-app";
import { fakeStorage } from "../testing/fake-storage";
import { MemoryStore } from "../testing/memory-store";
import { prepareDelete } from "./session-actions";

afterEach(() => vi.unstubAllGlobals());

// Review: a delete checked while the session is still there, run once it is gone (the same session deleted twice
// in this tab, or by another tab meanwhile), "deletes" nothing and still offers an Undo built from the stale row
// it was given and no messages (`getSession(...) ?? s`, `messages` of a deleted session: []). Its toast's Undo
// writes back an empty session; its finish clears the first delete's note (the same key) while that one's Undo
// is still offered, so a page closed then leaves the files behind for good.
it("a delete of a session already deleted fails instead of offering an Undo of an empty session", async () => {
  const memo = fakeStorage(100_000);
  vi.stubGlobal("localStorage", memo);
  const store = new MemoryStore();
  const s = makeSession();
  const m: MessageWithParts = {
    info: { id: "msg_1", sessionID: s.id, role: "user", time: { created: 1 }, agent: "build", model: { providerID: "p", modelID: "m" } } as never,
    parts: [{ id: "prt_1", sessionID: s.id, messageID: "msg_1", type: "text", text: "hello" } as never],
  };
  await store.importSession(s, [m]);
  const { app } = deleteApp(store);
  const first = await prepareDelete(app, s);
  const second = await prepareDelete(app, s);
  const done = await first.run();
  expect(done.undo).toBeTypeOf("function");
  // The session is gone: nothing for the second delete to delete or to undo.
  await expect(second.run()).rejects.toThrow();
  // The first delete's note is still there for its Undo.
  expect(memo.getItem("tabcode.deleted.pending")).toContain(s.id);
  await done.undo?.();
  expect((await store.messages(s.id)).length).toBe(1);
});
