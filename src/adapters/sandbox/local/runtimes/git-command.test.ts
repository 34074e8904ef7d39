import { describe, expect, it } from "vitest";
import { createLocalSandboxForTests } from "../testing";
import { MemoryWorkspaceStore } from "../workspace-store";

async function repo(files: Record<string, string> = { "a.txt": "one\n", "src/b.py": "print(1)\n" }) {
  const sb = await createLocalSandboxForTests({ files, runtimes: { git: true }, store: new MemoryWorkspaceStore() });
  const run = async (cmd: string) => {
    const r = await sb.exec(cmd, { env: { GIT_AUTHOR_NAME: "Ada", GIT_AUTHOR_EMAIL: "ada@example.com" } });
    return r;
  };
  return { sb, run };
}

describe("git in the local sandbox (isomorphic-git)", () => {
  it("init, status, add -A, commit, log --oneline, like real git", async () => {
    const { sb, run } = await repo();
    expect((await run("git status")).stderr).toContain("fatal: not a git repository");
    expect((await run("git init")).stdout).toBe("Initialized empty Git repository in /workspace/.git/\n");
    const st = await run("git status");
    expect(st.stdout).toContain("On branch main\n\nNo commits yet\n");
    expect(st.stdout).toContain("Untracked files:");
    expect(st.stdout).toContain("\ta.txt\n\tsrc/b.py\n");
    await run("git add -A");
    expect((await run("git status --short")).stdout).toBe("A  a.txt\nA  src/b.py\n");
    const c = await run('git commit -m "first"');
    expect(c.stdout).toMatch(/^\[main \(root-commit\) [0-9a-f]{7}\] first\n 2 files changed\n$/);
    expect((await run("git status")).stdout).toBe("On branch main\nnothing to commit, working tree clean\n");
    await sb.fs.writeFile("/workspace/a.txt", "two\n");
    await run("git commit -am 'second'");
    const log = await run("git log --oneline");
    expect(log.stdout).toMatch(/^[0-9a-f]{7} second\n[0-9a-f]{7} first\n$/);
    const full = await run("git log -1");
    expect(full.stdout).toMatch(
      /^commit [0-9a-f]{40}\nAuthor: Ada <ada@example.com>\nDate: {3}\w{3} \w{3} \d+ [\d:]{8} \d{4} [+-]\d{4}\n\n {4}second\n$/,
    );
    expect(await sb.fs.exists("/workspace/.git/HEAD")).toBe(true);
  });

  it("diff (work tree, --cached), show and rev-parse", async () => {
    const { sb, run } = await repo();
    await run("git init && git add . && git commit -m base");
    await sb.fs.writeFile("/workspace/a.txt", "one\nmore\n");
    const d = await run("git diff");
    expect(d.stdout).toBe("diff --git a/a.txt b/a.txt\n--- a/a.txt\n+++ b/a.txt\n@@ -1,1 +1,2 @@\n one\n+more\n");
    expect((await run("git diff --cached")).stdout).toBe("");
    await run("git add a.txt");
    expect((await run("git diff --cached --name-only")).stdout).toBe("a.txt\n");
    await run("git commit -m 'more'");
    const show = await run("git show");
    expect(show.stdout).toContain("    more\n\ndiff --git a/a.txt b/a.txt");
    expect((await run("git show HEAD~1:a.txt")).stdout).toBe("one\n");
    const head = (await run("git rev-parse HEAD")).stdout.trim();
    expect(head).toMatch(/^[0-9a-f]{40}$/);
    expect((await run("git rev-parse --short HEAD")).stdout).toBe(`${head.slice(0, 7)}\n`);
    expect((await run("git rev-parse --abbrev-ref HEAD")).stdout).toBe("main\n");
  });

  it("branch, switch -c, checkout back restores the files", async () => {
    const { sb, run } = await repo();
    await run("git init && git add -A && git commit -m base");
    expect((await run("git switch -c feature")).stderr).toBe("Switched to a new branch 'feature'\n");
    await sb.fs.writeFile("/workspace/a.txt", "feature\n");
    await run("git commit -am feat");
    expect((await run("git branch")).stdout).toBe("* feature\n  main\n");
    await run("git checkout main");
    expect(await sb.fs.readText("/workspace/a.txt")).toBe("one\n");
    expect((await run("git branch --show-current")).stdout).toBe("main\n");
  });

  it("restore, restore --staged and reset --hard", async () => {
    const { sb, run } = await repo();
    await run("git init && git add -A && git commit -m base");
    await sb.fs.writeFile("/workspace/a.txt", "broken\n");
    await run("git restore a.txt");
    expect(await sb.fs.readText("/workspace/a.txt")).toBe("one\n");
    await sb.fs.writeFile("/workspace/a.txt", "staged\n");
    await run("git add a.txt && git restore --staged a.txt");
    expect((await run("git status -s")).stdout).toBe(" M a.txt\n");
    await run("git commit -am two");
    const reset = await run("git reset --hard HEAD~1");
    expect(reset.stdout).toMatch(/^HEAD is now at [0-9a-f]{7} base\n$/);
    expect(await sb.fs.readText("/workspace/a.txt")).toBe("one\n");
    expect((await run("git log --oneline")).stdout.trim().split("\n")).toHaveLength(1);
  });

  it("the repository is part of snapshots: revert restores history", async () => {
    const { sb, run } = await repo();
    await run("git init && git add -A && git commit -m base");
    const snap = await sb.snapshot();
    await sb.fs.writeFile("/workspace/a.txt", "x\n");
    await run("git commit -am later");
    expect((await run("git log --oneline")).stdout.trim().split("\n")).toHaveLength(2);
    await sb.restore(snap);
    expect((await run("git log --oneline")).stdout).toMatch(/^[0-9a-f]{7} base\n$/);
    expect((await run("git status --short")).stdout).toBe("");
  });

  it("explains what it lacks and refuses to work outside the workspace", async () => {
    const { run } = await repo();
    await run("git init");
    const push = await run("git push origin main");
    expect(push.exitCode).toBe(1);
    expect(push.stderr).toContain("'push' is not available in the local sandbox's git");
    expect((await run("git init /tmp/x")).stderr).toContain("inside the workspace");
    expect((await run("cd /tmp && git status")).stderr).toContain("not a git repository");
    const empty = await run("git commit -m nothing");
    expect(empty.exitCode).toBe(1);
    expect(empty.stdout).toContain("nothing added to commit");
  });
});

