import "fake-indexeddb/auto";
import { describe, expect, it, vi } from "vitest";
import { DEFAULT_RULES } from "../../../core/permission/evaluate";
import { pathPolicy } from "../../../core/permission/path-policy";
import type { ExecGuard } from "../../../core/ports/sandbox";
import { DexieWorkspaceStore } from "./dexie-workspace-store";
import { LocalSandbox } from "./local-sandbox";
import { seedWorkspace } from "./workspace-ops";
import type { WorkspaceNotice } from "./workspace-notices";
import { MemoryWorkspaceStore, type WorkspaceStore } from "./workspace-store";

// Other tabs' copies in the races a review found: each test states what a user should get (each failed before its fix).

let n = 0;
const stores: Array<[string, () => WorkspaceStore]> = [
  ["memory store", () => new MemoryWorkspaceStore()],
  ["IndexedDB store", () => new DexieWorkspaceStore(`other-tabs-review-${n++}`)],
];

async function twoTabs(store: WorkspaceStore, opts: { notices?: boolean } = {}) {
  const ws = `ses_${n++}`;
  await seedWorkspace(store, ws, { "a.txt": "first\n", "dir/x.txt": "x\n" });
  const a = await LocalSandbox.open({ workspace: ws, store, notices: opts.notices });
  const b = await LocalSandbox.open({ workspace: ws, store, notices: opts.notices });
  return { ws, a, b };
}

/** A guard that holds the command line at its first command matching `pattern` until `answer()` is called. */
function holdAtTouch(pattern = "touch *") {
  const guard: ExecGuard = { policy: pathPolicy("/workspace", [[...DEFAULT_RULES, { permission: "bash", pattern, action: "ask" }]]) };
  let answer: () => void = () => undefined;
  const asked = new Promise<void>((resolve) => {
    guard.ask = () => {
      resolve();
      return new Promise((r) => {
        answer = () => r(undefined);
      });
    };
  });
  return { guard, asked, answer: () => answer() };
}

