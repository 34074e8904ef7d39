import { IDBFactory, IDBKeyRange } from "fake-indexeddb";
import { describe, expect, it } from "vitest";
import { ascendingId, descendingId } from "../../core/ids";
import { emptyTokens, type Session, type TextPart } from "../../core/schema";
import { openDatabase } from "./db";
import { DexieStore } from "./dexie-store";

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
});
