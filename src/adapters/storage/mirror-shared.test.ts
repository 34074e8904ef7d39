/**
 * The run's copy of a session on screen starts from the screen's own rows (`Store.sharedMessages`) and
 * copies only what it changes: through a real run on DexieStore (tool steps, a prune and a summary on a
 * tiny window, later steps), no row, info, parts list or part the screen published is changed.
 */
import { IDBFactory, IDBKeyRange } from "fake-indexeddb";
import { describe, expect, it, vi } from "vitest";
import type { MessageWithParts, Session } from "../../core/schema";
import { FakeLLM, textTurn, toolTurn } from "../../testing/fake-llm";
import { makeTestService } from "../../testing/session-service";
import { bigOutputTool, TINY_MODEL } from "../../testing/tiny-model";
import type { TokenCounter } from "../../core/tokens/counter";
import { History, text } from "../../core/compaction/test-fixtures";
import { createTiktokenCounter } from "../tokens/tiktoken-counter";
import { createDatabase } from "./db";
import { DexieStore } from "./dexie-store";
import { conversation, makeSession } from "./test-fixtures";

/** A row as JSON, without the cached token counts (the one field the screen's copy is given in place). */
const json = (o: unknown) => JSON.stringify(o, (k, v) => (k === "tokenCount" ? undefined : v));

/** A DexieStore on a fresh database, holding session `s` with `messages`. */
async function storeHolding(name: string, s: Session, messages: MessageWithParts[]): Promise<DexieStore> {
  const db = createDatabase({ name: `${name}-${Math.random()}`, indexedDB: new IDBFactory(), IDBKeyRange });
  const store = new DexieStore(db, { warn: vi.fn(), journalDelayMs: 0 });
  await store.createSession(s);
  await store.importSession(s, messages);
  return store;
}

describe("a run on a session on screen", () => {
  it("reads the screen's rows without copying them and never changes them", async () => {
    const s = makeSession({});
    const all: MessageWithParts[] = [];
    for (let i = 0; i < 3; i++) all.push(...conversation(s.id));
    const store = await storeHolding("shared", s, all);

    // Every object the screen is shown, as it was when first shown.
    const seen = new Map<object, string>();
    const record = () => {
      for (const m of store.messagesSnapshot(s.id)?.messages ?? [])
        for (const o of [m, m.info, m.parts, ...m.parts]) if (!seen.has(o)) seen.set(o, json(o));
    };
    const stop = store.watchMessages(s.id, record);
    await vi.waitFor(() => expect(store.messagesSnapshot(s.id)?.complete).toBe(true));
    record();
    const shared = vi.spyOn(store, "sharedMessages");
    const copied = vi.spyOn((store as unknown as { live: { currentCopy(id: string): Promise<unknown> } }).live, "currentCopy");

    const llm = new FakeLLM([
      toolTurn([{ tool: "big", input: { n: 300 } }]),
      textTurn("ok one"),
      toolTurn([{ tool: "big", input: { n: 900 } }], { inputTokens: 3000, outputTokens: 10 }),
      textTurn("## Goal\nDo.\n## Progress\nx"),
      textTurn("after"),
      textTurn("more"),
    ]);
    const { service } = makeTestService({ llm, store, tools: [bigOutputTool], counter: createTiktokenCounter(), settings: { modelID: "tiny", models: { tiny: TINY_MODEL } } });
    for (const text of ["first question here", "second question", "third"]) {
      await service.prompt(s.id, { text });
      await service.ensureRunning(s.id);
      record();
    }
    await store.flush();
    record();

    const results = await Promise.all(shared.mock.results.map((r) => r.value as Promise<readonly MessageWithParts[] | undefined>));
    expect(results.filter((r) => r !== undefined).length).toBeGreaterThan(0);
    expect(copied).not.toHaveBeenCalled();
    const changed = [...seen].filter(([o, before]) => json(o) !== before).map(([, before]) => before.slice(0, 120));
    expect(seen.size).toBeGreaterThan(50);
    expect(changed).toEqual([]);
    // The run did happen: the prompts are stored, a summary was written, and the last answer is there.
    const stored = await store.messages(s.id);
    const texts = stored.flatMap((m) => m.parts.flatMap((p) => (p.type === "text" ? [p.text] : [])));
    expect(texts).toEqual(expect.arrayContaining(["first question here", "ok one", "second question", "after", "third", "more"]));
    expect(stored.some((m) => m.info.role === "assistant" && m.info.summary)).toBe(true);
    stop();
  });
});

