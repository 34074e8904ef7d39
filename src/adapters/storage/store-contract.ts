/**
 * The behaviour every `Store` implementation must have. Run it with
 * `storeContract(name, makeStore)` from a test file; `makeStore` returns a
 * fresh, empty store for each test.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { ascendingId } from "../../core/ids";
import type { Store } from "../../core/ports/store";
import type { Part, Session } from "../../core/schema";
import { assistantMessage, conversation, makeSession, textPart, userMessage } from "./test-fixtures";

export function storeContract(name: string, makeStore: () => Store | Promise<Store>): void {
  describe(`Store contract: ${name}`, () => {
    let store: Store;
    beforeEach(async () => {
      store = await makeStore();
    });

    it("creates and reads a session; unknown ids read as undefined", async () => {
      const s = makeSession({ title: "hello" });
      await store.createSession(s);
      expect(await store.getSession(s.id)).toEqual(s);
      expect(await store.getSession("ses_missing")).toBeUndefined();
      expect(store.corrupt()).toEqual([]);
    });

    it("refuses to create a session whose id exists", async () => {
      const s = makeSession();
      await store.createSession(s);
      await expect(store.createSession({ ...s, title: "other" })).rejects.toMatchObject({ name: "ConstraintError" });
      expect((await store.getSession(s.id))?.title).toBe(s.title);
    });

    it("lists sessions most recently updated first, ties newest-created first", async () => {
      const old = makeSession({}, 1000);
      const mid = makeSession({}, 2000);
      const recent = makeSession({}, 3000);
      const touched = makeSession({ time: { created: 500, updated: 5000 } }, 500);
      const twin = makeSession({}, 3000); // same update time as `recent`, created after it
      for (const s of [mid, twin, old, touched, recent]) await store.createSession(s);
      const ids = (await store.listSessions()).map((s) => s.id);
      expect(ids).toEqual([touched.id, twin.id, recent.id, mid.id, old.id]);
    });

    it("hides archived sessions unless asked, then lists only those", async () => {
      const live = makeSession({}, 1000);
      const archived = makeSession({ time: { created: 2000, updated: 2000, archived: 2500 } }, 2000);
      await store.createSession(live);
      await store.createSession(archived);
      expect((await store.listSessions()).map((s) => s.id)).toEqual([live.id]);
      expect((await store.listSessions({ archived: false })).map((s) => s.id)).toEqual([live.id]);
      expect((await store.listSessions({ archived: true })).map((s) => s.id)).toEqual([archived.id]);
    });

    it("updates a session read-modify-write and reorders the list", async () => {
      const a = makeSession({}, 1000);
      const b = makeSession({}, 2000);
      await store.createSession(a);
      await store.createSession(b);
      const next = await store.updateSession(a.id, (s) => ({ ...s, title: "renamed", time: { ...s.time, updated: 9000 } }));
      expect(next?.title).toBe("renamed");
      expect((await store.getSession(a.id))?.title).toBe("renamed");
      expect((await store.listSessions()).map((s) => s.id)).toEqual([a.id, b.id]);
      expect(await store.updateSession("ses_missing", (s) => s)).toBeUndefined();
    });

    it("returns copies: mutating a result does not change what is stored", async () => {
      const s = makeSession();
      await store.createSession(s);
      const read = await store.getSession(s.id);
      if (read) read.title = "mutated";
      expect((await store.getSession(s.id))?.title).toBe(s.title);
    });

    it("returns messages and parts in id order whatever the write order", async () => {
      const s = makeSession();
      await store.createSession(s);
      const convo = conversation(s.id);
      // Write everything backwards.
      for (const m of [...convo].reverse()) {
        await store.upsertMessage(m.info);
        for (const p of [...m.parts].reverse()) await store.upsertPart(p);
      }
      expect(await store.messages(s.id)).toEqual(convo);
      const first = convo[0];
      expect(first && (await store.getMessage(first.info.id))).toEqual(first?.info);
      // Without their parts: the same messages, in the same order, and nothing of another session.
      const other = makeSession({}, 9000);
      await store.importSession(other, conversation(other.id));
      expect(await store.messageInfos?.(s.id)).toEqual(convo.map((m) => m.info));
    });

    it("keeps sessions apart", async () => {
      const a = makeSession({}, 1000);
      const b = makeSession({}, 2000);
      await store.importSession(a, conversation(a.id));
      await store.importSession(b, conversation(b.id));
      for (const s of [a, b]) {
        const msgs = await store.messages(s.id);
        expect(msgs).toHaveLength(2);
        expect(msgs.every((m) => m.info.sessionID === s.id && m.parts.every((p) => p.sessionID === s.id))).toBe(true);
      }
    });

    it("adds a message with its parts and updates its session in one write", async () => {
      // Optional in the port, but every store here has it (the send path relies on it).
      const add = store.addMessage?.bind(store);
      expect(add).toBeDefined();
      if (!add) return;
      const s = makeSession();
      await store.createSession(s);
      const u = userMessage(s.id);
      const parts = [textPart(u, "the prompt"), textPart(u, "an attached file")];
      const updated = await add(u, parts, (x) => ({ ...x, title: "renamed" }));
      expect(updated?.title).toBe("renamed");
      expect((await store.getSession(s.id))?.title).toBe("renamed");
      const [m] = await store.messages(s.id);
      expect(m?.info).toEqual(u);
      expect(m?.parts).toEqual(parts);
      // Without a session update, and for a session that is gone: the message is written, nothing else.
      const a = assistantMessage(s.id, u.id);
      expect(await add(a, [])).toBeUndefined();
      expect((await store.messages(s.id)).map((x) => x.info.id)).toEqual([u.id, a.id]);
    });

    it("upserts replace messages and parts", async () => {
      const s = makeSession();
      await store.createSession(s);
      const u = userMessage(s.id);
      const p = textPart(u, "first");
      await store.upsertMessage(u);
      await store.upsertPart(p);
      await store.upsertMessage({ ...u, system: "extra" });
      await store.upsertPart({ ...p, text: "second" });
      const [m] = await store.messages(s.id);
      expect(m?.info).toEqual({ ...u, system: "extra" });
      expect(m?.parts).toEqual([{ ...p, text: "second" }]);
    });

    it("applies deltas in order to text and reasoning parts after flush", async () => {
      const s = makeSession();
      await store.createSession(s);
      const a = assistantMessage(s.id, ascendingId("msg"));
      const reasoning: Part = { ...textPart(a, "why: "), type: "reasoning", time: { start: 1 } };
      const text = textPart(a, "");
      await store.upsertMessage(a);
      await store.upsertPart(reasoning);
      await store.upsertPart(text);
      for (const d of ["Hel", "lo", ", ", "world"]) {
        store.appendDelta({ sessionID: s.id, messageID: a.id, partID: text.id, field: "text", delta: d });
      }
      store.appendDelta({ sessionID: s.id, messageID: a.id, partID: reasoning.id, field: "text", delta: "because" });
      await store.flush();
      const [m] = await store.messages(s.id);
      expect(m?.parts.map((p) => ("text" in p ? p.text : ""))).toEqual(["why: because", "Hello, world"]);
    });

    it("upsertPart after deltas: the upsert wins, later deltas apply on top", async () => {
      const s = makeSession();
      await store.createSession(s);
      const a = assistantMessage(s.id, ascendingId("msg"));
      const p = textPart(a, "");
      await store.upsertMessage(a);
      await store.upsertPart(p);
      const delta = (d: string) => store.appendDelta({ sessionID: s.id, messageID: a.id, partID: p.id, field: "text", delta: d });
      delta("a");
      delta("b");
      await store.upsertPart({ ...p, text: "ab!", time: { start: 1, end: 2 } });
      delta("c");
      await store.flush();
      const [m] = await store.messages(s.id);
      expect(m?.parts).toEqual([{ ...p, text: "ab!c", time: { start: 1, end: 2 } }]);
    });

    it("deletes a session with its messages and parts, leaving others alone", async () => {
      const a = makeSession({}, 1000);
      const b = makeSession({}, 2000);
      const convoA = conversation(a.id);
      await store.importSession(a, convoA);
      await store.importSession(b, conversation(b.id));
      await store.deleteSession(a.id);
      expect(await store.getSession(a.id)).toBeUndefined();
      expect(await store.messages(a.id)).toEqual([]);
      expect(await store.getMessage(convoA[0]?.info.id ?? "")).toBeUndefined();
      expect((await store.listSessions()).map((s) => s.id)).toEqual([b.id]);
      expect(await store.messages(b.id)).toHaveLength(2);
    });

    it("deletes chosen messages with their parts", async () => {
      const s = makeSession();
      const convo = conversation(s.id);
      await store.importSession(s, convo);
      const [first, second] = convo;
      await store.deleteMessages(s.id, [second?.info.id ?? ""]);
      expect(await store.messages(s.id)).toEqual([first]);
      expect(await store.getMessage(second?.info.id ?? "")).toBeUndefined();
    });

    it("imports several sessions all-or-nothing: an existing id writes nothing", async () => {
      if (!store.importSessions) throw new Error("this store must implement importSessions");
      const a = makeSession({ title: "a" }, 1000);
      const b = makeSession({ title: "b" }, 2000);
      const convoA = conversation(a.id);
      await store.importSessions([{ session: a, messages: convoA }]);
      const c = makeSession({ title: "c" }, 3000);
      // b is new, but reuses a's messages: the whole batch must be refused.
      await expect(store.importSessions([{ session: c, messages: conversation(c.id) }, { session: b, messages: convoA }])).rejects.toThrow();
      expect((await store.listSessions()).map((s) => s.title)).toEqual(["a"]);
      expect(await store.getSession(c.id)).toBeUndefined();
      expect(await store.messages(a.id)).toEqual(convoA);
    });

    it("imports a whole session at once", async () => {
      const s: Session = makeSession({ title: "imported", parentID: "ses_parent" });
      const convo = conversation(s.id);
      await store.importSession(s, convo);
      expect(await store.getSession(s.id)).toEqual(s);
      expect(await store.messages(s.id)).toEqual(convo);
      expect(store.corrupt()).toEqual([]);
    });
  });
}
