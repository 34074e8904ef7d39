import * as git from "isomorphic-git";
import { type IFileSystem, InMemoryFs } from "just-bash";
import { describe, expect, it } from "vitest";
import { gitFs } from "./git-fs";

/** The filesystem git sees, counting the calls that reach it by method and place ("git", "module" for the tracked files, "work"). */
function counting(inner: IFileSystem): { fs: IFileSystem; calls: Map<string, number> } {
  const calls = new Map<string, number>();
  const fs = new Proxy(inner, {
    get(target, key, receiver) {
      const v = Reflect.get(target, key, receiver);
      if (typeof v !== "function") return v;
      return (...args: unknown[]) => {
        const path = String(args[0]);
        const where = path.includes("/.git/") ? "git" : path.endsWith(".py") ? "module" : "work";
        const k = `${String(key)} ${where}`;
        calls.set(k, (calls.get(k) ?? 0) + 1);
        return v.apply(target, args);
      };
    },
  });
  return { fs, calls };
}

async function repo(n: number) {
  const mem = new InMemoryFs();
  for (let i = 0; i < n; i++) await mem.writeFile(`/w/pkg${i % 5}/m${i}.py`, `V = ${i}\n`, undefined);
  const dir = "/w";
  const author = { name: "Ada", email: "ada@example.com" };
  await git.init({ fs: gitFs(mem), dir });
  await git.add({ fs: gitFs(mem), dir, filepath: "." });
  await git.commit({ fs: gitFs(mem), dir, message: "base", author });
  return { mem, dir };
}

describe("git's filesystem adapter", () => {
  it("status of an unchanged tree reads no work-tree file, lists each directory once and stats the index once", async () => {
    const { mem, dir } = await repo(100);
    const { fs, calls } = counting(mem);
    const rows = await git.statusMatrix({ fs: gitFs(fs), dir });
    expect(rows).toHaveLength(100);
    expect(rows.every(([, h, w, s]) => h === 1 && w === 1 && s === 1)).toBe(true);
    expect(calls.get("readFileBuffer module") ?? 0).toBe(0);
    expect(calls.get("readdirWithFileTypes module") ?? 0).toBe(0);
    // The root, `.git` itself and the five directories: the walker's listing of each file is answered from those.
    expect(calls.get("readdirWithFileTypes work")).toBe(7);
    expect(calls.get("lstat git")).toBe(1);
  });

  it("still sees what changes during and between commands", async () => {
    const { mem, dir } = await repo(10);
    const fs = gitFs(mem);
    await mem.writeFile("/w/pkg1/m1.py", "V = 100\n", undefined);
    await mem.rm("/w/pkg2/m2.py");
    await mem.writeFile("/w/pkg2/m2.py/inner.py", "x\n", undefined);
    const rows = new Map((await git.statusMatrix({ fs, dir })).map((r) => [r[0], r.slice(1).join("")]));
    expect(rows.get("pkg1/m1.py")).toBe("121");
    expect(rows.get("pkg2/m2.py")).toBe("101");
    expect(rows.get("pkg2/m2.py/inner.py")).toBe("020");
    // The same adapter after git itself changed the index: the new stats count.
    await git.add({ fs, dir, filepath: "pkg1/m1.py" });
    const after = new Map((await git.statusMatrix({ fs, dir })).map((r) => [r[0], r.slice(1).join("")]));
    expect(after.get("pkg1/m1.py")).toBe("122");
  });
});
