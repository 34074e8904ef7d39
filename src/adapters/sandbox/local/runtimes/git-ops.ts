/**
 * git subcommands that change or compare things (commit, diff, branch,
 * switch, restore…) over isomorphic-git; `git-command.ts` dispatches.
 *
 */
import type { IFileSystem } from "just-bash";
import { joinPath, normalizePath } from "../../../../core/sandbox-path";
import { blob, currentBranch, fileDiff, type GitCtx, headOid, matrix, oids, opts, stagedKind, status, unstagedKind } from "./git-porcelain";

type Result = { stdout: string; stderr: string; exitCode: number };
const ok = (stdout = ""): Result => ({ stdout, stderr: "", exitCode: 0 });
const fail = (stderr: string, exitCode = 1): Result => ({
  stdout: "",
  stderr: stderr.endsWith("\n") ? stderr : `${stderr}\n`,
  exitCode,
});

interface Env {
  fs: IFileSystem;
  cwd: string;
  env: Map<string, string>;
  root: string;
}

async function readWork(fs: IFileSystem, dir: string, path: string): Promise<Uint8Array | undefined> {
  try {
    return await fs.readFileBuffer(joinPath(dir, path));
  } catch {
    return undefined;
  }
}

/** Paths given on the command line, relative to the repository. */
function repoPaths(c: GitCtx, cwd: string, args: string[]): string[] {
  return args.map((a) => {
    const abs = normalizePath(a.startsWith("/") ? a : joinPath(cwd, a));
    return abs === c.dir ? "." : abs.slice(c.dir.length + 1);
  });
}

function under(paths: string[], file: string): boolean {
  return paths.some((p) => p === "." || file === p || file.startsWith(`${p}/`));
}

async function author(c: GitCtx, env: Map<string, string>): Promise<{ name: string; email: string }> {
  const o = opts(c);
  const name = env.get("GIT_AUTHOR_NAME") ?? ((await c.git.getConfig({ ...o, path: "user.name" })) as string | undefined) ?? "tabcode";
  const email = env.get("GIT_AUTHOR_EMAIL") ?? ((await c.git.getConfig({ ...o, path: "user.email" })) as string | undefined) ?? "tabcode@localhost";
  return { name, email };
}

async function stageAll(c: GitCtx, paths: string[], includeUntracked: boolean): Promise<void> {
  const o = opts(c);
  const add: string[] = [];
  for (const r of await matrix(c)) {
    if (!under(paths, r[0])) continue;
    const u = unstagedKind(r);
    if (u === "deleted") await c.git.remove({ ...o, filepath: r[0] });
    else if (u === "modified" || (u === "untracked" && includeUntracked)) add.push(r[0]);
  }
  // One call for all: the index is read and written once, not once per file.
  if (add.length) await c.git.add({ ...o, filepath: add });
}

async function resolve(c: GitCtx, rev: string): Promise<string> {
  const o = opts(c);
  const m = /^(.*?)(~(\d*)|\^+)$/.exec(rev);
  if (m) {
    const back = m[2]?.startsWith("~") ? Number(m[3] || 1) : (m[2]?.length ?? 1);
    const entries = await c.git.log({
      ...o,
      ref: m[1] || "HEAD",
      depth: back + 1,
    });
    const e = entries[back];
    if (!e) throw new Error(unknownRevision(rev));
    return e.oid;
  }
  try {
    return await c.git.resolveRef({ ...o, ref: rev });
  } catch {
    try {
      return await c.git.expandOid({ ...o, oid: rev });
    } catch {
      throw new Error(unknownRevision(rev));
    }
  }
}

/** Real git's words for a name that is neither a ref, a commit nor a path. */
function unknownRevision(rev: string): string {
  return `ambiguous argument '${rev}': unknown revision or path not in the working tree.`;
}

