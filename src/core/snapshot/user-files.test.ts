import { describe, expect, it } from "vitest";
import { personActsDuringStep } from "../../testing/during-step";
import { createLocalSandboxForTests } from "../../adapters/sandbox/local/testing";
import type { Sandbox } from "../ports/sandbox";
import type { Ruleset } from "../schema";
import { revertSession } from "../session/revert";
import { createUserPath, deleteScope, deleteUserPath, renameUserPath } from "./user-files";

const protect: Ruleset = [{ permission: "protect", pattern: "config/**", action: "deny" }];
const text = (sb: Sandbox, rel: string) => sb.fs.readText(`/workspace/${rel}`);
const exists = (sb: Sandbox, rel: string) => sb.fs.exists(`/workspace/${rel}`);

describe("createUserPath", () => {
  it("creates an empty file with its parent folders, or a folder", async () => {
    const sb = await createLocalSandboxForTests();
    expect(await createUserPath(sb, "src/lib/util.ts", false, [])).toEqual({ ok: true, rel: "src/lib/util.ts", paths: ["src/lib/util.ts"] });
    expect(await text(sb, "src/lib/util.ts")).toBe("");
    expect(await createUserPath(sb, "docs/empty", true, [])).toEqual({ ok: true, rel: "docs/empty", paths: [] });
    expect((await sb.fs.stat("/workspace/docs/empty"))?.type).toBe("directory");
  });

  it("never writes over something already there, nor through a file", async () => {
    const sb = await createLocalSandboxForTests({ files: { "a.ts": "keep me\n", "src/x.ts": "x\n" } });
    expect(await createUserPath(sb, "a.ts", false, [])).toEqual({ ok: false, message: "a.ts already exists. Open it from the list, or choose another name." });
    expect(await text(sb, "a.ts")).toBe("keep me\n");
    expect(await createUserPath(sb, "src", false, [])).toEqual({ ok: false, message: "A folder src already exists." });
    expect(await createUserPath(sb, "a.ts/b.ts", false, [])).toEqual({ ok: false, message: "a.ts is a file, so it cannot hold other files." });
  });

  it("a protect rule refuses it with the rule's name; nothing is created", async () => {
    const sb = await createLocalSandboxForTests();
    const r = await createUserPath(sb, "config/new.json", false, [protect]);
    expect(r).toEqual({ ok: false, message: 'Not created: config/new.json: write refused — protected by your rule "protect config/**".' });
    expect(await exists(sb, "config")).toBe(false);
  });
});

