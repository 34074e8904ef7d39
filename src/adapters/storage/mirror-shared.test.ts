/**
 * The run's copy of a session on screen starts from the screen's own rows (`Store.sharedMessages`) and
 * copies only what it changes: through a real run on DexieStore (tool steps, a prune and a summary on a
 * tiny window, later steps), no row, info, parts list or part the screen published is changed.
 */
import { IDBFactory, IDBKeyRange } from "fake-indexeddb";
import { describe, expect, it, vi } from "vitest";
import type { MessageWithParts } from "../../core/schema";
import { FakeLLM, textTurn, toolTurn } from "../../testing/fake-llm";
import { makeTestService } from "../../testing/session-service";
import { bigOutputTool, TINY_MODEL } from "../../testing/tiny-model";
import { createTiktokenCounter } from "../tokens/tiktoken-counter";
import { createDatabase } from "./db";
import { DexieStore } from "./dexie-store";
import { conversation, makeSession } from "./test-fixtures";

/** A row as JSON, without the cached token counts (the one field the screen's copy is given in place). */
const json = (o: unknown) => JSON.stringify(o, (k, v) => (k === "tokenCount" ? undefined : v));

describe("a run on a session on screen", () => {
  it("reads the screen's rows without copying them and never changes them", async () => {
    const db = createDatabase({ name: `shared-${Math.random()}`, indexedDB: new IDBFactory(), IDBKeyRange });
    const store = new DexieStore(db, { warn: vi.fn(), journalDelayMs: 0 });
    const s = makeSession({});
    await store.createSession(s);
    const all: MessageWithParts[] = [];
    for (let i = 0; i < 3; i++) all.push(...conversation(s.id));
    await store.importSession(s, all);

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
