/**
 * `git` as a just-bash command through isomorphic-git over the sandbox
 * filesystem (the repository is the workspace's `.git`). Covers the everyday
 * subcommands with their common flags; others say the local sandbox lacks them.
 */
import type { CustomCommand, defineCommand as DefineCommand } from "just-bash";
import { joinPath, normalizePath } from "../../../../core/sandbox-path";
import { gitFs } from "./git-fs";
import {
  branchCmd,
  commitCmd,
  diffCmd,
  type Env,
  fail,
  ok,
  type Result,
  repoPaths,
  resolve,
  restoreFiles,
  stageAll,
  switchTo,
  unknownRevision,
  unstage,
} from "./git-ops";
import { blob, currentBranch, fileDiff, formatCommit, type GitCtx, headOid, log, oids, opts, status } from "./git-porcelain";

type IsoGit = typeof import("isomorphic-git");

async function findRepo(git: IsoGit, fs: unknown, cwd: string, root: string): Promise<string | undefined> {
  try {
    const dir = await git.findRoot({ fs: fs as never, filepath: cwd });
    return dir === root || dir.startsWith(`${root}/`) ? dir : undefined;
  } catch {
    return undefined;
  }
}

async function showCmd(c: GitCtx, args: string[]): Promise<Result> {
  const o = opts(c);
  const rev = args.find((a) => !a.startsWith("-")) ?? "HEAD";
  if (rev.includes(":")) {
    const [r, path] = rev.split(":");
    const tree = await oids(c, { ref: await resolve(c, r || "HEAD") });
    const data = await blob(c, tree.get(path ?? ""));
    if (!data) return fail(`fatal: path '${path}' does not exist in '${r || "HEAD"}'`, 128);
    return ok(new TextDecoder().decode(data));
  }
  const oid = await resolve(c, rev);
  const [entry] = await c.git.log({ ...o, ref: oid, depth: 1 });
  if (!entry) return fail(`fatal: bad object ${rev}`, 128);
  const parent = entry.commit.parent[0];
  const before = parent ? await oids(c, { ref: parent }) : new Map<string, string>();
  const after = await oids(c, { ref: oid });
  let diff = "";
  if (!args.includes("--no-patch") && !args.includes("-s")) {
    for (const f of [...new Set([...before.keys(), ...after.keys()])].sort())
      diff += fileDiff(f, await blob(c, before.get(f)), await blob(c, after.get(f)));
  }
  const head = formatCommit(entry, args.includes("--oneline"));
  return ok(diff ? `${head}${args.includes("--oneline") ? "" : "\n"}${diff}` : head);
}

async function revParse(c: GitCtx, args: string[]): Promise<Result> {
  const out: string[] = [];
  const short = args.includes("--short");
  const abbrev = args.includes("--abbrev-ref");
  for (const a of args.filter((x) => !x.startsWith("-"))) {
    if (abbrev && a === "HEAD") out.push((await currentBranch(c)) ?? "HEAD");
    else {
      const oid = await resolve(c, a);
      out.push(short ? oid.slice(0, 7) : oid);
    }
  }
  if (args.includes("--show-toplevel")) out.push(c.dir);
  if (args.includes("--is-inside-work-tree")) out.push("true");
  if (args.includes("--git-dir")) out.push(".git");
  return ok(out.map((l) => `${l}\n`).join(""));
}

