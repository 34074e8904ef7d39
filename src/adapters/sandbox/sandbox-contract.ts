/**
 * The contract every sandbox backend passes. A backend's test file calls
 * `sandboxContract(name, make)`; `make` returns a fresh, empty workspace.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Sandbox } from "../../core/ports/sandbox";

/** A sandbox under test, plus a probe into its snapshot store. */
export interface ContractSubject {
  sandbox: Sandbox;
  /** Distinct blobs held by the backing snapshot store. */
  countBlobs(): Promise<number>;
  dispose?(): Promise<void>;
}

const enc = new TextEncoder();

export function sandboxContract(name: string, make: () => Promise<ContractSubject>): void {
  describe(`sandbox contract: ${name}`, () => {
    let subject: ContractSubject;
    let sb: Sandbox;
    const at = (rel: string) => `${sb.root}/${rel}`;

    beforeEach(async () => {
      subject = await make();
      sb = subject.sandbox;
    });
    afterEach(async () => {
      await subject.dispose?.();
    });

    describe("fs", () => {
      it("writes and reads text, creating parent directories", async () => {
        await sb.fs.writeFile(at("a/b/c.txt"), "héllo ✓\n");
        expect(await sb.fs.readText(at("a/b/c.txt"))).toBe("héllo ✓\n");
        expect(await sb.fs.exists(at("a/b"))).toBe(true);
      });

      it("writes and reads bytes unchanged", async () => {
        const bytes = new Uint8Array([0, 1, 127, 128, 255, 10]);
        await sb.fs.writeFile(at("bin.dat"), bytes);
        expect([...(await sb.fs.readFile(at("bin.dat")))]).toEqual([...bytes]);
      });

      it("overwrites a file", async () => {
        await sb.fs.writeFile(at("f.txt"), "one");
        await sb.fs.writeFile(at("f.txt"), "two");
        expect(await sb.fs.readText(at("f.txt"))).toBe("two");
      });

      it("lists direct children with types, sorted by name", async () => {
        await sb.fs.writeFile(at("d/zeta.txt"), "z");
        await sb.fs.writeFile(at("d/alpha.txt"), "abc");
        await sb.fs.writeFile(at("d/mid/inner.txt"), "i");
        const list = await sb.fs.list(at("d"));
        expect(list.map((e) => [e.name, e.type])).toEqual([
          ["alpha.txt", "file"],
          ["mid", "directory"],
          ["zeta.txt", "file"],
        ]);
        expect(list[0]?.path).toBe(at("d/alpha.txt"));
        expect(list[0]?.size).toBe(3);
      });

      it("rejects listing a missing path or a file", async () => {
        await sb.fs.writeFile(at("file.txt"), "x");
        await expect(sb.fs.list(at("nope"))).rejects.toThrow();
        await expect(sb.fs.list(at("file.txt"))).rejects.toThrow();
      });

      it("stats files and directories; undefined when missing", async () => {
        await sb.fs.writeFile(at("s/f.txt"), "12345");
        const f = await sb.fs.stat(at("s/f.txt"));
        expect(f).toMatchObject({ name: "f.txt", path: at("s/f.txt"), type: "file", size: 5 });
        expect(f?.mtime).toBeGreaterThan(0);
        expect((await sb.fs.stat(at("s")))?.type).toBe("directory");
        expect(await sb.fs.stat(at("missing"))).toBeUndefined();
      });

      it("mkdir -p creates nested directories and tolerates existing ones", async () => {
        await sb.fs.mkdir(at("x/y/z"));
        await sb.fs.mkdir(at("x/y/z"));
        expect((await sb.fs.stat(at("x/y/z")))?.type).toBe("directory");
      });

      it("rm -r removes trees and ignores missing paths", async () => {
        await sb.fs.writeFile(at("r/a/1.txt"), "1");
        await sb.fs.writeFile(at("r/2.txt"), "2");
        await sb.fs.rm(at("r"));
        expect(await sb.fs.exists(at("r"))).toBe(false);
        expect(await sb.fs.exists(at("r/a/1.txt"))).toBe(false);
        await sb.fs.rm(at("never-there"));
      });

      it("renames files and directories", async () => {
        await sb.fs.writeFile(at("old.txt"), "content");
        await sb.fs.rename(at("old.txt"), at("new.txt"));
        expect(await sb.fs.exists(at("old.txt"))).toBe(false);
        expect(await sb.fs.readText(at("new.txt"))).toBe("content");
        await sb.fs.writeFile(at("dir1/inner.txt"), "in");
        await sb.fs.rename(at("dir1"), at("dir2"));
        expect(await sb.fs.readText(at("dir2/inner.txt"))).toBe("in");
        expect(await sb.fs.exists(at("dir1"))).toBe(false);
      });

      it("rejects reading missing files", async () => {
        await expect(sb.fs.readFile(at("missing.txt"))).rejects.toThrow();
        await expect(sb.fs.readText(at("missing.txt"))).rejects.toThrow();
      });
    });

    describe("exec", () => {
      it("returns stdout and exit code 0, running in the root by default", async () => {
        const r = await sb.exec("echo hello; pwd");
        expect(r.exitCode).toBe(0);
        expect(r.stdout).toBe(`hello\n${sb.root}\n`);
        expect(r.timedOut).toBe(false);
        expect(r.aborted).toBe(false);
      });

      it("reports stderr and the exit code", async () => {
        const r = await sb.exec("echo out; echo oops >&2; exit 3");
        expect(r.exitCode).toBe(3);
        expect(r.combined).toContain("out");
        expect(r.combined).toContain("oops");
        expect(r.stdout + r.stderr).toContain("oops");
      });

      it("honours the cwd option", async () => {
        await sb.fs.mkdir(at("sub/dir"));
        const r = await sb.exec("pwd", { cwd: at("sub/dir") });
        expect(r.stdout.trim()).toBe(at("sub/dir"));
      });

      it("passes env variables", async () => {
        const r = await sb.exec('echo "v=$TABCODE_TEST"', { env: { TABCODE_TEST: "bar" } });
        expect(r.stdout.trim()).toBe("v=bar");
      });

      it("shares the filesystem with the fs API both ways", async () => {
        await sb.fs.writeFile(at("in.txt"), "from fs\n");
        const r = await sb.exec("cat in.txt; echo 'from shell' > out.txt; mkdir -p made/here");
        expect(r.stdout).toBe("from fs\n");
        expect(await sb.fs.readText(at("out.txt"))).toBe("from shell\n");
        expect((await sb.fs.stat(at("made/here")))?.type).toBe("directory");
      });

      it("stops a command at its timeout", async () => {
        const started = Date.now();
        const r = await sb.exec("sleep 5; echo late", { timeoutMs: 200 });
        expect(r.timedOut).toBe(true);
        expect(r.aborted).toBe(false);
        expect(r.exitCode).not.toBe(0);
        expect(r.stdout).not.toContain("late");
        expect(Date.now() - started).toBeLessThan(4000);
      });

      it("stops a command when its signal aborts", async () => {
        const ac = new AbortController();
        setTimeout(() => ac.abort(), 100);
        const r = await sb.exec("sleep 5; echo late", { signal: ac.signal });
        expect(r.aborted).toBe(true);
        expect(r.stdout).not.toContain("late");
      });

      it("does not run when the signal is already aborted", async () => {
        const ac = new AbortController();
        ac.abort();
        const r = await sb.exec("echo ran > ran.txt", { signal: ac.signal });
        expect(r.aborted).toBe(true);
        expect(await sb.fs.exists(at("ran.txt"))).toBe(false);
      });

      it("calls onOutput with the output", async () => {
        const chunks: string[] = [];
        await sb.exec("echo streamed", { onOutput: (c) => chunks.push(c) });
        expect(chunks.join("")).toContain("streamed");
      });
    });

    describe("snapshots", () => {
      it("reports changed paths and reads files at a snapshot", async () => {
        await sb.fs.writeFile(at("keep.txt"), "keep");
        await sb.fs.writeFile(at("mod.txt"), "before");
        await sb.fs.writeFile(at("del.txt"), "bye");
        const a = await sb.snapshot();
        await sb.fs.writeFile(at("mod.txt"), "after");
        await sb.fs.rm(at("del.txt"));
        await sb.exec("mkdir -p src && echo new > src/new.txt");
        const b = await sb.snapshot();
        expect(await sb.changed(a, b)).toEqual(["del.txt", "mod.txt", "src/new.txt"]);
        expect(await sb.changed(a, a)).toEqual([]);
        const text = (bytes: Uint8Array | undefined) => (bytes ? new TextDecoder().decode(bytes) : bytes);
        expect(text(await sb.readAt(a, "mod.txt"))).toBe("before");
        expect(text(await sb.readAt(b, "mod.txt"))).toBe("after");
        expect(await sb.readAt(a, "src/new.txt")).toBeUndefined();
        expect(await sb.readAt(b, "del.txt")).toBeUndefined();
      });

      it("reads a binary file back at a snapshot byte for byte", async () => {
        const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff, 0xfe, 0x80, 0xc3]);
        await sb.fs.writeFile(at("img.png"), png);
        const a = await sb.snapshot();
        await sb.fs.writeFile(at("img.png"), "overwritten");
        const back = await sb.readAt(a, "img.png");
        expect(back instanceof Uint8Array).toBe(true);
        expect([...(back ?? [])]).toEqual([...png]);
      });

      it("keeps plan files (.tabcode/plans) in snapshots, but not other scratch files", async () => {
        await sb.fs.writeFile(at(".tabcode/plans/plan.md"), "# Plan v1\n");
        await sb.fs.writeFile(at(".tabcode/tool-output/out.txt"), "scratch");
        const a = await sb.snapshot();
        await sb.fs.writeFile(at(".tabcode/plans/plan.md"), "# Plan v2\n");
        await sb.fs.writeFile(at(".tabcode/plans/extra.md"), "later\n");
        const b = await sb.snapshot();
        expect(await sb.changed(a, b)).toEqual([".tabcode/plans/extra.md", ".tabcode/plans/plan.md"]);
        await sb.restore(a);
        expect(await sb.fs.readText(at(".tabcode/plans/plan.md"))).toBe("# Plan v1\n");
        expect(await sb.fs.exists(at(".tabcode/plans/extra.md"))).toBe(false);
        expect(await sb.fs.readText(at(".tabcode/tool-output/out.txt"))).toBe("scratch");
      });

      it("gives equal workspaces equal hashes", async () => {
        await sb.fs.writeFile(at("a.txt"), "a");
        const h1 = await sb.snapshot();
        const h2 = await sb.snapshot();
        expect(h2).toBe(h1);
      });

      it("restores a snapshot exactly (files, deletions, empty directories)", async () => {
        await sb.fs.writeFile(at("a.txt"), "A1");
        await sb.fs.writeFile(at("dir/b.txt"), "B1");
        await sb.fs.mkdir(at("empty"));
        const a = await sb.snapshot();
        await sb.fs.writeFile(at("a.txt"), "A2");
        await sb.fs.rm(at("dir"));
        await sb.fs.rm(at("empty"));
        await sb.fs.writeFile(at("extra/c.txt"), "C");
        const b = await sb.snapshot();
        await sb.restore(a);
        expect(await sb.fs.readText(at("a.txt"))).toBe("A1");
        expect(await sb.fs.readText(at("dir/b.txt"))).toBe("B1");
        expect((await sb.fs.stat(at("empty")))?.type).toBe("directory");
        expect(await sb.fs.exists(at("extra"))).toBe(false);
        expect(await sb.snapshot()).toBe(a);
        await sb.restore(b);
        expect(await sb.fs.readText(at("a.txt"))).toBe("A2");
        expect(await sb.fs.exists(at("dir"))).toBe(false);
        expect(await sb.snapshot()).toBe(b);
      });

      it("leaves node_modules out of snapshots and restores", async () => {
        await sb.fs.writeFile(at("index.js"), "1");
        const a = await sb.snapshot();
        await sb.fs.writeFile(at("node_modules/pkg/index.js"), "dep");
        const b = await sb.snapshot();
        expect(b).toBe(a);
        await sb.fs.writeFile(at("index.js"), "2");
        await sb.restore(a);
        expect(await sb.fs.readText(at("node_modules/pkg/index.js"))).toBe("dep");
        expect(await sb.fs.readText(at("index.js"))).toBe("1");
      });

      it("stores identical content once", async () => {
        const base = await sb.snapshot();
        const before = await subject.countBlobs();
        for (let i = 0; i < 20; i++) await sb.fs.writeFile(at(`copies/f${i}.txt`), "same content");
        await sb.fs.writeFile(at("bytes.bin"), enc.encode("same content"));
        const s1 = await sb.snapshot();
        expect((await subject.countBlobs()) - before).toBe(1);
        await sb.snapshot();
        expect((await subject.countBlobs()) - before).toBe(1);
        await sb.fs.writeFile(at("copies/f3.txt"), "different");
        const s2 = await sb.snapshot();
        expect((await subject.countBlobs()) - before).toBe(2);
        expect(await sb.changed(s1, s2)).toEqual(["copies/f3.txt"]);
        expect((await sb.changed(base, s1)).length).toBe(21);
      });

      it("rejects an unknown snapshot hash", async () => {
        await expect(sb.restore("0".repeat(64))).rejects.toThrow(/^The files from that point are not in this browser/);
      });
    });
  });
}
