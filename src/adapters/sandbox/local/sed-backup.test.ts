/**
 * `sed -i.bak` keeps the original as `file.bak`, as GNU sed does (just-bash's sed dropped the suffix, and refused
 * `--in-place=.bak` and `-Ei.bak`). The backup is written through the shell's filesystem: the path rules apply,
 * it is a change of the step like any file a command writes, it is kept in the store, and it is a byte copy that
 * the not-UTF-8 guard never refuses. Real just-bash.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_RULES } from "../../../core/permission/evaluate";
import { type PathRefusal, pathPolicy } from "../../../core/permission/path-policy";
import type { Ruleset } from "../../../core/schema";
import type { LocalSandbox } from "./local-sandbox";
import { sedInPlace } from "./sed-backup";
import { createLocalSandboxForTests } from "./testing";
import { MemoryWorkspaceStore } from "./workspace-store";

/** "café\n" in Latin-1. */
const LATIN1 = [0x63, 0x61, 0x66, 0xe9, 0x0a];
const FILES = { "a.txt": "one\r\ntwo\n", "b.txt": "one\n", "d/c.txt": "one\n", "l1.txt": new Uint8Array(LATIN1), "d/c.txt.bak": new Uint8Array(LATIN1) };

let sb: LocalSandbox;
let store: MemoryWorkspaceStore;
let clean: string;

beforeAll(async () => {
  store = new MemoryWorkspaceStore();
  sb = await createLocalSandboxForTests({ store, files: FILES });
  clean = await sb.snapshot();
});

const text = (path: string) => sb.fs.readText(`/workspace/${path}`);
const exists = (path: string) => sb.fs.exists(`/workspace/${path}`);

async function run(command: string, rules: Ruleset = DEFAULT_RULES) {
  await sb.restore(clean);
  const paths: PathRefusal[] = [];
  const r = await sb.exec(command, { guard: { policy: pathPolicy("/workspace", [rules]), pathRefused: (p) => paths.push(p) } });
  return { ...r, paths };
}

describe("sed -i with a backup suffix", () => {
  it("-i.bak keeps the original bytes, mode and time as file.bak and edits the file", async () => {
    await sb.restore(clean);
    await sb.exec("chmod 755 a.txt && touch -d '2020-03-04 05:06' a.txt");
    const r = await sb.exec("sed -i.bak s/one/ONE/ a.txt");
    expect(r).toMatchObject({ combined: "", exitCode: 0 });
    expect(await text("a.txt")).toBe("ONE\r\ntwo\n");
    expect(await text("a.txt.bak")).toBe("one\r\ntwo\n");
    expect((await sb.exec("stat -c %a a.txt.bak")).stdout).toBe("755\n");
    expect((await sb.fs.stat("/workspace/a.txt.bak"))?.mtime).toBe(new Date(2020, 2, 4, 5, 6).getTime());
  });

  it.each([
    ["sed --in-place=.orig s/one/ONE/ b.txt", "b.txt.orig"],
    ["sed -Ei.orig s/on+e/ONE/ b.txt", "b.txt.orig"],
    ["sed -n -i.orig -e s/one/ONE/p b.txt", "b.txt.orig"],
    ["sed -i'orig_*' s/one/ONE/ b.txt", "orig_b.txt"],
    ["mkdir bak && sed -i'bak/*' s/one/ONE/ b.txt", "bak/b.txt"],
    ["cd d && sed -i'*.orig' s/one/ONE/ ../b.txt", "b.txt.orig"],
  ])("%s backs up to %s", async (command, backup) => {
    const r = await run(command);
    expect(r.combined).toBe("");
    expect(r.exitCode).toBe(0);
    expect(await text("b.txt")).toBe("ONE\n");
    expect(await text(backup)).toBe("one\n");
  });

  it("each file of the line gets its own backup", async () => {
    const r = await run("sed -i.bak s/one/ONE/ b.txt d/c.txt");
    expect(r.exitCode).toBe(0);
    expect([await text("b.txt"), await text("d/c.txt")]).toEqual(["ONE\n", "ONE\n"]);
    expect([await text("b.txt.bak"), await text("d/c.txt.bak")]).toEqual(["one\n", "one\n"]);
  });

  it("-i alone, --in-place, --in-place= and -i'*' make none", async () => {
    const r = await run("sed -i s/one/ONE/ b.txt && sed --in-place s/ONE/1/ b.txt && sed --in-place= s/1/i/ b.txt && sed -i'*' s/i/I/ b.txt && ls");
    expect(r.stdout).toBe("a.txt\nb.txt\nd\nl1.txt\n");
    expect(await text("b.txt")).toBe("I\n");
  });

  it("a backup directory that is missing fails before the edit, as GNU's sed does", async () => {
    const r = await run("sed -i'nothere/*' s/one/ONE/ b.txt");
    expect(r.combined).toBe("sed: cannot rename b.txt: No such file or directory\n");
    expect(r.exitCode).toBe(4);
    expect(await text("b.txt")).toBe("one\n");
  });

  it("the store keeps the backup, and it is one of the step's changes", async () => {
    await sb.restore(clean);
    const before = await sb.snapshot();
    await sb.exec("sed -i.bak s/one/ONE/ b.txt");
    const after = await sb.snapshot();
    expect((await sb.changed(before, after)).sort()).toEqual(["b.txt", "b.txt.bak"]);
    const again = await createLocalSandboxForTests({ store });
    expect(await again.fs.readText("/workspace/b.txt.bak")).toBe("one\n");
    expect((await again.fs.list("/workspace")).map((e) => e.name)).toContain("b.txt.bak");
  });
});

