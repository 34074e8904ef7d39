import "fake-indexeddb/auto";
import { describe, expect, it, vi } from "vitest";
import { DexieWorkspaceStore } from "./dexie-workspace-store";
import { LocalSandbox } from "./local-sandbox";
import { seedWorkspace } from "./workspace-ops";
import type { WorkspaceNotice } from "./workspace-notices";
import { MemoryWorkspaceStore, type WorkspaceStore } from "./workspace-store";

// The two generation-token rules no test of other-tabs.test.ts fails without (review: removing either kept it green).

let n = 0;
const stores: Array<[string, () => WorkspaceStore]> = [
  ["memory store", () => new MemoryWorkspaceStore()],
  ["IndexedDB store", () => new DexieWorkspaceStore(`other-tabs-tokens-${n++}`)],
];

describe.each(stores)("generation tokens (%s)", (_name, makeStore) => {
  it("a notice that does not follow the copy's token (one before it was lost) reloads, so the lost one's files are there too", async () => {
    const store = makeStore();
    const ws = `ses_${n++}`;
    await seedWorkspace(store, ws, { "a.txt": "a\n" });
    const a = await LocalSandbox.open({ workspace: ws, store });
    const b = await LocalSandbox.open({ workspace: ws, store });
    const self = b as unknown as { heard: (n: WorkspaceNotice) => void };
    const heard = self.heard.bind(b);
    let drop = true;
    self.heard = (nn) => {
      if (drop) drop = false;
      else heard(nn);
    };
    await a.exec("echo one > one.txt");
    await a.exec("echo two > two.txt");
    await vi.waitFor(() => expect(b.taken.reloads + b.taken.notices).toBe(1));
    expect(await b.fs.readText("/workspace/two.txt")).toBe("two\n");
    expect(await b.fs.exists("/workspace/one.txt")).toBe(true);
    a.close();
    b.close();
  });

  it("a flush that finds another tab wrote since the copy's token marks the copy stale: the next command reloads", async () => {
    const store = makeStore();
    const ws = `ses_${n++}`;
    await seedWorkspace(store, ws, { "a.txt": "a\n" });
    const a = await LocalSandbox.open({ workspace: ws, store, notices: false });
    const b = await LocalSandbox.open({ workspace: ws, store, notices: false });
    await a.exec("echo one > one.txt");
    // B's own write (no token check before an fs write) replaces the token A set.
    await b.fs.writeFile("/workspace/b.txt", "b\n");
    expect((await b.exec("cat one.txt")).combined).toBe("one\n");
  });

  it("file reads check the token, but a run of reads (a search over many files) pays for one check, not one per file", async () => {
    const store = makeStore();
    const ws = `ses_${n++}`;
    await seedWorkspace(store, ws, Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`f${i}.txt`, `${i}\n`])));
    const a = await LocalSandbox.open({ workspace: ws, store, notices: false });
    const b = await LocalSandbox.open({ workspace: ws, store, notices: false });
    let checks = 0;
    const stampOf = store.stampOf.bind(store);
    store.stampOf = (w: string) => {
      checks++;
      return stampOf(w);
    };
    const now = vi.spyOn(performance, "now").mockReturnValue(1_000);
    try {
      for (let i = 0; i < 200; i++) await b.fs.readFile(`/workspace/f${i}.txt`);
      expect(checks).toBe(1);
      // A tab whose notice never came wrote meanwhile: a read after the check's time is up sees it.
      await a.exec("echo changed > f0.txt");
      checks = 0;
      now.mockReturnValue(1_000 + 150);
      expect(await b.fs.readText("/workspace/f0.txt")).toBe("changed\n");
      expect(checks).toBeGreaterThan(0);
    } finally {
      now.mockRestore();
      a.close();
      b.close();
    }
  });
});
