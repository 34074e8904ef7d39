import "fake-indexeddb/auto";
import { describe, expect, it, vi } from "vitest";
import { DEFAULT_RULES } from "../../../core/permission/evaluate";
import { pathPolicy } from "../../../core/permission/path-policy";
import type { ExecGuard } from "../../../core/ports/sandbox";
import { DexieWorkspaceStore } from "./dexie-workspace-store";
import { LocalSandbox } from "./local-sandbox";
import { seedWorkspace } from "./workspace-ops";
import { announceWholeWorkspace } from "./workspace-notices";
import { MemoryWorkspaceStore, type WorkspaceStore } from "./workspace-store";

// Two tabs on one session: each has its own LocalSandbox over the same stored workspace.

let n = 0;

const stores: Array<[string, () => WorkspaceStore]> = [
  ["memory store", () => new MemoryWorkspaceStore()],
  ["IndexedDB store", () => new DexieWorkspaceStore(`other-tabs-${n++}`)],
];

async function twoTabs(store: WorkspaceStore, opts: { notices?: boolean } = {}) {
  const ws = `ses_${n++}`;
  await seedWorkspace(store, ws, { "a.txt": "first\n", "old.txt": "old\n", "dir/x.txt": "x\n" });
  const a = await LocalSandbox.open({ workspace: ws, store, notices: opts.notices });
  const b = await LocalSandbox.open({ workspace: ws, store, notices: opts.notices });
  return { ws, a, b };
}

async function out(sb: LocalSandbox, command: string): Promise<string> {
  const r = await sb.exec(command);
  return r.combined;
}

const CHANGE = "echo second > a.txt && echo made > made-in-a.txt && rm old.txt && rm -r dir && mkdir -p d/e && echo deep > d/e/f.txt";

