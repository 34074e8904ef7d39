import "fake-indexeddb/auto";
import { IDBFactory, IDBKeyRange } from "fake-indexeddb";
import { describe, expect, it } from "vitest";
import { ascendingId, descendingId } from "../../core/ids";
import type { MessageWithParts, Part, Session } from "../../core/schema";
import { partWords, words } from "../../core/search/terms";
import { emptyTokens } from "../../core/schema";
import { openDatabase } from "./db";
import { DexieStore } from "./dexie-store";
import { reindexToolInputs, TOOL_INPUT_REINDEX_KEY } from "./search-index";

async function store() {
  const r = await openDatabase({ indexedDB: new IDBFactory(), IDBKeyRange });
  if (!r.ok) throw new Error(r.error);
  return new DexieStore(r.value, { flushDelayMs: 5 });
}

function session(title: string): Session {
  const now = Date.now();
  return { id: descendingId("ses"), title, directory: "/workspace", version: "t", time: { created: now, updated: now }, tokens: emptyTokens(), cost: 0 };
}

function exchange(sessionID: string, question: string, toolOutput: string): MessageWithParts[] {
  const u = ascendingId("msg");
  const a = ascendingId("msg");
  return [
    { info: { id: u, sessionID, role: "user", time: { created: 1 }, agent: "build", model: { providerID: "p", modelID: "m" } }, parts: [{ id: ascendingId("prt"), sessionID, messageID: u, type: "text", text: question }] },
    {
      info: { id: a, sessionID, role: "assistant", parentID: u, time: { created: 2 }, modelID: "m", providerID: "p", agent: "build", cost: 0, tokens: emptyTokens() },
      parts: [{ id: ascendingId("prt"), sessionID, messageID: a, type: "tool", callID: "c", tool: "bash", state: { status: "completed", input: { command: "grep -r parseDate src" }, output: toolOutput, title: "grep", metadata: {}, time: { start: 1, end: 2 } } }],
    },
  ];
}

