import "fake-indexeddb/auto";
import { describe, expect, it } from "vitest";
import { DexieWorkspaceStore } from "./dexie-workspace-store";
import { LocalSandbox } from "./local-sandbox";
import { collectGarbage, workspaceUsage } from "./workspace-ops";
import { MemoryWorkspaceStore, type WorkspaceStore } from "./workspace-store";

let n = 0;
const stores: Array<[string, () => WorkspaceStore]> = [
  ["memory", () => new MemoryWorkspaceStore()],
  ["IndexedDB", () => new DexieWorkspaceStore(`gc-${n++}`)],
];

describe.each(stores)("snapshot storage collection (%s)", (_name, makeStore) => {
  it("after a session is deleted, its snapshots and their blobs go; other sessions keep theirs", async () => {
    const store = makeStore();
    const a = await LocalSandbox.open({ workspace: "ses_a", store });
    await a.fs.writeFile("/workspace/big.bin", new Uint8Array(5000).fill(7));
    const a1 = await a.snapshot();
    await a.fs.writeFile("/workspace/big.bin", new Uint8Array(6000).fill(8));
    await a.fs.writeFile("/workspace/.tabcode/tool-output/tool_1", "saved truncated output");
    const a2 = await a.snapshot();
    const b = await LocalSandbox.open({ workspace: "ses_b", store });
    await b.fs.writeFile("/workspace/keep.txt", "b's file");
    const b1 = await b.snapshot();
    const before = await store.countBlobs();
    expect(before).toBeGreaterThanOrEqual(4);

    await store.deleteWorkspace("ses_a");
    // No step of session a is named anywhere any more; b's snapshot still is.
    const r = await collectGarbage(store, new Set([b1]), { now: Date.now() + 3_600_000 });
    expect(r.trees).toBeGreaterThanOrEqual(2);
    expect(await store.getTree(a1)).toBeUndefined();
    expect(await store.getTree(a2)).toBeUndefined();
    expect(await store.getTree(b1)).toBeDefined();
    expect(await store.countBlobs()).toBe(1);
    expect(new TextDecoder().decode(await b.readAt(b1, "keep.txt"))).toBe("b's file");
  });

  it("reports the storage a session uses: current files and history only its snapshots hold", async () => {
    const store = makeStore();
    const a = await LocalSandbox.open({ workspace: "ses_u", store });
    await a.fs.writeFile("/workspace/a.txt", "x".repeat(100));
    const s1 = await a.snapshot();
    await a.fs.writeFile("/workspace/a.txt", "y".repeat(40));
    const s2 = await a.snapshot();
    expect(await workspaceUsage(store, "ses_u", [s1, s2])).toEqual({ files: 40, history: 100 });
  });
});
