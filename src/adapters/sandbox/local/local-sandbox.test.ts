import "fake-indexeddb/auto";
import { describe, expect, it } from "vitest";
import { sandboxContract } from "../sandbox-contract";
import { DexieWorkspaceStore } from "./dexie-workspace-store";
import { LocalSandbox } from "./local-sandbox";
import { MemoryWorkspaceStore } from "./workspace-store";

let n = 0;

sandboxContract("local (memory store)", async () => {
  const store = new MemoryWorkspaceStore();
  const sandbox = await LocalSandbox.open({ workspace: `ws${n++}`, store });
  return { sandbox, countBlobs: () => store.countBlobs() };
});

sandboxContract("local (IndexedDB store)", async () => {
  const store = new DexieWorkspaceStore(`contract-${n++}`);
  const sandbox = await LocalSandbox.open({ workspace: "ses_1", store });
  return { sandbox, countBlobs: () => store.countBlobs(), dispose: async () => store.close() };
});

describe("local sandbox persistence", () => {
  it("reloads the workspace from the store", async () => {
    const store = new DexieWorkspaceStore(`persist-${n++}`);
    const a = await LocalSandbox.open({ workspace: "ses_a", store });
    await a.fs.writeFile("/workspace/src/main.ts", "export {}\n");
    await a.exec("mkdir -p empty && echo hi > notes.txt && ln -s notes.txt link.txt && mv notes.txt moved.txt");
    const b = await LocalSandbox.open({ workspace: "ses_a", store });
    expect(await b.fs.readText("/workspace/src/main.ts")).toBe("export {}\n");
    expect(await b.fs.readText("/workspace/moved.txt")).toBe("hi\n");
    expect(await b.fs.exists("/workspace/notes.txt")).toBe(false);
    expect((await b.fs.stat("/workspace/empty"))?.type).toBe("directory");
    const other = await LocalSandbox.open({ workspace: "ses_b", store });
    expect(await other.fs.list("/workspace")).toEqual([]);
    store.close();
  });

  it("persists only the workspace, not /bin or /tmp", async () => {
    const store = new MemoryWorkspaceStore();
    const a = await LocalSandbox.open({ workspace: "w", store });
    await a.exec("echo t > /tmp/t.txt; echo w > w.txt");
    const rows = await store.loadRows("w");
    expect(rows.map((r) => r.path)).toEqual(["w.txt"]);
  });

  it("persists deletions done by the shell, including whole trees", async () => {
    const store = new MemoryWorkspaceStore();
    const a = await LocalSandbox.open({ workspace: "w", store });
    await a.exec("mkdir -p d/e && touch d/e/f d/g && echo x > keep");
    await a.exec("rm -r d");
    expect((await store.loadRows("w")).map((r) => r.path)).toEqual(["keep"]);
  });

  it("persists symlinks", async () => {
    const store = new MemoryWorkspaceStore();
    const a = await LocalSandbox.open({ workspace: "w", store });
    await a.exec("echo one > target.txt && ln -s target.txt l.txt");
    const b = await LocalSandbox.open({ workspace: "w", store });
    expect(await b.fs.readText("/workspace/l.txt")).toBe("one\n");
    expect((await b.exec("readlink l.txt")).stdout).toBe("target.txt\n");
  });

  it("finds exactly the 3 changed files of a 1,000-file workspace", async () => {
    const store = new MemoryWorkspaceStore();
    const sb = await LocalSandbox.open({ workspace: "big", store });
    for (let i = 0; i < 1000; i++) await sb.fs.writeFile(`/workspace/pkg${i % 10}/file${i}.txt`, `content ${i}\n`);
    const a = await sb.snapshot();
    const blobs = await store.countBlobs();
    await sb.fs.writeFile("/workspace/pkg3/file13.txt", "changed\n");
    await sb.exec("rm pkg7/file507.txt && echo new > pkg0/extra.txt");
    const b = await sb.snapshot();
    expect(await sb.changed(a, b)).toEqual(["pkg0/extra.txt", "pkg3/file13.txt", "pkg7/file507.txt"]);
    expect((await store.countBlobs()) - blobs).toBe(2);
  });
});

describe("missing commands", () => {
  it("reports gzip as unavailable where Buffer is missing", async () => {
    const { missingCommands } = await import("./missing-commands");
    const { defineCommand, Bash, InMemoryFs } = await import("just-bash");
    const bash = new Bash({ fs: new InMemoryFs(), customCommands: missingCommands(defineCommand, false) });
    const r = await bash.exec("gzip -c /dev/null");
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toBe("gzip is not available in the local sandbox in a browser.\n");
    expect((await bash.exec("git status")).exitCode).toBe(127);
  });
});

describe("persisting type changes", () => {
  it("drops the rows below a directory replaced by a file", async () => {
    const store = new MemoryWorkspaceStore();
    const a = await LocalSandbox.open({ workspace: "w", store });
    await a.exec("mkdir -p d/e && echo 1 > d/e/f");
    await a.exec("rm -r d && echo file > d");
    expect((await store.loadRows("w")).map((r) => `${r.path}:${r.type}`)).toEqual(["d:file"]);
  });
});