describe("a long session on screen that was never counted (an imported one)", () => {
  it("its first send goes out on an estimate; the next finds the count made behind it on the screen's own rows, before storage has them", async () => {
    const h = new History();
    for (let i = 0; i < 40; i++) h.turn(`question ${i}`, [text(`answer ${i}: ${"a sentence of some length. ".repeat(60)}`)]);
    const s = makeSession({ id: h.sessionID });
    const store = await storeHolding("counted", s, h.msgs);
    const stop = store.watchMessages(s.id, () => undefined);
    await vi.waitFor(() => expect(store.messagesSnapshot(s.id)?.complete).toBe(true));
    // Storage takes seconds to write a long session's counts (idle time, in slices): here it never does.
    vi.spyOn(store, "saveCounts").mockResolvedValue(undefined);
    const real = createTiktokenCounter();
    let texts = 0;
    const counter: TokenCounter = {
      encodingFor: (id) => real.encodingFor(id),
      count: (t, encoding) => {
        texts += t.length;
        return real.count(t, encoding);
      },
    };
    const { service } = makeTestService({ llm: new FakeLLM([textTurn("Hello."), textTurn("Again.")]), store, tools: [], counter });

    await service.prompt(s.id, { text: "Go on." });
    await service.ensureRunning(s.id);
    expect(service.lastRequest(s.id)?.count).toBe("estimate");
    await vi.waitFor(() => expect(texts).toBeGreaterThan(80));
    const counted = texts;

    await service.prompt(s.id, { text: "And then?" });
    await service.ensureRunning(s.id);
    expect(service.lastRequest(s.id)?.count).toBe("exact");
    // Only what is new was counted: the prompts, the first answer, the system prompt.
    expect(texts - counted).toBeLessThan(10);
    stop();
  });
});

describe("looking at a session on screen outside a run", () => {
  it("the repair on opening, the next request's shape and the summary preview copy nothing; an unfinished answer is still repaired", async () => {
    const s = makeSession({});
    const all: MessageWithParts[] = [];
    // Finished answers (the fixture's have no completion time).
    for (let i = 0; i < 3; i++)
      for (const m of conversation(s.id)) all.push(m.info.role === "assistant" ? { ...m, info: { ...m.info, time: { ...m.info.time, completed: m.info.time.created + 1 } } } : m);
    const store = await storeHolding("look", s, all);
    const stop = store.watchMessages(s.id, () => undefined);
    await vi.waitFor(() => expect(store.messagesSnapshot(s.id)?.complete).toBe(true));
    const copied = vi.spyOn((store as unknown as { live: { currentCopy(id: string): Promise<unknown> } }).live, "currentCopy");
    const { service } = makeTestService({ llm: new FakeLLM([]), store, tools: [] });

    expect(await service.repair(s.id)).toBe(0);
    expect(await service.requestShape(s.id)).toMatchObject({ system: expect.any(Array) });
    // "Compact now" and "Summarise up to here" show a preview first: read the same way.
    expect((await service.previewCompaction(s.id)).messages).toBeGreaterThan(0);
    expect(copied).not.toHaveBeenCalled();

    // A tab closed while this answer streamed: it has no completion time.
    const last = all.findLast((m) => m.info.role === "assistant");
    if (last?.info.role !== "assistant") throw new Error("fixture");
    const { completed: _, ...time } = last.info.time;
    await store.upsertMessage({ ...last.info, time });
    await vi.waitFor(() => expect(store.messagesSnapshot(s.id)?.messages.some((m) => m.info.id === last.info.id && m.info.role === "assistant" && !m.info.time.completed)).toBe(true));
    expect(await service.repair(s.id)).toBe(1);
    const repaired = (await store.messages(s.id)).find((m) => m.info.id === last.info.id)?.info;
    expect(repaired?.role === "assistant" && repaired.time.completed).toBeTruthy();
    stop();
  });
});
