import { describe, expect, it } from "vitest";
import { LocalSandbox } from "./local-sandbox";
import { copyWorkspace, deleteWorkspaceRows, seedWorkspace } from "./workspace-ops";
import { MemoryWorkspaceStore } from "./workspace-store";

describe("workspace operations", () => {
  it("seeds files with their directories", async () => {
    const store = new MemoryWorkspaceStore();
    await seedWorkspace(store, "w", { "src/a/b.ts": "b", "/README.md": "hi", "bin.dat": new Uint8Array([0, 1]) });
    const sb = await LocalSandbox.open({ workspace: "w", store });
    expect(await sb.fs.readText("/workspace/src/a/b.ts")).toBe("b");
    expect(await sb.fs.readText("/workspace/README.md")).toBe("hi");
    expect([...(await sb.fs.readFile("/workspace/bin.dat"))]).toEqual([0, 1]);
    expect((await sb.fs.list("/workspace/src")).map((e) => e.name)).toEqual(["a"]);
    await expect(seedWorkspace(store, "w", { "..": "x" })).rejects.toThrow(/Invalid seed path/);
  });

  it("copies the current state or a snapshot, sharing blobs", async () => {
    const store = new MemoryWorkspaceStore();
    await seedWorkspace(store, "from", { "a.txt": "v1", "d/b.txt": "b" });
    const src = await LocalSandbox.open({ workspace: "from", store });
    const snap = await src.snapshot();
    await src.fs.writeFile("/workspace/a.txt", "v2");
    const blobs = await store.countBlobs();

    await copyWorkspace(store, "from", "now");
    const now = await LocalSandbox.open({ workspace: "now", store });
    expect(await now.fs.readText("/workspace/a.txt")).toBe("v2");

    await copyWorkspace(store, "from", "then", snap);
    const then = await LocalSandbox.open({ workspace: "then", store });
    expect(await then.fs.readText("/workspace/a.txt")).toBe("v1");
    expect(await then.fs.readText("/workspace/d/b.txt")).toBe("b");
    expect(await store.countBlobs()).toBe(blobs);

    await then.fs.writeFile("/workspace/a.txt", "fork");
    expect(await (await LocalSandbox.open({ workspace: "from", store })).fs.readText("/workspace/a.txt")).toBe("v2");
  });

  it("deletes a workspace's rows", async () => {
    const store = new MemoryWorkspaceStore();
    await seedWorkspace(store, "w", { "a.txt": "a" });
    await deleteWorkspaceRows(store, "w");
    expect(await store.loadRows("w")).toEqual([]);
  });
});
