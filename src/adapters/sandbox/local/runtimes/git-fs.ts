/**
 * isomorphic-git's filesystem over the sandbox's own filesystem (the one
 * every shell command uses), so git's reads and writes are tracked,
 * persisted and subject to the same rules as `echo > file`.
 */
import type { IFileSystem } from "just-bash";

/** Node-style error with `code`, recognised by isomorphic-git. */
function withCode(e: unknown): Error {
  const err = e instanceof Error ? e : new Error(String(e));
  const code = /^([A-Z]+):/.exec(err.message)?.[1];
  if (code) Object.assign(err, { code });
  return err;
}

async function wrap<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    throw withCode(e);
  }
}

export interface GitStat {
  type: "file" | "dir" | "symlink";
  mode: number;
  size: number;
  ino: number;
  mtimeMs: number;
  ctimeMs: number;
  uid: number;
  gid: number;
  dev: number;
  isFile(): boolean;
  isDirectory(): boolean;
  isSymbolicLink(): boolean;
}

function toStat(s: Awaited<ReturnType<IFileSystem["stat"]>>): GitStat {
  const type = s.isSymbolicLink ? "symlink" : s.isDirectory ? "dir" : "file";
  const mtimeMs = s.mtime.getTime();
  return {
    type,
    mode: s.isDirectory ? 0o40000 | (s.mode & 0o777) : s.isSymbolicLink ? 0o120000 : 0o100000 | (s.mode & 0o777),
    size: s.size,
    // git's index compares modification times in whole seconds, so a same-size rewrite within the
    // second of a commit looked unchanged ("racy git"). The milliseconds stand in for the inode,
    // which the index also compares.
    ino: mtimeMs % 2 ** 31,
    mtimeMs,
    ctimeMs: mtimeMs,
    uid: 1,
    gid: 1,
    dev: 1,
    isFile: () => type === "file",
    isDirectory: () => type === "dir",
    isSymbolicLink: () => type === "symlink",
  };
}

type Data = Uint8Array | string;

/**
 * What isomorphic-git reads as "not a directory": its walker lists every file
 * as if it were one, so this is thrown a thousand times in a thousand-file
 * tree. One shared error, not a fresh one (and its stack) per file.
 */
const NOT_A_DIRECTORY = Object.assign(new Error("ENOTDIR: not a directory"), { code: "ENOTDIR" });

/**
 * The promise-style fs object isomorphic-git accepts as `fs`. Make one per
 * git command: it remembers, for that command only, which paths its
 * listings showed to be files (the walker asks to list each of them) and the
 * stats of files under `.git` (the index is stat'ed once per work-tree file to
 * see whether it changed); both are forgotten when the command writes there.
 */
export function gitFs(fs: IFileSystem) {
  const files = new Set<string>();
  const gitStats = new Map<string, GitStat>();
  const forget = (path: string) => {
    files.delete(path);
    gitStats.delete(path);
  };
  const changing = <T>(path: string, fn: () => Promise<T>) => {
    forget(path);
    return wrap(fn).finally(() => forget(path));
  };
  const lstat = async (path: string): Promise<GitStat> => {
    const hit = gitStats.get(path);
    if (hit) return hit;
    const st = toStat(await fs.lstat(path));
    if (path.includes("/.git/")) gitStats.set(path, st);
    return st;
  };
  const promises = {
    readFile: (path: string, opts?: { encoding?: string } | string) =>
      wrap(async (): Promise<Data> => {
        const enc = typeof opts === "string" ? opts : opts?.encoding;
        return enc === "utf8" || enc === "utf-8" ? fs.readFile(path, "utf8") : fs.readFileBuffer(path);
      }),
    writeFile: (path: string, data: Data, _opts?: unknown) => changing(path, () => fs.writeFile(path, data)),
    unlink: (path: string) =>
      changing(path, async () => {
        if (!(await fs.exists(path))) throw new Error(`ENOENT: no such file or directory, unlink '${path}'`);
        await fs.rm(path);
      }),
    readdir: async (path: string) => {
      if (files.has(path)) throw NOT_A_DIRECTORY;
      return wrap(async () => {
        if (!fs.readdirWithFileTypes) return fs.readdir(path);
        const entries = await fs.readdirWithFileTypes(path);
        for (const e of entries) if (e.isFile) files.add(`${path.replace(/\/+$/, "")}/${e.name}`);
        return entries.map((e) => e.name);
      });
    },
    mkdir: (path: string, _opts?: unknown) => changing(path, () => fs.mkdir(path)),
    rmdir: (path: string) => changing(path, () => fs.rm(path, { recursive: false })),
    stat: (path: string) => wrap(async () => toStat(await fs.stat(path))),
    lstat: (path: string) => wrap(() => lstat(path)),
    readlink: (path: string) => wrap(() => fs.readlink(path)),
    symlink: (target: string, path: string) => changing(path, () => fs.symlink(target, path)),
    chmod: (path: string, mode: number) => changing(path, () => fs.chmod(path, mode)),
  };
  return { promises };
}