async function diffCmd(c: GitCtx, e: Env, args: string[]): Promise<Result> {
  const cached = args.includes("--cached") || args.includes("--staged");
  const nameOnly = args.includes("--name-only");
  const stat = args.includes("--stat");
  const rest = args.filter((a) => !a.startsWith("-"));
  let revs: string[] = [];
  let paths: string[] = [];
  const dd = args.indexOf("--");
  if (dd >= 0) {
    revs = args.slice(0, dd).filter((a) => !a.startsWith("-"));
    paths = repoPaths(c, e.cwd, args.slice(dd + 1));
  } else {
    for (const a of rest) {
      if (await e.fs.exists(a.startsWith("/") ? a : joinPath(e.cwd, a))) paths.push(...repoPaths(c, e.cwd, [a]));
      else revs.push(a);
    }
  }
  let before: Map<string, string>;
  let after: (p: string) => Promise<Uint8Array | undefined>;
  let files: Set<string>;
  const stage = await oids(c, "stage");
  if (revs.length >= 2 || cached || revs.length === 1) {
    const baseRev = revs[0] ?? "HEAD";
    before = (await headOid(c)) || revs.length ? await oids(c, { ref: await resolve(c, baseRev) }) : new Map();
    if (revs.length >= 2) {
      const target = await oids(c, {
        ref: await resolve(c, revs[1] ?? "HEAD"),
      });
      after = (p) => blob(c, target.get(p));
      files = new Set([...before.keys(), ...target.keys()]);
    } else if (cached) {
      after = (p) => blob(c, stage.get(p));
      files = new Set([...before.keys(), ...stage.keys()]);
    } else {
      after = (p) => readWork(e.fs, c.dir, p);
      files = new Set([...before.keys(), ...stage.keys()]);
    }
  } else {
    before = stage;
    after = (p) => readWork(e.fs, c.dir, p);
    files = new Set(stage.keys());
  }
  let out = "";
  const changed: string[] = [];
  for (const f of [...files].sort()) {
    if (paths.length && !under(paths, f)) continue;
    const d = fileDiff(f, await blob(c, before.get(f)), await after(f));
    if (!d) continue;
    changed.push(f);
    out += d;
  }
  if (nameOnly) return ok(changed.map((f) => `${f}\n`).join(""));
  if (stat)
    return ok(changed.length ? `${changed.map((f) => ` ${f}\n`).join("")} ${changed.length} file${changed.length === 1 ? "" : "s"} changed\n` : "");
  return ok(out);
}

async function commitCmd(c: GitCtx, e: Env, args: string[]): Promise<Result> {
  const o = opts(c);
  const msgs: string[] = [];
  let all = false;
  let allowEmpty = false;
  let amend = false;
  // `-qam msg` is `-q -a -m msg`.
  args = args.flatMap((a) => (/^-[a-z]{2,}$/.test(a) ? [...a.slice(1)].map((ch) => `-${ch}`) : [a]));
  for (let i = 0; i < args.length; i++) {
    const a = args[i] ?? "";
    if (a === "-m" || a === "--message") msgs.push(args[++i] ?? "");
    else if (a.startsWith("--message=")) msgs.push(a.slice(10));
    else if (a === "-a" || a === "--all") all = true;
    else if (a === "-am") {
      all = true;
      msgs.push(args[++i] ?? "");
    } else if (a === "--allow-empty") allowEmpty = true;
    else if (a === "--amend") amend = true;
    else if (a === "-q" || a === "--quiet" || a === "--no-verify" || a === "-n") continue;
    else return fail(`git commit: option '${a}' is not supported in the local sandbox`, 129);
  }
  if (all) await stageAll(c, ["."], false);
  const rows = await matrix(c);
  const staged = rows.filter((r) => stagedKind(r));
  const parent = await headOid(c);
  if (!msgs.length && amend && parent) msgs.push((await c.git.readCommit({ ...o, oid: parent })).commit.message);
  if (!msgs.length) return fail("Aborting commit: give the message with -m (the local sandbox has no editor).");
  if (!staged.length && !allowEmpty && !amend) {
    return { stdout: await status(c, false), stderr: "", exitCode: 1 };
  }
  const message = msgs.join("\n\n");
  let parents: string[] | undefined;
  if (amend && parent) parents = (await c.git.readCommit({ ...o, oid: parent })).commit.parent;
  const oid = await c.git.commit({
    ...o,
    message,
    author: await author(c, e.env),
    ...(parents ? { parent: parents } : {}),
  });
  const branch = (await currentBranch(c)) ?? "detached HEAD";
  const root = !parent || (parents && parents.length === 0) ? " (root-commit)" : "";
  const n = staged.length;
  return ok(`[${branch}${root} ${oid.slice(0, 7)}] ${message.split("\n")[0]}\n ${n} file${n === 1 ? "" : "s"} changed\n`);
}