async function resetCmd(c: GitCtx, e: Env, args: string[]): Promise<Result> {
  const o = opts(c);
  const hard = args.includes("--hard");
  const dd = args.indexOf("--");
  const words = args.filter((a, i) => !a.startsWith("-") && (dd < 0 || i < dd));
  const pathArgs = dd >= 0 ? args.slice(dd + 1) : [];
  const first = words[0];
  const target = first ? await resolve(c, first).catch(() => undefined) : undefined;
  if (first && !target && !pathArgs.length && !(await e.fs.exists(joinPath(e.cwd, first)))) return fail(`fatal: ${unknownRevision(first)}`, 128);
  if (pathArgs.length || (first && !target)) {
    await unstage(c, repoPaths(c, e.cwd, pathArgs.length ? pathArgs : words));
    return ok();
  }
  const oid = target ?? (await headOid(c));
  if (!oid) return fail("fatal: no commits yet", 128);
  const branch = await currentBranch(c);
  await c.git.writeRef({
    ...o,
    ref: branch ? `refs/heads/${branch}` : "HEAD",
    value: oid,
    force: true,
  });
  if (hard) {
    await c.git.checkout({ ...o, ref: branch ?? oid, force: true });
    const [entry] = await c.git.log({ ...o, ref: oid, depth: 1 });
    return ok(`HEAD is now at ${oid.slice(0, 7)} ${entry?.commit.message.split("\n")[0] ?? ""}\n`);
  }
  await unstage(c, ["."]);
  return ok();
}

async function run(git: IsoGit, e: Env, args: string[]): Promise<Result> {
  const fs = gitFs(e.fs);
  const [sub = "", ...rest] = args;
  if (sub === "--version" || sub === "version") return ok("git version 2.43.0 (isomorphic-git)\n");
  if (!sub || sub === "help" || sub === "--help") return ok(`usage: git <command> [<args>]\n\nThe local sandbox's git has: ${GIT_HAS}.\n`);
  if (sub === "init") {
    const target = rest.find((a, i) => !a.startsWith("-") && rest[i - 1] !== "-b");
    const dir = normalizePath(target ? (target.startsWith("/") ? target : joinPath(e.cwd, target)) : e.cwd);
    if (dir !== e.root && !dir.startsWith(`${e.root}/`)) return fail(`fatal: git init works inside the workspace (${e.root}) only`, 128);
    const existed = await e.fs.exists(joinPath(dir, ".git"));
    const b = rest.find((a) => a.startsWith("--initial-branch="))?.slice(17) ?? (rest.includes("-b") ? rest[rest.indexOf("-b") + 1] : undefined);
    await git.init({ fs, dir, defaultBranch: b ?? "main" });
    return ok(`${existed ? "Reinitialized existing" : "Initialized empty"} Git repository in ${dir}/.git/\n`);
  }
  const dir = await findRepo(git, fs, e.cwd, e.root);
  if (!dir) return fail("fatal: not a git repository (or any of the parent directories): .git", 128);
  const c: GitCtx = { git, fs, dir, cache: {} };
  const o = opts(c);
  switch (sub) {
    case "status":
      return ok(await status(c, rest.includes("-s") || rest.includes("--short") || rest.includes("--porcelain")));
    case "add": {
      const all = rest.includes("-A") || rest.includes("--all");
      const paths = rest.filter((a) => !a.startsWith("-"));
      if (!all && !paths.length) return fail("Nothing specified, nothing added.");
      await stageAll(c, all ? ["."] : repoPaths(c, e.cwd, paths), true);
      return ok();
    }
    case "rm": {
      const cached = rest.includes("--cached");
      for (const p of repoPaths(
        c,
        e.cwd,
        rest.filter((a) => !a.startsWith("-")),
      )) {
        await git.remove({ ...o, filepath: p });
        if (!cached) await e.fs.rm(joinPath(dir, p), { recursive: true, force: true });
        ok();
      }
      return ok();
    }
    case "commit":
      return commitCmd(c, e, rest);
    case "log": {
      if (!(await headOid(c))) return fail(`fatal: your current branch '${(await currentBranch(c)) ?? "HEAD"}' does not have any commits yet`, 128);
      const n = rest.find((a) => /^-\d+$/.test(a)) ?? (rest.includes("-n") ? `-${rest[rest.indexOf("-n") + 1]}` : undefined);
      const ref = rest.find((a, i) => !a.startsWith("-") && rest[i - 1] !== "-n") ?? "HEAD";
      return ok(await log(c, await resolve(c, ref), rest.includes("--oneline"), n ? Number(n.slice(1)) : undefined));
    }
    case "diff":
      return diffCmd(c, e, rest);
    case "show":
      return showCmd(c, rest);
    case "branch":
      return branchCmd(c, rest);
    case "switch":
    case "checkout": {
      const create = rest.find((a) => a === "-b" || a === "-c" || a === "-B" || a === "-C");
      const dd = rest.indexOf("--");
      if (
        dd >= 0 ||
        (sub === "checkout" &&
          rest.length > 0 &&
          !create &&
          (await e.fs.exists(joinPath(e.cwd, rest[0] ?? ""))) &&
          !(await git.listBranches(o)).includes(rest[0] ?? ""))
      ) {
        const from = dd > 0 ? (rest[0] ?? "stage") : "stage";
        await restoreFiles(c, e, repoPaths(c, e.cwd, dd >= 0 ? rest.slice(dd + 1) : rest), from);
        return ok();
      }
      const name = create ? rest[rest.indexOf(create) + 1] : rest.find((a) => !a.startsWith("-"));
      if (!name) return fail(`fatal: missing branch name`, 128);
      return switchTo(c, name, !!create, rest.includes("-f") || rest.includes("--force"));
    }
    case "restore": {
      const staged = rest.includes("--staged") || rest.includes("-S");
      const src = rest.find((a) => a.startsWith("--source="))?.slice(9);
      const files = repoPaths(
        c,
        e.cwd,
        rest.filter((a) => !a.startsWith("-")),
      );
      if (!files.length) return fail("fatal: you must specify path(s) to restore", 128);
      if (staged) await unstage(c, files);
      if (!staged || rest.includes("--worktree") || rest.includes("-W")) await restoreFiles(c, e, files, src ?? "stage");
      return ok();
    }
    case "reset":
      return resetCmd(c, e, rest);
    case "rev-parse":
      return revParse(c, rest);
    case "config": {
      const keys = rest.filter((a) => !a.startsWith("--"));
      const [path, value] = keys;
      if (!path) return fail("usage: git config <name> [<value>]", 129);
      if (value === undefined) {
        const v = await git.getConfig({ ...o, path });
        return v === undefined ? { stdout: "", stderr: "", exitCode: 1 } : ok(`${String(v)}\n`);
      }
      await git.setConfig({ ...o, path, value });
      return ok();
    }
    default:
      return fail(
        `git: '${sub}' is not available in the local sandbox's git (it has: ${GIT_HAS}). The WebContainer backend has no git either; remotes (clone, push, fetch) need a network.`,
      );
  }
}

