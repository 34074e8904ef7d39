import { IDBFactory, IDBKeyRange } from "fake-indexeddb";
import { describe, expect, it, vi } from "vitest";
import { ascendingId, descendingId } from "../../core/ids";
import { emptyTokens, type Session, type TextPart } from "../../core/schema";
import { createDatabase, openDatabase, type TabcodeDB } from "./db";
import { DexieStore } from "./dexie-store";
import { sameData } from "./stored-counts";
import { assistantMessage, makeSession, textPart, toolPart, userMessage } from "./test-fixtures";

describe("saveCounts", () => {
  it("stores token counts of many parts at once, but never over a part that changed since it was counted", async () => {
    const r = await openDatabase({ indexedDB: new IDBFactory(), IDBKeyRange });
    if (!r.ok) throw new Error(r.error);
    const store = new DexieStore(r.value);
    const s: Session = { id: descendingId("ses"), title: "t", directory: "/workspace", version: "t", time: { created: 1, updated: 1 }, tokens: emptyTokens(), cost: 0 };
    const m = ascendingId("msg");
    const parts: TextPart[] = ["alpha beta", "gamma delta"].map((text) => ({ id: ascendingId("prt"), sessionID: s.id, messageID: m, type: "text", text }));
    await store.importSession(s, [{ info: { id: m, sessionID: s.id, role: "user", time: { created: 1 }, agent: "build", model: { providerID: "p", modelID: "m" } }, parts }]);
    const [a, b] = parts;
    if (!a || !b) throw new Error("fixture");
    // b changes after it was counted.
    await store.upsertPart({ ...b, text: "gamma delta epsilon" });
    await store.saveCounts([
      { ...a, tokenCount: { encoding: "o200k_base", count: 2, size: a.text.length } },
      { ...b, tokenCount: { encoding: "o200k_base", count: 2, size: b.text.length } },
    ]);
    const [msg] = await store.messages(s.id);
    expect(msg?.parts[0]?.tokenCount?.count).toBe(2);
    expect(msg?.parts[1]?.tokenCount).toBeUndefined();
    expect(msg?.parts[1]?.type === "text" && msg.parts[1].text).toBe("gamma delta epsilon");
    // A part whose stored fields are in another order than the schema's still gets its count.
    const cp = { tail_start_id: m, mode: "cached-prefix" as const, auto: true, type: "compaction" as const, messageID: m, sessionID: s.id, id: ascendingId("prt") };
    await store.upsertPart(cp);
    const [read] = (await store.messages(s.id)).map((x) => x.parts.find((p) => p.id === cp.id));
    if (!read) throw new Error("compaction part not stored");
    await store.saveCounts([{ ...read, tokenCount: { encoding: "o200k_base", count: 7, size: 0 } }]);
    expect((await store.messages(s.id))[0]?.parts.find((p) => p.id === cp.id)?.tokenCount?.count).toBe(7);
    // Text still searchable (the index was not disturbed).
    expect((await store.search("alpha")).map((h) => h.partID)).toEqual([a.id]);
  });

  /** A store with a session and its first question on a fake clock; `later(ms)` moves both the clock and the timers. */
  async function onFakeClock(body: (f: { db: TabcodeDB; store: DexieStore; session: Session; question: TextPart; later(ms: number): Promise<void>; counted(): Promise<number | undefined> }) => Promise<void>) {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const now = vi.spyOn(Date, "now");
    try {
      let t = 1_000_000;
      now.mockImplementation(() => t);
      const db = createDatabase({ indexedDB: new IDBFactory(), IDBKeyRange });
      const store = new DexieStore(db, { owner: "tab-a" });
      const session = makeSession();
      const u = userMessage(session.id);
      const question = textPart(u, "What is in this file?");
      await store.createSession(session);
      await store.addMessage(u, [question]);
      const later = async (ms: number) => {
        t += ms;
        await vi.advanceTimersByTimeAsync(ms);
      };
      await body({ db, store, session, question, later, counted: async () => (await db.parts.get(question.id))?.tokenCount?.count });
    } finally {
      now.mockRestore();
      vi.useRealTimers();
    }
  }

  it("waits while an answer streams: counts are stored once no streamed text came for a second", () =>
    onFakeClock(async ({ db, store, session, question, later, counted }) => {
      const a = assistantMessage(session.id, question.messageID);
      const answer = textPart(a, "It holds");
      await store.upsertMessage(a);
      await store.upsertPart(answer);
      store.appendDelta({ sessionID: session.id, messageID: a.id, partID: answer.id, field: "text", delta: " two functions" });
      const saved = store.saveCounts([{ ...question, tokenCount: { encoding: "o200k_base", count: 5, size: question.text.length } }]);
      await later(999);
      // The streamed text is merged meanwhile; the count still waits for the pause.
      expect(await db.parts.get(answer.id)).toMatchObject({ text: "It holds two functions" });
      expect(await counted()).toBeUndefined();
      await later(1);
      await saved;
      expect(await counted()).toBe(5);
    }));

  it("waits for a second after a prompt is written, so a send never queues behind them in IndexedDB", () =>
    onFakeClock(async ({ store, session, question, later, counted }) => {
      await later(5_000);
      const saved = store.saveCounts([{ ...question, tokenCount: { encoding: "o200k_base", count: 5, size: question.text.length } }]);
      // A prompt is sent before the idle callback ran: the counts wait a second from its write.
      const next = userMessage(session.id);
      await store.addMessage(next, [textPart(next, "And the tests?")]);
      await later(999);
      expect(await counted()).toBeUndefined();
      await later(1);
      await saved;
      expect(await counted()).toBe(5);
    }));
});

describe("sameData (is a stored part still the part that was counted)", () => {
  it("compares objects field by field in any order, undefined fields as absent, arrays in order", () => {
    const m = assistantMessage("ses_1", "msg_0");
    const tool = toolPart(m);
    const reordered = Object.fromEntries(Object.entries(structuredClone(tool)).reverse());
    expect(sameData(tool, reordered)).toBe(true);
    expect(sameData({ a: 1, b: undefined }, { a: 1 })).toBe(true);
    expect(sameData({ a: [1, { x: 2 }] }, { a: [1, { x: 2 }] })).toBe(true);
    expect(sameData({ a: [1, 2] }, { a: [2, 1] })).toBe(false);
    expect(sameData({ a: [1] }, { a: { 0: 1 } })).toBe(false);
    expect(sameData({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(sameData({ a: { b: "x" } }, { a: { b: "y" } })).toBe(false);
    expect(sameData(null, {})).toBe(false);
    expect(sameData({ ...tool, state: { ...tool.state, output: "changed" } }, tool)).toBe(false);
  });
});