async function branchCmd(c: GitCtx, args: string[]): Promise<Result> {
  const o = opts(c);
  const del = args.find((a) => a === "-d" || a === "-D" || a === "--delete");
  const names = args.filter((a) => !a.startsWith("-"));
  if (del) {
    const have = await c.git.listBranches(o);
    const missing = names.find((n) => !have.includes(n));
    if (missing) return fail(`error: branch '${missing}' not found.`);
    for (const ref of names) await c.git.deleteBranch({ ...o, ref });
    return ok(names.map((n) => `Deleted branch ${n}.\n`).join(""));
  }
  if (args.includes("--show-current")) return ok(`${(await currentBranch(c)) ?? ""}\n`);
  if (names[0]) {
    await c.git.branch({
      ...o,
      ref: names[0],
      object: names[1] ? await resolve(c, names[1]) : undefined,
    });
    return ok();
  }
  const cur = await currentBranch(c);
  const list = await c.git.listBranches(o);
  return ok(list.map((b) => `${b === cur ? "*" : " "} ${b}\n`).join(""));
}

async function switchTo(c: GitCtx, ref: string, create: boolean, force: boolean): Promise<Result> {
  const o = opts(c);
  if (create) {
    await c.git.branch({ ...o, ref, checkout: true });
    return {
      stdout: "",
      stderr: `Switched to a new branch '${ref}'\n`,
      exitCode: 0,
    };
  }
  const branches = await c.git.listBranches(o);
  if (!branches.includes(ref)) {
    const oid = await resolve(c, ref).catch(() => undefined);
    if (!oid) return fail(`error: pathspec '${ref}' did not match any file(s) known to git`);
    await c.git.checkout({ ...o, ref: oid, force });
    return {
      stdout: "",
      stderr: `HEAD is now at ${oid.slice(0, 7)}\n`,
      exitCode: 0,
    };
  }
  await c.git.checkout({ ...o, ref, force });
  return { stdout: "", stderr: `Switched to branch '${ref}'\n`, exitCode: 0 };
}

/** Puts files back from the index (or a commit) into the work tree. */
async function restoreFiles(c: GitCtx, e: Env, files: string[], from: "stage" | string): Promise<void> {
  const src = from === "stage" ? await oids(c, "stage") : await oids(c, { ref: await resolve(c, from) });
  for (const f of [...src.keys()].filter((k) => under(files, k))) {
    const data = await blob(c, src.get(f));
    const abs = joinPath(c.dir, f);
    await e.fs.mkdir(abs.slice(0, abs.lastIndexOf("/")), { recursive: true });
    if (data) await e.fs.writeFile(abs, data);
  }
}

async function unstage(c: GitCtx, files: string[]): Promise<void> {
  const o = opts(c);
  const head = await headOid(c);
  for (const r of await matrix(c))
    if (under(files, r[0]))
      await c.git.resetIndex({
        ...o,
        filepath: r[0],
        ...(head ? { ref: head } : {}),
      });
}

export type { Env, Result };
export { author, branchCmd, unknownRevision, commitCmd, diffCmd, fail, ok, readWork, repoPaths, resolve, restoreFiles, stageAll, switchTo, under, unstage };
