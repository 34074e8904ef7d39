/**
 * `ls -l` shows each entry's own time: a file written now today's, and every file and directory the time it had
 * after the workspace is loaded again from the store; `.` and `..` the times of the directories they name.
 * Real just-bash, IndexedDB store (fake-indexeddb).
 */
import "fake-indexeddb/auto";
import { describe, expect, it } from "vitest";
import { DexieWorkspaceStore } from "./dexie-workspace-store";
import { LocalSandbox } from "./local-sandbox";
import { lsTime } from "./ls-long";

let n = 0;

/** The rows of `ls -l` output by name: `name → "Mon dd hh:mm"` (or the year). */
function rows(out: string): Record<string, string> {
  const got: Record<string, string> = {};
  for (const line of out.split("\n")) {
    const m = /^[-dl]\S+ 1 user user +\d+ (\w{3} [ \d]\d (?: \d{4}|\d\d:\d\d)) (.+?)\/?$/.exec(line);
    if (m?.[1] && m[2]) got[m[2]] = m[1];
  }
  return got;
}

describe("ls -l dates", () => {
  it("a file written now lists with today's date and time", async () => {
    const sb = await LocalSandbox.open({ workspace: "w", store: new DexieWorkspaceStore(`ls-${n++}`) });
    const before = Date.now();
    const r = await sb.exec("echo hi > now.txt; ls -l now.txt");
    const st = await sb.fs.stat("/workspace/now.txt");
    expect(st?.mtime).toBeGreaterThanOrEqual(before - 1);
    expect(st?.mtime).toBeLessThanOrEqual(Date.now());
    expect(r.stdout).toBe(`-rw-r--r-- 1 user user     3 ${lsTime(new Date(st?.mtime ?? 0))} now.txt\n`);
    expect(r.stdout).not.toContain("Jan  1 00:00");
  });

  it("files and directories keep their times across a reload of the workspace", async () => {
    const store = new DexieWorkspaceStore(`ls-${n++}`);
    const a = await LocalSandbox.open({ workspace: "w", store });
    await a.exec("mkdir -p d/e && echo x > d/new.txt && touch -d '2020-03-04 05:06' d/old.txt && touch -d '2021-05-06 07:08' d && chmod 700 d/e");
    const made = (await a.fs.stat("/workspace/d/new.txt"))?.mtime ?? 0;
    const e = (await a.fs.stat("/workspace/d/e"))?.mtime ?? 0;
    await new Promise((r) => setTimeout(r, 20));
    const b = await LocalSandbox.open({ workspace: "w", store });
    expect((await b.fs.stat("/workspace/d/new.txt"))?.mtime).toBe(made);
    expect((await b.fs.stat("/workspace/d"))?.mtime).toBe(new Date(2021, 4, 6, 7, 8).getTime());
    expect((await b.fs.stat("/workspace/d/e"))?.mtime).toBe(e);
    expect(rows((await b.exec("ls -l")).stdout)).toEqual({ d: "May  6  2021" });
    expect(rows((await b.exec("ls -la d")).stdout)).toEqual({
      ".": "May  6  2021",
      "..": lsTime(new Date((await b.fs.stat("/workspace"))?.mtime ?? 0)),
      e: lsTime(new Date(e)),
      "new.txt": lsTime(new Date(made)),
      "old.txt": "Mar  4  2020",
    });
    // A directory's mode comes back with it.
    expect((await b.exec("stat -c %a d/e")).stdout).toBe("700\n");
  });

  it("`.` and `..` are dated as the directories they name, in every section of a listing", async () => {
    const sb = await LocalSandbox.open({ workspace: "w", store: new DexieWorkspaceStore(`ls-${n++}`) });
    await sb.exec("mkdir -p a/b && touch -d '2019-01-02 03:04' a && touch -d '2018-05-06 07:08' a/b");
    const out = (await sb.exec("ls -la a a/b; cd a/b && ls -la; ls -laR ..")).stdout;
    expect(out).not.toContain("Jan  1 00:00");
    const sections = out.split(/\n(?=\S+:\n|total )/);
    expect(sections.filter((s) => / Jan {2}2 {2}2019 \.$/m.test(s))).toHaveLength(2);
    expect(out).toMatch(/^a:\ntotal \d+\n.* Jan {2}2 {2}2019 \.\n/m);
    expect(out).toMatch(/^a\/b:\ntotal \d+\n.* May {2}6 {2}2018 \.\n.* Jan {2}2 {2}2019 \.\.\n/m);
  });
});

describe("lsTime", () => {
  it("writes the time of day within six months and the year before", () => {
    const now = new Date(2026, 11, 7, 14, 1).getTime();
    expect(lsTime(new Date(2026, 11, 7, 9, 5), now)).toBe("Dec  7 09:05");
    expect(lsTime(new Date(2026, 6, 1, 0, 0), now)).toBe("Jul  1 00:00");
    expect(lsTime(new Date(2020, 2, 4, 5, 6), now)).toBe("Mar  4  2020");
  });
});
