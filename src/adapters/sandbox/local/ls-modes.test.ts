/**
 * `ls -l` shows each entry's own mode, as `stat` does: just-bash wrote every file `-rw-r--r--` and every directory
 * `drwxr-xr-x`, a symlink as its target, and a dangling one as an empty file. Real just-bash; the modes also
 * come back from the store. A row the fix cannot match to an entry stays as ls wrote it.
 */
import { describe, expect, it } from "vitest";
import type { LocalSandbox } from "./local-sandbox";
import { longListing, lsTime, modeString } from "./ls-long";
import { createLocalSandboxForTests } from "./testing";
import { MemoryWorkspaceStore } from "./workspace-store";

const FILES = { "run.sh": "echo hi\n", secret: "s\n", "my file.txt": "x\n", "d/a.txt": "a\n", "d/e/b.txt": "b\n" };
const SETUP = "chmod +x run.sh && chmod 600 secret && chmod 700 d && chmod 1777 d/e && ln -s run.sh link && ln -s nothere dangling";

/** The rows of `ls -l` output by name (the indicator and a link's target kept): `name → mode`. */
function modes(out: string): Record<string, string> {
  const got: Record<string, string> = {};
  for (const line of out.split("\n")) {
    const m = /^([-dl][-rwxsStT]{9}) 1 user user +\S+ \w{3} [ \d]\d (?: \d{4}|\d\d:\d\d) (.+)$/.exec(line);
    if (m?.[1] && m[2]) got[m[2]] = m[1];
  }
  return got;
}

async function sandbox(store = new MemoryWorkspaceStore()): Promise<LocalSandbox> {
  const sb = await createLocalSandboxForTests({ store, files: FILES });
  expect((await sb.exec(SETUP)).exitCode).toBe(0);
  return sb;
}

describe("ls -l modes", () => {
  it("files, directories and links list with their own modes", async () => {
    const sb = await sandbox();
    expect(modes((await sb.exec("ls -l")).stdout)).toEqual({
      "d/": "drwx------",
      "dangling -> nothere": "lrwxrwxrwx",
      "link -> run.sh": "lrwxrwxrwx",
      "my file.txt": "-rw-r--r--",
      "run.sh": "-rwxr-xr-x",
      secret: "-rw-------",
    });
    // A link's row is the link's own: its size is the length of its target.
    expect((await sb.exec("ls -l link")).stdout).toMatch(/^lrwxrwxrwx 1 user user {5}6 \w{3} [ \d]\d \d\d:\d\d link -> run\.sh\n$/);
  });

  it("every form of the command line: -la, -ld, dir/, several operands, -lah, -lt, -lF, -lR, a quoted glob", async () => {
    const sb = await sandbox();
    expect(modes((await sb.exec("ls -la d")).stdout)).toEqual({ ".": "drwx------", "..": "drwxr-xr-x", "a.txt": "-rw-r--r--", "e/": "drwxrwxrwt" });
    expect(modes((await sb.exec("ls -ld d d/e")).stdout)).toEqual({ "d/": "drwx------", "d/e/": "drwxrwxrwt" });
    expect(modes((await sb.exec("ls -l d/")).stdout)).toEqual({ "a.txt": "-rw-r--r--", "e/": "drwxrwxrwt" });
    expect(modes((await sb.exec("ls -l run.sh secret 'my file.txt'")).stdout)).toEqual({
      "run.sh": "-rwxr-xr-x",
      secret: "-rw-------",
      "my file.txt": "-rw-r--r--",
    });
    expect(modes((await sb.exec("ls -lah")).stdout)).toMatchObject({ ".": "drwxr-xr-x", "d/": "drwx------", "run.sh": "-rwxr-xr-x", secret: "-rw-------" });
    expect(modes((await sb.exec("ls -lt")).stdout)).toMatchObject({ "d/": "drwx------", "run.sh": "-rwxr-xr-x", secret: "-rw-------" });
    expect(modes((await sb.exec("ls -lF")).stdout)).toMatchObject({ "run.sh*": "-rwxr-xr-x", secret: "-rw-------", "link -> run.sh": "lrwxrwxrwx" });
    expect(modes((await sb.exec("ls -l '*.sh'")).stdout)).toEqual({ "run.sh": "-rwxr-xr-x" });
    // A file operand, then a directory: the directory's rows are its entries, not files of the working directory.
    await sb.exec("chmod 640 d/a.txt && cp d/a.txt a.txt && chmod 604 a.txt");
    expect((await sb.exec("ls -l a.txt d")).stdout).toMatch(/^-rw----r-- .* a\.txt\n\nd:\ntotal 2\n-rw-r----- .* a\.txt\n/);
    // Recursive: each section's rows are its own directory's.
    const r = (await sb.exec("ls -lR")).stdout;
    expect(r).toMatch(/^\.\/d:\ntotal 2\n-rw-r----- .* a\.txt\ndrwxrwxrwt .* e\/\n/m);
    expect(r).toMatch(/^-rwxr-xr-x .* run\.sh$/m);
  });

  it("the modes come back with the workspace from the store", async () => {
    const store = new MemoryWorkspaceStore();
    await sandbox(store);
    const again = await createLocalSandboxForTests({ store });
    expect(modes((await again.exec("ls -l")).stdout)).toMatchObject({ "d/": "drwx------", "run.sh": "-rwxr-xr-x", secret: "-rw-------" });
  });
});

describe("rows the fix cannot place", () => {
  it("stay as ls wrote them: a name not found, a size or type that is not the entry's, two entries that fit", async () => {
    const { InMemoryFs } = await import("just-bash");
    const fs = new InMemoryFs();
    await fs.mkdir("/w", { recursive: true });
    for (const name of ["x", "a", "a*"]) await fs.writeFile(`/w/${name}`, "12");
    await fs.chmod("/w/x", 0o600);
    await fs.chmod("/w/a", 0o755);
    const time = lsTime((await fs.stat("/w/x")).mtime);
    const rows = [
      `-rw-r--r-- 1 user user     2 ${time} gone`,
      `-rw-r--r-- 1 user user     3 ${time} x`,
      `drwxr-xr-x 1 user user     2 ${time} x`,
      `-rw-r--r-- 1 user user     2 ${time} a*`,
      "-rw-r--r-- 1 user user     2 Jan  1 00:00 x",
    ];
    const stdout = `${rows.join("\n")}\n`;
    const out = await longListing(["-lF"], { fs, cwd: "/w" }, { stdout, stderr: "", exitCode: 0 });
    expect(out.stdout).toBe(stdout);
    // The control: the same row with the file's own size and time is fixed.
    const fixed = await longListing(["-l"], { fs, cwd: "/w" }, { stdout: `-rw-r--r-- 1 user user     2 ${time} x\n`, stderr: "", exitCode: 0 });
    expect(fixed.stdout).toBe(`-rw------- 1 user user     2 ${time} x\n`);
  });
});

describe("modeString", () => {
  it("writes the permission bits, set-id and sticky bits as ls does", () => {
    expect(modeString("-", 0o644)).toBe("-rw-r--r--");
    expect(modeString("-", 0o755)).toBe("-rwxr-xr-x");
    expect(modeString("d", 0o1777)).toBe("drwxrwxrwt");
    expect(modeString("d", 0o1770)).toBe("drwxrwx--T");
    expect(modeString("-", 0o4755)).toBe("-rwsr-xr-x");
    expect(modeString("-", 0o2644)).toBe("-rw-r-Sr--");
    expect(modeString("l", 0o777)).toBe("lrwxrwxrwx");
  });
});
