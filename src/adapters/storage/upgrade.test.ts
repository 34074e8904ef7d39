import { IDBFactory, IDBKeyRange } from "fake-indexeddb";
import { describe, expect, it, vi } from "vitest";
import { emptyTokens, Session } from "../../core/schema";
import { openDatabase, type TabcodeDB } from "./db";
import { DexieStore } from "./dexie-store";
import { V1_LAYOUT, v1Content, writeV1Database } from "./fixtures-v1";
import { CURRENT_VERSION, SCHEMA_VERSIONS } from "./migrations";
import { getSettings } from "./settings";

async function open(factory: IDBFactory): Promise<TabcodeDB> {
  const r = await openDatabase({ indexedDB: factory, IDBKeyRange });
  if (!r.ok) throw new Error(r.error);
  return r.value;
}

describe("schema upgrades", () => {
  it("never edits a released version: v1 is what v1 wrote", () => {
    expect(SCHEMA_VERSIONS[0]?.version).toBe(1);
    expect(SCHEMA_VERSIONS[0]?.stores).toEqual(V1_LAYOUT);
    expect(SCHEMA_VERSIONS.map((v) => v.version)).toEqual(SCHEMA_VERSIONS.map((_, i) => i + 1));
    expect(CURRENT_VERSION).toBe(4);
  });

  it("v1 session rows are not valid today: the upgrade is what makes them readable", () => {
    const [row] = v1Content().sessions;
    expect(Session.safeParse(row).success).toBe(false);
  });

  it("upgrades v1 → current without losing anything", async () => {
    const factory = new IDBFactory();
    const content = v1Content();
    await writeV1Database(factory, IDBKeyRange, content);

    const db = await open(factory);
    expect(db.verno).toBe(CURRENT_VERSION);
    expect(db.messages.schema.indexes.map((i) => i.name)).toContain("[sessionID+id]");
    expect(db.parts.schema.indexes.map((i) => i.name)).toEqual(expect.arrayContaining(["[messageID+id]", "sessionID"]));
    expect(db.sessions.schema.indexes.map((i) => i.name)).toContain("time.updated");
    expect(await db.deltas.count()).toBe(0);

    const warn = vi.fn();
    const store = new DexieStore(db, { warn });
    const [root, child, archived] = content.sessions;
    if (!root || !child || !archived) throw new Error("fixture");
    const active = await store.listSessions();
    expect(active.map((s) => s.title)).toEqual(["child", "root"]);
    expect((await store.listSessions({ archived: true })).map((s) => s.id)).toEqual([archived.id]);

    for (const s of content.sessions) {
      const expected = content.conversations.get(s.id);
      expect(await store.messages(s.id)).toEqual(expected);
      const steps = (expected ?? []).flatMap((m) => m.parts).filter((p) => p.type === "step-finish");
      const upgraded = await store.getSession(s.id);
      expect(upgraded).toEqual({
        ...s,
        cost: steps.reduce((n, p) => n + p.cost, 0),
        unpriced: steps.filter((p) => p.priceUnknown).length,
        tokens: {
          ...emptyTokens(),
          input: steps.reduce((n, p) => n + p.tokens.input, 0),
          output: steps.reduce((n, p) => n + p.tokens.output, 0),
        },
      });
    }
    expect((await store.getSession(root.id))?.tokens.input).toBe(110);
    // The same pass counts the steps with no known price (the child's answer has one).
    expect((await store.getSession(root.id))?.unpriced).toBe(0);
    expect((await store.getSession(child.id))?.unpriced).toBe(1);
    expect(await getSettings(db)).toEqual(Object.fromEntries(content.settings.map((r) => [r.key, r.value])));
    // v3: every stored text part is searchable after the upgrade.
    const someText = [...content.conversations.values()].flat().flatMap((m) => m.parts).find((p) => p.type === "text");
    if (someText?.type !== "text") throw new Error("fixture has no text part");
    const word = someText.text.split(/\W+/).find((w) => w.length > 3) ?? someText.text;
    const hits = await store.search(word);
    expect(hits.map((h) => h.partID)).toContain(someText.id);
    expect(store.corrupt()).toEqual([]);
    expect(warn).not.toHaveBeenCalled();
    db.close();

    // Opening again does not run the upgrade twice.
    const again = await open(factory);
    expect((await new DexieStore(again).getSession(root.id))?.tokens.input).toBe(110);
    again.close();
  });

  it("a corrupt v1 row does not block the upgrade; it is reported, the rest is intact", async () => {
    const factory = new IDBFactory();
    const content = v1Content();
    const [root] = content.sessions;
    if (!root) throw new Error("fixture");
    await writeV1Database(factory, IDBKeyRange, content, [
      { table: "sessions", row: { id: "ses_broken", title: 7 } },
      { table: "parts", row: { id: "prt_broken", messageID: "msg_x", sessionID: root.id, type: "step-finish", tokens: "lots" } },
    ]);
    const db = await open(factory);
    const store = new DexieStore(db, { warn: vi.fn() });
    expect((await store.listSessions()).map((s) => s.title)).toEqual(["child", "root"]);
    expect(await store.messages(root.id)).toEqual(content.conversations.get(root.id));
    expect(store.corrupt().map((r) => r.id)).toEqual(["ses_broken", "prt_broken"]);
    // The broken step-finish row added nothing to the totals.
    expect((await store.getSession(root.id))?.tokens.input).toBe(110);
    db.close();
  });
});