describe.each(stores)("other tabs' races (%s)", (_name, makeStore) => {
  it("a snapshot whose flush finds another tab wrote after its check names that tab's file too", async () => {
    const store = makeStore();
    const { ws, a, b } = await twoTabs(store, { notices: false });
    // B's command line has written b.txt (not flushed yet) and waits for a permission answer.
    const hold = holdAtTouch();
    const running = b.exec("echo from-b > b.txt; touch t.txt; true", { guard: hold.guard });
    await hold.asked;
    // A writes right after B's snapshot checked the token, before B's flush.
    const stampOf = store.stampOf.bind(store);
    let armed = true;
    store.stampOf = async (w: string) => {
      const stamp = await stampOf(w);
      if (armed && w === ws) {
        armed = false;
        await a.exec("echo from-a > late.txt");
      }
      return stamp;
    };
    const tree = await store.getTree(await b.snapshot());
    expect(Object.keys(tree?.files ?? {}).sort()).toEqual(["a.txt", "b.txt", "dir/x.txt", "late.txt"]);
    hold.answer();
    await running;
    a.close();
    b.close();
  });

  it("a directory a running command only named (a failed mkdir) does not undo the other tab's writes below it", async () => {
    const store = makeStore();
    const { ws, a, b } = await twoTabs(store);
    // B's command line: `mkdir dir` fails (it exists) but marks dir; then it waits for a permission answer.
    const hold = holdAtTouch();
    const running = b.exec("mkdir dir; touch t.txt; true", { guard: hold.guard });
    await hold.asked;
    // Meanwhile A changes a file under dir and adds one.
    await a.exec("echo changed-in-a > dir/x.txt && echo new-in-a > dir/new.txt");
    await vi.waitFor(() => expect(b.taken.notices).toBe(1));
    hold.answer();
    await running;
    // B never wrote dir/x.txt nor dir/new.txt: A's writes must survive, in the store and in both tabs.
    const stored = new Map((await store.loadRows(ws)).map((r) => [r.path, r]));
    expect(stored.has("dir/new.txt")).toBe(true);
    expect((await a.exec("cat dir/x.txt dir/new.txt")).combined).toBe("changed-in-a\nnew-in-a\n");
    expect((await b.exec("cat dir/x.txt dir/new.txt")).combined).toBe("changed-in-a\nnew-in-a\n");
    a.close();
    b.close();
  });

  it("a command that touched the workspace's root (touch .) does not undo the other tab's writes anywhere", async () => {
    const store = makeStore();
    const { ws, a, b } = await twoTabs(store);
    const hold = holdAtTouch("sleep *");
    const running = b.exec("touch .; sleep 0; true", { guard: hold.guard });
    await hold.asked;
    await a.exec("echo changed-in-a > a.txt && echo new-in-a > new.txt");
    await vi.waitFor(() => expect(b.taken.notices).toBe(1));
    hold.answer();
    await running;
    expect((await store.loadRows(ws)).some((r) => r.path === "new.txt")).toBe(true);
    expect((await b.exec("cat a.txt new.txt")).combined).toBe("changed-in-a\nnew-in-a\n");
    expect((await a.exec("cat a.txt new.txt")).combined).toBe("changed-in-a\nnew-in-a\n");
    a.close();
    b.close();
  });

  it("below a marked directory, a path this tab did change keeps its content (its flush wins)", async () => {
    const store = makeStore();
    const { a, b } = await twoTabs(store);
    await b.exec("mkdir other && echo mine > other/x.txt");
    const hold = holdAtTouch();
    // rm -r and cp -r mark only dir: dir/x.txt is this tab's copy now.
    const running = b.exec("rm -r dir && cp -r other dir; touch t.txt; true", { guard: hold.guard });
    await hold.asked;
    await vi.waitFor(() => expect(a.taken.notices).toBe(1));
    await a.exec("echo changed-in-a > dir/x.txt");
    await vi.waitFor(() => expect(b.taken.notices).toBe(1));
    hold.answer();
    await running;
    expect((await a.exec("cat dir/x.txt")).combined).toBe("mine\n");
    expect((await b.exec("cat dir/x.txt")).combined).toBe("mine\n");
    a.close();
    b.close();
  });

  it("with a notice lost, an edit through the sandbox's fs (the edit tool's read-modify-write) does not undo the other tab's change", async () => {
    const { a, b } = await twoTabs(makeStore(), { notices: false });
    await a.exec("echo from-a >> a.txt");
    // The edit tool: read, replace, write back (LocalFS, no token check on the read).
    const text = await b.fs.readText("/workspace/a.txt");
    await b.fs.writeFile("/workspace/a.txt", text.replace("first", "FIRST"));
    expect((await a.exec("cat a.txt")).combined).toBe("FIRST\nfrom-a\n");
  });

  it("a directory removed in one tab while the other had just added a file in it: both tabs and their rows agree", async () => {
    const store = makeStore();
    const { ws, a, b } = await twoTabs(store);
    // A hears notices only when the test lets it (a notice still on its way).
    const held: WorkspaceNotice[] = [];
    const heard = (a as unknown as { heard: (n: WorkspaceNotice) => void }).heard.bind(a);
    (a as unknown as { heard: (n: WorkspaceNotice) => void }).heard = (nn) => held.push(nn);
    const hold = holdAtTouch();
    // A's command line started before B's write (its token check passed), removes dir after it.
    const running = a.exec("touch t.txt; rm -r dir", { guard: hold.guard });
    await hold.asked;
    await b.exec("echo new-in-b > dir/new.txt");
    await vi.waitFor(() => expect(held.length).toBe(1));
    hold.answer();
    await running;
    await vi.waitFor(() => expect(b.taken.notices + b.taken.reloads).toBeGreaterThan(0));
    (a as unknown as { heard: (n: WorkspaceNotice) => void }).heard = heard;
    for (const nn of held) heard(nn);
    const storedPaths = (await store.loadRows(ws)).map((r) => r.path).sort();
    const lsA = (await a.exec("ls -R dir 2>&1; true")).combined;
    const lsB = (await b.exec("ls -R dir 2>&1; true")).combined;
    // B's snapshot names only files B's own filesystem has (its rows say dir/new.txt is there; its memory lost it).
    const snapB = await b.snapshot();
    const tree = await store.getTree(snapB);
    for (const p of Object.keys(tree?.files ?? {})) expect(await b.fs.exists(`/workspace/${p}`), `${p} (stored: ${storedPaths.join(",")})`).toBe(true);
    // And both tabs show the same files.
    expect(lsB).toBe(lsA);
    a.close();
    b.close();
  });
});

/** Two tabs on `makeStore()`'s store; tab A runs `command`, and B's first attempt to apply its notice fails. */
async function noticeFailedAfter(makeStore: () => WorkspaceStore, command: string) {
  const store = makeStore();
  const tabs = await twoTabs(store);
  const rowsAt = vi.spyOn(store, "rowsAt").mockRejectedValueOnce(new Error("IndexedDB hiccup"));
  await tabs.a.exec(command);
  await vi.waitFor(() => expect(rowsAt).toHaveBeenCalled());
  return tabs;
}

describe.each(stores)("review: a notice that failed to apply (%s)", (_name, makeStore) => {
  it("leaves the copy stale, and the next read through the sandbox's fs catches up (not only the next command)", async () => {
    const { a, b } = await noticeFailedAfter(makeStore, "echo from-a >> a.txt");
    // The edit tool reads, replaces and writes back.
    const text = await b.fs.readText("/workspace/a.txt");
    await b.fs.writeFile("/workspace/a.txt", text.replace("first", "FIRST"));
    expect((await a.exec("cat a.txt")).combined).toBe("FIRST\nfrom-a\n");
    a.close();
    b.close();
  });

  it("leaves the copy stale, and the next listing or stat through the sandbox's fs catches up (no token read there: the stale mark alone)", async () => {
    const { a, b } = await noticeFailedAfter(makeStore, "echo new > new.txt");
    expect(await b.fs.exists("/workspace/new.txt")).toBe(true);
    expect((await b.fs.list("/workspace")).map((e) => e.name)).toContain("new.txt");
    a.close();
    b.close();
  });
});