const GIT_HAS = "init, status, add, rm, commit, log, diff, show, branch, checkout, switch, restore, reset, rev-parse, config";

/** isomorphic-git uses Node's `Buffer`, which browsers and Workers lack: install the polyfill first. */
async function ensureBuffer(): Promise<void> {
  const g = globalThis as { Buffer?: unknown };
  if (g.Buffer) return;
  // "buffer/" is the npm polyfill, not Node's built-in module.
  g.Buffer = (await import("buffer/")).Buffer;
}

export function gitCommand(defineCommand: typeof DefineCommand, root: string): CustomCommand {
  return defineCommand("git", async (args, ctx) => {
    let git: IsoGit;
    try {
      await ensureBuffer();
      git = await import("isomorphic-git");
    } catch (e) {
      return fail(`git: could not load the git engine (${e instanceof Error ? e.message : String(e)})`);
    }
    // `git -C dir …`
    let cwd = ctx.cwd;
    let a = args;
    while (a[0] === "-C" && a[1]) {
      cwd = normalizePath(a[1].startsWith("/") ? a[1] : joinPath(cwd, a[1]));
      a = a.slice(2);
    }
    try {
      return await run(git, { fs: ctx.fs, cwd, env: ctx.env, root }, a);
    } catch (e) {
      const msg = e instanceof Error ? e.message : String(e);
      const missing = /^Could not find ([0-9a-f]{40})\.?$/.exec(msg)?.[1];
      if (missing) return fail(`fatal: bad object ${missing.slice(0, 7)}: the repository in .git is damaged (an object it needs is missing)`, 128);
      return fail(`fatal: ${msg}`, 128);
    }
  });
}