describe("sed -i.bak and the guards", () => {
  it("a backup onto a protected path is refused in the guard's words, and the file is left as it was", async () => {
    const rules: Ruleset = [...DEFAULT_RULES, { permission: "protect", pattern: "*.bak", action: "deny" }];
    const r = await run("sed -i.bak s/one/ONE/ b.txt", rules);
    expect(r.combined).toBe('sed: b.txt.bak: write refused — protected by your rule "protect *.bak"\n');
    expect(r.exitCode).not.toBe(0);
    expect(await text("b.txt")).toBe("one\n");
    expect(await exists("b.txt.bak")).toBe(false);
    expect(r.paths.map((p) => p.path)).toEqual(["/workspace/b.txt.bak"]);
  });

  it("a protected file is not edited and gets no backup; the file before it has its own", async () => {
    const rules: Ruleset = [...DEFAULT_RULES, { permission: "protect", pattern: "b.txt", action: "deny" }];
    const r = await run("sed -i.bak s/one/ONE/ a.txt b.txt", rules);
    expect(r.combined).toBe('sed: b.txt: write refused — protected by your rule "protect b.txt"\n');
    expect([await text("a.txt"), await text("a.txt.bak")]).toEqual(["ONE\r\ntwo\n", "one\r\ntwo\n"]);
    expect(await text("b.txt")).toBe("one\n");
    expect(await exists("b.txt.bak")).toBe(false);
  });

  it("a file that is not UTF-8 is refused as before and gets no backup; the file before it has its own", async () => {
    const r = await run("sed -i.bak s/one/ONE/ b.txt l1.txt");
    expect(r.combined).toBe("sed: l1.txt: not UTF-8 text, left unchanged (writing it back as text would replace its other bytes)\n");
    expect([await text("b.txt"), await text("b.txt.bak")]).toEqual(["ONE\n", "one\n"]);
    expect(await exists("l1.txt.bak")).toBe(false);
  });

  it("the backup is a byte copy: written over a file sed read that is not UTF-8, it is not refused", async () => {
    // `r c.txt.bak` reads the Latin-1 file as text; the backup then takes its place, byte for byte.
    const r = await run("cd d && sed -i.bak -e '$r c.txt.bak' -e s/one/ONE/ c.txt");
    expect(r.combined).toBe("");
    expect(r.exitCode).toBe(0);
    expect(await text("d/c.txt.bak")).toBe("one\n");
  });
});

describe("sedInPlace", () => {
  it("reads the suffix as GNU's sed does", () => {
    expect(sedInPlace(["-i", "s/a/b/", "f"])).toBeUndefined();
    expect(sedInPlace(["-i.bak", "s/a/b/", "f", "g"])).toEqual({ args: ["-i", "s/a/b/"], files: ["f", "g"], backup: "*.bak" });
    expect(sedInPlace(["-ni.bak", "-e", "p", "f"])).toEqual({ args: ["-n", "-i", "-e", "p"], files: ["f"], backup: "*.bak" });
    // `-ie` is -i with the suffix "e" (a well-known surprise of GNU's sed), and `-ei` the script "i".
    expect(sedInPlace(["-ie", "s/a/b/", "f"])?.backup).toBe("*e");
    expect(sedInPlace(["-ei", "f"])).toBeUndefined();
    expect(sedInPlace(["--in-place=", "s/a/b/", "f"])).toEqual({ args: ["-i", "s/a/b/"], files: ["f"], backup: undefined });
    expect(sedInPlace(["-f", "x.sed", "-i~", "f"])).toEqual({ args: ["-f", "x.sed", "-i"], files: ["f"], backup: "*~" });
  });
});