describe("search index", () => {
  it("finds text and tool inputs/outputs by word prefixes, across sessions, and forgets deleted ones", async () => {
    const st = await store();
    const a = session("alpha");
    const b = session("beta");
    await st.createSession(a);
    await st.createSession(b);
    await st.importSession(a, exchange(a.id, "Why does the tokenizer crash?", "src/date.ts:12 parseDate()"));
    await st.importSession(b, exchange(b.id, "Refactor the Parser module", "nothing found"));

    expect((await st.search("tokeniz")).map((h) => h.sessionID)).toEqual([a.id]);
    expect((await st.search("parsedate")).map((h) => h.sessionID).sort()).toEqual([a.id, b.id].sort());
    expect(await st.search("parser refactor")).toHaveLength(1);
    expect(await st.search("parser missingword")).toHaveLength(0);
    const [hit] = await st.search("crash");
    expect(hit?.snippet).toContain("crash");

    await st.deleteSession(a.id);
    expect(await st.search("tokeniz")).toEqual([]);
  });

  it("reads a tool's input as written: a word after a newline is found, and the snippet shows no JSON", async () => {
    const st = await store();
    const s = session("delta");
    await st.createSession(s);
    const [user, answer] = exchange(s.id, "write it", "Wrote src/util.ts");
    if (!user || !answer) throw new Error("fixture");
    const tool = answer.parts[0];
    if (tool?.type !== "tool" || tool.state.status !== "completed") throw new Error("fixture");
    const input = { filePath: "/workspace/src/util.ts", content: 'import x from "y";\nexport function clampValue() {}\n' };
    await st.importSession(s, [user, { ...answer, parts: [{ ...tool, tool: "write", state: { ...tool.state, input } }] }]);
    const [hit] = await st.search("clampvalue");
    expect(hit?.snippet).toContain("export function clampValue");
    expect(hit?.snippet).not.toMatch(/\\n|\{"|":/);
    expect(await st.search("export")).toHaveLength(1);
  });

  it("indexes streamed text once it is flushed", async () => {
    const st = await store();
    const s = session("gamma");
    await st.createSession(s);
    const [user] = exchange(s.id, "start", "x");
    if (!user) throw new Error("fixture");
    await st.importSession(s, [user]);
    const partID = ascendingId("prt");
    await st.upsertPart({ id: partID, sessionID: s.id, messageID: user.info.id, type: "text", text: "" });
    st.appendDelta({ sessionID: s.id, messageID: user.info.id, partID, field: "text", delta: "streaming kangaroo " });
    st.appendDelta({ sessionID: s.id, messageID: user.info.id, partID, field: "text", delta: "words" });
    await st.flush();
    expect((await st.search("kangaroo words")).map((h) => h.partID)).toEqual([partID]);
  });
});

describe("search index of imported sessions (block rows)", () => {
  async function opened() {
    const r = await openDatabase({ indexedDB: new IDBFactory(), IDBKeyRange });
    if (!r.ok) throw new Error(r.error);
    return { db: r.value, st: new DexieStore(r.value, { flushDelayMs: 5 }) };
  }

  it("an import writes one row per session, with far fewer index entries than one row per part", async () => {
    const { db, st } = await opened();
    const a = session("imported");
    const messages = Array.from({ length: 50 }, (_, i) => exchange(a.id, `Question ${i} about the tokenizer`, `src/file-${i}.ts:1 parseDate() and shared words here`)).flat();
    await st.importSessions([{ session: a, messages }]);
    const rows = await db.terms.toArray();
    expect(rows).toHaveLength(1);
    const perPart = messages.flatMap((m) => m.parts).reduce((n, p) => n + (p.type === "text" ? p.text : JSON.stringify(p)).split(/\W+/).length, 0);
    expect(rows[0]?.words.length).toBeLessThan(perPart / 5);
    expect((await st.search("question tokeniz")).length).toBe(50);
    expect((await st.search("file-7")).length).toBeGreaterThan(0);
    expect((await st.search("parsedate", 10)).length).toBe(10);
  });

  it("matches all query words in one part, not spread over a block's parts", async () => {
    const { st } = await opened();
    const a = session("spread");
    await st.importSessions([{ session: a, messages: exchange(a.id, "Why does the tokenizer crash?", "kangaroo output") }]);
    expect(await st.search("tokenizer kangaroo")).toEqual([]);
    expect((await st.search("tokenizer crash")).map((h) => h.sessionID)).toEqual([a.id]);
    const [hit] = await st.search("kangaroo");
    expect(hit?.snippet).toContain("kangaroo");
  });

  it("a part changed after its import is found by its new words only; deleting the session forgets its block", async () => {
    const { db, st } = await opened();
    const a = session("changed");
    const messages = exchange(a.id, "Rename the wombat helper", "nothing");
    await st.importSessions([{ session: a, messages }]);
    const part = messages[0]?.parts[0];
    if (part?.type !== "text") throw new Error("fixture");
    await st.upsertPart({ ...part, text: "Rename the platypus helper" });
    expect(await st.search("wombat")).toEqual([]);
    expect((await st.search("platypus")).map((h) => h.partID)).toEqual([part.id]);
    expect((await st.search("rename helper")).map((h) => h.partID)).toEqual([part.id]);
    await st.deleteSession(a.id);
    expect(await db.terms.count()).toBe(0);
    expect(await st.search("rename")).toEqual([]);
  });
});

describe("re-index of tool inputs indexed as JSON (before they were read as written)", () => {
  /** The words the old rule gave a part: its tool input as JSON, so "\nexport" read "nexport". */
  const oldWords = (p: Part) => (p.type === "tool" && p.state.status === "completed" ? words(`${p.tool} ${p.state.title} ${JSON.stringify(p.state.input)} ${p.state.output}`) : partWords(p));

  it("finds them again, in chunks that resume where they stopped, and runs once", async () => {
    const r = await openDatabase({ indexedDB: new IDBFactory(), IDBKeyRange });
    if (!r.ok) throw new Error(r.error);
    const db = r.value;
    const st = new DexieStore(db, { flushDelayMs: 5 });
    const write = (sessionID: string, content: string) => {
      const [user, answer] = exchange(sessionID, "write it", "Wrote it");
      const tool = answer?.parts[0];
      if (!user || !answer || tool?.type !== "tool" || tool.state.status !== "completed") throw new Error("fixture");
      return [user, { ...answer, parts: [{ ...tool, tool: "write", state: { ...tool.state, input: { filePath: "/workspace/a.ts", content } } }] }];
    };
    // One session written part by part (a row per part), one imported (a block row).
    const own = session("own");
    const imported = session("imported");
    await st.createSession(own);
    await st.importSession(own, [...write(own.id, "import x;\nexport function clampValue() {}"), ...write(own.id, "plain words only")]);
    await st.importSessions([{ session: imported, messages: write(imported.id, "// head\nexport const kangarooLimit = 3;") }]);
    // As a version before the change left them.
    const rows = await db.terms.toArray();
    const parts = new Map((await db.parts.toArray()).map((p) => [p.id, p]));
    await db.terms.bulkPut(
      rows.map((row) => {
        if (!row.block) return { ...row, words: oldWords(parts.get(row.partID) as Part) };
        const block = row.block;
        const postings = new Map<string, number[]>();
        block.parts.forEach((id, i) => {
          for (const w of oldWords(parts.get(id) as Part)) postings.set(w, [...(postings.get(w) ?? []), i]);
        });
        return { ...row, words: [...postings.keys()], block: { parts: block.parts, postings: [...postings.values()] } };
      }),
    );
    expect(await st.search("export clampvalue")).toEqual([]);
    expect(await st.search("export kangaroolimit")).toEqual([]);
    // The old word still finds the part with a row of its own (a block's hits are checked against the part's words).
    expect(await st.search("nexport")).toHaveLength(1);

    // One part per chunk: it stops after each and picks up from the stored progress.
    let pauses = 0;
    const wrote = await reindexToolInputs(db, { chunk: 1, pause: async () => void pauses++ });
    expect(wrote).toBe(2);
    expect(pauses).toBe(parts.size);
    expect((await st.search("export clampvalue")).map((h) => h.sessionID)).toEqual([own.id]);
    expect((await st.search("export kangaroolimit")).map((h) => h.sessionID)).toEqual([imported.id]);
    // The part with no escape in its input kept its row; nothing is found twice.
    expect(await st.search("plain words")).toHaveLength(1);
    expect(await st.search("nexport")).toEqual([]);
    expect(await db.settings.get(TOOL_INPUT_REINDEX_KEY)).toEqual({ key: TOOL_INPUT_REINDEX_KEY, value: true });
    expect(await reindexToolInputs(db, { chunk: 1 })).toBe(0);
  });
});