describe("renameUserPath", () => {
  it("renames a file and moves it across folders, creating the folders", async () => {
    const sb = await createLocalSandboxForTests({ files: { "notes.txt": "n\n" } });
    expect(await renameUserPath(sb, "notes.txt", "docs/guide/notes.md", [])).toEqual({ ok: true, rel: "docs/guide/notes.md", paths: ["notes.txt", "docs/guide/notes.md"] });
    expect(await exists(sb, "notes.txt")).toBe(false);
    expect(await text(sb, "docs/guide/notes.md")).toBe("n\n");
  });

  it("a folder as the target receives the file under its own name (as mv)", async () => {
    const sb = await createLocalSandboxForTests({ files: { "a.ts": "a\n", "src/b.ts": "b\n" } });
    expect(await renameUserPath(sb, "a.ts", "src", [])).toMatchObject({ ok: true, rel: "src/a.ts" });
    expect(await renameUserPath(sb, "src/a.ts", "lib", [], { into: true })).toMatchObject({ ok: true, rel: "lib/a.ts" });
    expect(await text(sb, "lib/a.ts")).toBe("a\n");
  });

  it("asks before replacing a file at the target, and replaces it only when told", async () => {
    const sb = await createLocalSandboxForTests({ files: { "a.ts": "new\n", "b.ts": "old\n" } });
    expect(await renameUserPath(sb, "a.ts", "b.ts", [])).toEqual({ ok: false, ask: "replace", message: "b.ts already exists. Replace it with a.ts? What b.ts holds now will be lost." });
    expect(await text(sb, "b.ts")).toBe("old\n");
    expect(await text(sb, "a.ts")).toBe("new\n");
    expect(await renameUserPath(sb, "a.ts", "b.ts", [], { replace: true })).toMatchObject({ ok: true, rel: "b.ts" });
    expect(await text(sb, "b.ts")).toBe("new\n");
    expect(await exists(sb, "a.ts")).toBe(false);
  });

  it("moves a folder with everything in it; never into itself, never over another", async () => {
    const sb = await createLocalSandboxForTests({ files: { "lib/a.ts": "a\n", "lib/deep/b.ts": "b\n", "other/x.ts": "x\n" } });
    expect(await renameUserPath(sb, "lib", "lib/inner", [])).toEqual({ ok: false, message: "A folder cannot be moved into itself." });
    expect(await renameUserPath(sb, "lib", "other/x.ts", [])).toEqual({ ok: false, message: "A file other/x.ts already exists. Choose another name." });
    expect(await renameUserPath(sb, "lib", "other/x.ts/lib", [])).toEqual({ ok: false, message: "other/x.ts is a file, so it cannot hold other files." });
    const r = await renameUserPath(sb, "lib", "src/lib2", []);
    expect(r).toEqual({ ok: true, rel: "src/lib2", paths: ["lib/a.ts", "src/lib2/a.ts", "lib/deep/b.ts", "src/lib2/deep/b.ts"] });
    expect(await exists(sb, "lib")).toBe(false);
    expect(await text(sb, "src/lib2/deep/b.ts")).toBe("b\n");
    await sb.fs.mkdir("/workspace/dest/lib2");
    expect(await renameUserPath(sb, "src/lib2", "dest", [])).toEqual({ ok: false, message: "A folder dest/lib2 already exists. Choose another name." });
  });

  it("says when the file is gone, or is already where it would go", async () => {
    const sb = await createLocalSandboxForTests({ files: { "a.ts": "a\n" } });
    expect(await renameUserPath(sb, "gone.ts", "b.ts", [])).toEqual({ ok: false, message: "gone.ts is no longer there (the agent may have moved or deleted it)." });
    expect(await renameUserPath(sb, "a.ts", "a.ts", [])).toEqual({ ok: false, message: "a.ts is already there. Type another name or folder." });
  });

  it("a protect rule on either end refuses it; nothing moves", async () => {
    const sb = await createLocalSandboxForTests({ files: { "config/app.json": "{}\n", "a.ts": "a\n", "box/config-copy/c.txt": "c\n" } });
    expect(await renameUserPath(sb, "config/app.json", "app.json", [protect])).toEqual({
      ok: false,
      message: 'Not renamed: config/app.json: rename refused — protected by your rule "protect config/**".',
    });
    expect(await renameUserPath(sb, "a.ts", "config/a.ts", [protect])).toMatchObject({ ok: false, message: expect.stringContaining("protect config/**") });
    expect(await renameUserPath(sb, "box/config-copy", "config", [protect])).toMatchObject({ ok: false, message: expect.stringContaining("Not renamed: config/config-copy") });
    expect(await text(sb, "config/app.json")).toBe("{}\n");
    expect(await text(sb, "a.ts")).toBe("a\n");
    expect(await text(sb, "box/config-copy/c.txt")).toBe("c\n");
  });
});