describe("git on bad input", () => {
  it("not a repository, unknown revisions and branches, a damaged repository: git's own words, files untouched", async () => {
    const { sb, run } = await repo();
    const outside = await run("git log");
    expect([outside.exitCode, outside.stderr]).toEqual([128, "fatal: not a git repository (or any of the parent directories): .git\n"]);
    await run("git init -q");
    expect((await run("git log")).stderr).toBe("fatal: your current branch 'main' does not have any commits yet\n");
    await run("git add -A && git commit -qm base");
    const unknown = (rev: string) => `fatal: ambiguous argument '${rev}': unknown revision or path not in the working tree.\n`;
    for (const [cmd, rev] of [
      ["git log nope", "nope"],
      ["git show deadbeef", "deadbeef"],
      ["git diff nope", "nope"],
      ["git rev-parse nope", "nope"],
      ["git reset --hard nope", "nope"],
      ["git log HEAD~5", "HEAD~5"],
    ] as const) {
      const r = await run(cmd);
      expect([cmd, r.exitCode, r.stderr]).toEqual([cmd, 128, unknown(rev)]);
    }
    expect((await run("git show HEAD:missing.txt")).stderr).toBe("fatal: path 'missing.txt' does not exist in 'HEAD'\n");
    expect((await run("git switch nope")).stderr).toBe("error: pathspec 'nope' did not match any file(s) known to git\n");
    expect((await run("git branch -d nope")).stderr).toBe("error: branch 'nope' not found.\n");
    expect((await run("git branch 'bad name..'")).stderr).toContain('"bad name.." would be an invalid git reference');
    expect(await sb.fs.readText("/workspace/a.txt")).toBe("one\n");
    await run("rm -rf .git/objects");
    const damaged = await run("git status");
    expect(damaged.exitCode).toBe(128);
    expect(damaged.stderr).toMatch(/^fatal: bad object [0-9a-f]{7}: the repository in \.git is damaged \(an object it needs is missing\)\n$/);
    expect(await sb.fs.readText("/workspace/src/b.py")).toBe("print(1)\n");
  });
});

describe("commands no local engine runs", () => {
  it("node and npm name what is missing and where it runs", async () => {
    const { run } = await repo();
    for (const cmd of ["node app.js", "npm install"]) {
      const r = await run(cmd);
      expect(r.exitCode).toBe(127);
      expect(r.stderr).toContain("the local sandbox has no Node.js");
      expect(r.stderr).toContain("WebContainer backend (Settings → Sandbox) runs full Node.js and npm");
    }
  });
});