describe.each(stores)("another tab's changes (%s)", (_name, makeStore) => {
  it("are seen by the other tab's commands, reads and snapshot, through the notice alone", async () => {
    const { a, b } = await twoTabs(makeStore());
    await a.exec(CHANGE);
    await vi.waitFor(() => expect(b.taken.notices).toBe(1));
    expect(await b.fs.readText("/workspace/made-in-a.txt")).toBe("made\n");
    expect(await b.fs.exists("/workspace/old.txt")).toBe(false);
    expect(await out(b, "cat made-in-a.txt a.txt d/e/f.txt")).toBe("made\nsecond\ndeep\n");
    expect(await out(b, "ls")).toBe(await out(a, "ls"));
    expect(await out(b, "ls dir old.txt; echo $?")).toContain("No such file or directory");
    expect(await b.snapshot()).toBe(await a.snapshot());
    // Taken in path by path: no whole reload.
    expect(b.taken.reloads).toBe(0);
    a.close();
    b.close();
  });

  it("start the other tab's edit from their content, and the edit reaches the first tab", async () => {
    const { a, b } = await twoTabs(makeStore());
    await a.exec("echo one > a.txt");
    await b.exec("echo two >> a.txt");
    expect(await out(a, "cat a.txt")).toBe("one\ntwo\n");
    await b.fs.writeFile("/workspace/a.txt", `${await b.fs.readText("/workspace/a.txt")}three\n`);
    await vi.waitFor(async () => expect(await a.fs.readText("/workspace/a.txt")).toBe("one\ntwo\nthree\n"));
    expect(await a.snapshot()).toBe(await b.snapshot());
    a.close();
    b.close();
  });

  it("keep times and modes", async () => {
    const { a, b } = await twoTabs(makeStore());
    await a.exec("echo run > run.sh && chmod 700 run.sh && mkdir -p made");
    await vi.waitFor(() => expect(b.taken.notices).toBe(1));
    expect(await out(b, "stat -c %a run.sh")).toBe("700\n");
    for (const p of ["/workspace/run.sh", "/workspace/made"]) expect(await b.fs.stat(p)).toEqual(await a.fs.stat(p));
    a.close();
    b.close();
  });

  it("include a restore: the other tab sees the restored files and snapshots the same state", async () => {
    const { a, b } = await twoTabs(makeStore());
    const start = await a.snapshot();
    await a.exec(CHANGE);
    expect(await out(b, "cat made-in-a.txt")).toBe("made\n");
    await a.restore(start);
    expect(await out(b, "cat a.txt old.txt dir/x.txt")).toBe("first\nold\nx\n");
    expect(await out(b, "ls made-in-a.txt d; echo $?")).toContain("No such file or directory");
    expect(await b.snapshot()).toBe(start);
    // And a restore in the other tab does not write its stale copy back over the first tab's work.
    await a.exec("echo kept > kept.txt");
    const later = await a.snapshot();
    await b.restore(later);
    expect(await out(a, "cat kept.txt")).toBe("kept\n");
    expect(await b.snapshot()).toBe(later);
    a.close();
    b.close();
  });

  it("a tab ignores its own notices", async () => {
    const store = makeStore();
    const { a, b } = await twoTabs(store);
    const rowsAt = vi.spyOn(store, "rowsAt");
    const loadRows = vi.spyOn(store, "loadRows");
    await a.exec("echo mine > mine.txt");
    await vi.waitFor(() => expect(b.taken.notices).toBe(1));
    await new Promise((r) => setTimeout(r, 20));
    expect(a.taken).toEqual({ notices: 0, reloads: 0 });
    expect(rowsAt).toHaveBeenCalledTimes(1); // b's
    expect(loadRows).not.toHaveBeenCalled();
    a.close();
    b.close();
  });

  it("a path the tab changed and has not flushed yet keeps its change, whose flush then wins in both tabs", async () => {
    const { a, b } = await twoTabs(makeStore());
    // b's command writes a.txt, then waits (asking about `touch`) while a's change of the same file arrives.
    const guard: ExecGuard = { policy: pathPolicy("/workspace", [[...DEFAULT_RULES, { permission: "bash", pattern: "touch *", action: "ask" }]]) };
    let answer: (refusal: string | undefined) => void = () => undefined;
    const asked = new Promise<void>((resolve) => {
      guard.ask = () => {
        resolve();
        return new Promise((r) => {
          answer = r;
        });
      };
    });
    const running = b.exec("echo local > a.txt; touch t.txt; cat a.txt", { guard });
    await asked;
    await a.exec("echo remote > a.txt && echo other > other.txt");
    await vi.waitFor(() => expect(b.taken.notices).toBe(1));
    // The other path of the notice is taken in; the unflushed one is not.
    expect(await b.fs.readText("/workspace/other.txt")).toBe("other\n");
    expect(await b.fs.readText("/workspace/a.txt")).toBe("local\n");
    answer(undefined);
    expect((await running).stdout).toBe("local\n");
    expect(await out(a, "cat a.txt")).toBe("local\n");
    expect(await out(b, "cat a.txt other.txt")).toBe("local\nother\n");
    expect(await a.snapshot()).toBe(await b.snapshot());
    a.close();
    b.close();
  });

  it("without notices (lost, or no BroadcastChannel), a command or snapshot still finds the store moved on and reloads", async () => {
    const { a, b } = await twoTabs(makeStore(), { notices: false });
    await a.exec(CHANGE);
    expect(await out(b, "cat made-in-a.txt a.txt d/e/f.txt")).toBe("made\nsecond\ndeep\n");
    expect(b.taken.reloads).toBe(1);
    await a.exec("echo third > a.txt");
    expect(await b.snapshot()).toBe(await a.snapshot());
    expect(b.taken.reloads).toBe(2);
    // Nothing changed since: no further reload.
    await b.exec("true");
    expect(b.taken.reloads).toBe(2);
  });

  it("a whole-workspace notice (seeding from a page) reloads everything", async () => {
    const store = makeStore();
    const { ws, a, b } = await twoTabs(store);
    await seedWorkspace(store, ws, { "seeded.txt": "seed\n" });
    announceWholeWorkspace(store.scope, ws);
    await vi.waitFor(() => expect(b.taken.reloads).toBe(1));
    expect(await b.fs.readText("/workspace/seeded.txt")).toBe("seed\n");
    expect(await b.fs.readText("/workspace/a.txt")).toBe("first\n");
    a.close();
    b.close();
  });
});

describe("notices stay within their store", () => {
  it("two stores with the same workspace name never hear each other", async () => {
    const one = new MemoryWorkspaceStore();
    const two = new MemoryWorkspaceStore();
    const a = await LocalSandbox.open({ workspace: "same", store: one });
    const b = await LocalSandbox.open({ workspace: "same", store: two });
    await b.exec("echo b > b.txt");
    await a.exec("echo a > a.txt");
    await new Promise((r) => setTimeout(r, 20));
    expect(a.taken).toEqual({ notices: 0, reloads: 0 });
    expect(b.taken).toEqual({ notices: 0, reloads: 0 });
    expect(await out(a, "ls")).toBe("a.txt\n");
    a.close();
    b.close();
  });
});
