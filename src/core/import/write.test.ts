import { describe, expect, it } from "vitest";
import { MemoryStore } from "../../testing/memory-store";
import { importClaudeCode } from "./claude-code";
import { fixtureFiles } from "./test-files";
import type { HistorySession } from "./types";
import { sourceIndex, writeHistory } from "./write";

const files = fixtureFiles("claude-code");
const NOW = 1_800_000_000_000;
const load = (at: number): HistorySession[] => importClaudeCode(files, NOW + at).sessions;

describe("writing imported history", () => {
  it("writes sessions and links the sidechain to its caller by source id", async () => {
    const store = new MemoryStore();
    const r = await writeHistory(store, load(1000), await sourceIndex(store));
    expect(r.ok && r.value.created).toHaveLength(2);
    const all = await store.listSessions();
    const child = all.find((s) => s.source?.id.includes(":agent-"));
    const parent = all.find((s) => s.source?.id === "3f2c9a1e-7b4d-4e8a-9c1f-2d5e6a7b8c9d");
    expect(child?.parentID).toBe(parent?.id);
    expect((await store.messages(parent?.id ?? "")).length).toBe(8);
  });

  it("re-importing the same source leaves it alone; a changed source replaces it; a session continued here is kept", async () => {
    const store = new MemoryStore();
    await writeHistory(store, load(1000), await sourceIndex(store));
    const again = await writeHistory(store, load(2000), await sourceIndex(store));
    expect(again.ok && again.value.unchanged).toHaveLength(2);
    expect(await store.listSessions()).toHaveLength(2);

    const changed = load(3000).map((s) => (s.info.source ? { ...s, info: { ...s.info, source: { ...s.info.source, updated: s.info.source.updated + 1 } } } : s));
    const replaced = await writeHistory(store, changed, await sourceIndex(store));
    expect(replaced.ok && replaced.value.updated).toHaveLength(2);
    expect(await store.listSessions()).toHaveLength(2);

    // The user continues the main session here, then the source changes again.
    const main = (await store.listSessions()).find((s) => !s.parentID);
    await store.updateSession(main?.id ?? "", (s) => ({ ...s, time: { ...s.time, updated: NOW + 10_000 } }));
    const later = load(4000).map((s) => (s.info.source ? { ...s, info: { ...s.info, source: { ...s.info.source, updated: s.info.source.updated + 2 } } } : s));
    const kept = await writeHistory(store, later, await sourceIndex(store));
    expect(kept.ok && kept.value.kept).toEqual([main?.id]);
    expect(await store.listSessions()).toHaveLength(3);
  });

  it("writes nothing of a chunk when the store fails", async () => {
    const store = new MemoryStore();
    store.importSessions = async () => {
      throw Object.assign(new Error("disk full"), { name: "QuotaError" });
    };
    const r = await writeHistory(store, load(1000), await sourceIndex(store));
    expect(r).toEqual({ ok: false, error: expect.stringContaining("storage is full") });
    expect(await store.listSessions()).toEqual([]);
  });
});