describe("deleteUserPath and deleteScope", () => {
  it("says what a delete takes: a file's size, a folder's files and how many are hidden", async () => {
    const sb = await createLocalSandboxForTests({ files: { "a.ts": "12345", "web/index.ts": "i", "web/node_modules/p/index.js": "p", "web/.git/HEAD": "h" } });
    expect(await deleteScope(sb, "a.ts")).toEqual({ type: "file", size: 5 });
    expect(await deleteScope(sb, "web")).toEqual({ type: "folder", files: 3, hidden: 2, complete: true });
    expect(await deleteScope(sb, "nothing")).toBeUndefined();
  });

  it("deletes a file, or a folder and every file in it", async () => {
    const sb = await createLocalSandboxForTests({ files: { "a.ts": "a", "web/index.ts": "i", "web/lib/x.ts": "x" } });
    expect(await deleteUserPath(sb, "a.ts", [])).toEqual({ ok: true, rel: "a.ts", paths: ["a.ts"] });
    expect(await deleteUserPath(sb, "web", [], { files: 2 })).toEqual({ ok: true, rel: "web", paths: ["web/index.ts", "web/lib/x.ts"] });
    expect(await sb.fs.list("/workspace")).toEqual([]);
  });

  it("asks again when the file or folder changed since it was shown", async () => {
    const sb = await createLocalSandboxForTests({ files: { "a.ts": "v2", "web/index.ts": "i", "web/new.ts": "n" } });
    const r = await deleteUserPath(sb, "a.ts", [], { bytes: new TextEncoder().encode("v1") });
    expect(r).toEqual({ ok: false, ask: "changed", message: "a.ts changed since it was shown to you (the agent may have written it). Delete it anyway?" });
    expect(await deleteUserPath(sb, "web", [], { files: 1 })).toEqual({ ok: false, ask: "changed", message: "web/ now holds 2 files, not 1 (the agent may be working there). Delete it anyway?" });
    expect(await text(sb, "a.ts")).toBe("v2");
    expect(await deleteUserPath(sb, "a.ts", [], { bytes: new TextEncoder().encode("v2") })).toMatchObject({ ok: true });
  });

  it("a protect rule on anything inside refuses the whole delete; a missing path is said", async () => {
    const sb = await createLocalSandboxForTests({ files: { "config/app.json": "{}" } });
    expect(await deleteUserPath(sb, "config", [protect])).toEqual({ ok: false, message: 'Not deleted: config/app.json: delete refused — protected by your rule "protect config/**".' });
    expect(await text(sb, "config/app.json")).toBe("{}");
    expect(await deleteUserPath(sb, "missing.md", [])).toEqual({ ok: false, message: "missing.md is no longer there (the agent may have moved or deleted it)." });
  });
});

describe("changes made while a step runs", () => {
  it("stay out of the step's patch: reverting the turn neither brings back a deleted file nor undoes a rename", async () => {
    // The person deletes and renames in the Files panel while the model works.
    const files = { "old.txt": "old\n", "draft.md": "draft\n", "lib/a.ts": "a\n" };
    const { store, sandbox: sb, s, user, patched } = await personActsDuringStep(files, async (sandbox) => {
      await deleteUserPath(sandbox, "old.txt", []);
      await renameUserPath(sandbox, "draft.md", "docs/final.md", []);
      await renameUserPath(sandbox, "lib", "src/lib", []);
      await createUserPath(sandbox, "new.ts", false, []);
    });
    expect(patched).toEqual(["model.txt"]);
    await revertSession(store, sb, s.id, user.id);
    expect(await exists(sb, "model.txt")).toBe(false);
    expect(await exists(sb, "old.txt")).toBe(false);
    expect(await exists(sb, "draft.md")).toBe(false);
    expect(await text(sb, "docs/final.md")).toBe("draft\n");
    expect(await text(sb, "src/lib/a.ts")).toBe("a\n");
    expect(await exists(sb, "lib/a.ts")).toBe(false);
    expect(await exists(sb, "new.ts")).toBe(true);
  });
});

describe("a folder too big or too deep to check", () => {
  it("is neither deleted nor moved from the Files panel (a protected file past the walk's bounds would go unchecked)", async () => {
    const deep = `${Array.from({ length: 34 }, (_, i) => `d${i}`).join("/")}/leaf.txt`;
    const sb = await createLocalSandboxForTests({ files: { [deep]: "x" } });
    const del = await deleteUserPath(sb, "d0", []);
    expect(del).toEqual({ ok: false, message: expect.stringContaining("d0/ holds more than 50,000 files or nests deeper than 32 folders") });
    expect(await sb.fs.exists(`/workspace/${deep}`)).toBe(true);
    const moved = await renameUserPath(sb, "d0", "e0", []);
    expect(moved.ok).toBe(false);
    expect(await sb.fs.exists(`/workspace/${deep}`)).toBe(true);
  });
});
