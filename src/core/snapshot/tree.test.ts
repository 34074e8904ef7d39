import { describe, expect, it } from "vitest";
import { sha256Hex } from "./hash";
import { changedBetween, MemorySnapshotStore, readAtSnapshot } from "./store";
import { changedPaths, isSnapshotExcluded, treeHash } from "./tree";

describe("snapshot trees", () => {
  it("hashes independently of insertion order", async () => {
    const a = await treeHash({ files: { "a.txt": "1", "b/c.txt": "2" }, dirs: ["b"] });
    const b = await treeHash({ files: { "b/c.txt": "2", "a.txt": "1" }, dirs: ["b"] });
    expect(a).toBe(b);
    expect(a).not.toBe(await treeHash({ files: { "a.txt": "1" }, dirs: ["b"] }));
  });

  it("lists added, removed and modified files", () => {
    const a = { files: { same: "1", mod: "2", gone: "3" }, dirs: [] };
    const b = { files: { same: "1", mod: "9", added: "4" }, dirs: [] };
    expect(changedPaths(a, b)).toEqual(["added", "gone", "mod"]);
  });

  it("excludes node_modules anywhere and the scratch directory at the top", () => {
    expect(isSnapshotExcluded("node_modules/x/index.js")).toBe(true);
    expect(isSnapshotExcluded("app/node_modules/x")).toBe(true);
    expect(isSnapshotExcluded(".tabcode/tool-output/t.txt")).toBe(true);
    expect(isSnapshotExcluded("src/.tabcode")).toBe(false);
    // Plan files are the user's work: revert, unrevert and fork must cover them.
    expect(isSnapshotExcluded(".tabcode/plans")).toBe(false);
    expect(isSnapshotExcluded(".tabcode/plans/refactor.md")).toBe(false);
    expect(isSnapshotExcluded(".tabcode")).toBe(true);
    expect(isSnapshotExcluded("src/index.ts")).toBe(false);
  });

  it("hashes with SHA-256", async () => {
    expect(await sha256Hex("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  });

  it("reads files at a stored snapshot", async () => {
    const store = new MemorySnapshotStore();
    const blob = await sha256Hex("hello");
    await store.putBlobs([{ hash: blob, data: new TextEncoder().encode("hello") }]);
    await store.putBlobs([{ hash: blob, data: new TextEncoder().encode("hello") }]);
    expect(await store.countBlobs()).toBe(1);
    const tree = { files: { "x.txt": blob }, dirs: [] };
    const h = await treeHash(tree);
    await store.putTree(h, tree);
    expect(new TextDecoder().decode(await readAtSnapshot(store, h, "x.txt"))).toBe("hello");
    expect(new TextDecoder().decode(await readAtSnapshot(store, h, "./x.txt"))).toBe("hello");
    expect(await readAtSnapshot(store, h, "y.txt")).toBeUndefined();
    expect(await changedBetween(store, h, h)).toEqual([]);
    await expect(readAtSnapshot(store, "nope", "x.txt")).rejects.toThrow(/^The files from that point are not in this browser: the session came from an export or a share without them\.$/);
  });
});
