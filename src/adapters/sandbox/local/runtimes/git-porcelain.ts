/**
 * Git's read-side output (status, log, diff, show), built from
 * isomorphic-git's plumbing and formatted close to real git's, so models
 * that know git read it naturally.
 */
import { structuredPatch } from "diff";

type IsoGit = typeof import("isomorphic-git");
export interface GitCtx {
  git: IsoGit;
  fs: unknown;
  dir: string;
  /** isomorphic-git's parsed index and packs, shared by every call of one command. */
  cache: object;
}
type Fs = Parameters<IsoGit["statusMatrix"]>[0]["fs"];
/** The arguments every isomorphic-git call of a command shares. */
export const opts = (c: GitCtx) => ({ fs: c.fs as Fs, dir: c.dir, cache: c.cache });

/** tabcode's scratch directory is never part of a repository. */
export const gitFilter = (f: string): boolean => f !== ".tabcode" && !f.startsWith(".tabcode/");

export type Row = [string, 0 | 1, 0 | 1 | 2, 0 | 1 | 2 | 3];

export async function matrix(c: GitCtx, filepaths?: string[]): Promise<Row[]> {
  return (await c.git.statusMatrix({
    ...opts(c),
    filter: gitFilter,
    filepaths,
  })) as Row[];
}

export function stagedKind([, head, , stage]: Row): "new file" | "deleted" | "modified" | undefined {
  if (head === 0 && stage !== 0) return "new file";
  if (head === 1 && stage === 0) return "deleted";
  if (head === 1 && (stage === 2 || stage === 3)) return "modified";
  return undefined;
}

export function unstagedKind([, head, workdir, stage]: Row): "deleted" | "modified" | "untracked" | undefined {
  if (head === 0 && stage === 0) return workdir === 2 ? "untracked" : undefined;
  if (stage !== 0 && workdir === 0) return "deleted";
  if ((stage === 1 && workdir === 2) || stage === 3) return "modified";
  return undefined;
}

export async function currentBranch(c: GitCtx): Promise<string | undefined> {
  return (await c.git.currentBranch({ ...opts(c), fullname: false })) ?? undefined;
}

export async function headOid(c: GitCtx): Promise<string | undefined> {
  try {
    return await c.git.resolveRef({ ...opts(c), ref: "HEAD" });
  } catch {
    return undefined;
  }
}

export async function status(c: GitCtx, short: boolean): Promise<string> {
  const rows = await matrix(c);
  if (short) {
    const letter = { "new file": "A", deleted: "D", modified: "M" } as const;
    return rows
      .map((r) => {
        const u = unstagedKind(r);
        if (u === "untracked") return `?? ${r[0]}\n`;
        const s = stagedKind(r);
        if (!s && !u) return "";
        return `${s ? letter[s] : " "}${u === "deleted" ? "D" : u === "modified" ? "M" : " "} ${r[0]}\n`;
      })
      .join("");
  }
  const branch = await currentBranch(c);
  let out = branch ? `On branch ${branch}\n` : "HEAD detached\n";
  if (!(await headOid(c))) out += "\nNo commits yet\n";
  const staged = rows.flatMap((r) => {
    const k = stagedKind(r);
    return k ? [`\t${`${k}:`.padEnd(12)}${r[0]}\n`] : [];
  });
  const unstaged = rows.flatMap((r) => {
    const k = unstagedKind(r);
    return k && k !== "untracked" ? [`\t${`${k}:`.padEnd(12)}${r[0]}\n`] : [];
  });
  const untracked = rows.filter((r) => unstagedKind(r) === "untracked").map((r) => `\t${r[0]}\n`);
  if (staged.length) out += `\nChanges to be committed:\n  (use "git restore --staged <file>..." to unstage)\n${staged.join("")}`;
  if (unstaged.length)
    out += `\nChanges not staged for commit:\n  (use "git add <file>..." to update what will be committed)\n  (use "git restore <file>..." to discard changes in working directory)\n${unstaged.join("")}`;
  if (untracked.length) out += `\nUntracked files:\n  (use "git add <file>..." to include in what will be committed)\n${untracked.join("")}`;
  if (!staged.length && !unstaged.length && !untracked.length) out += "nothing to commit, working tree clean\n";
  else if (!staged.length && unstaged.length) out += `\nno changes added to commit (use "git add" and/or "git commit -a")\n`;
  else if (!staged.length) out += `\nnothing added to commit but untracked files present (use "git add" to track)\n`;
  return out;
}

function gitDate(ts: number, tz: number): string {
  const d = new Date((ts - tz * 60) * 1000);
  const day = d.toUTCString().slice(0, 3);
  const mon = d.toUTCString().slice(8, 11);
  const time = d.toISOString().slice(11, 19);
  const off = -tz;
  const sign = off >= 0 ? "+" : "-";
  const hh = String(Math.floor(Math.abs(off) / 60)).padStart(2, "0");
  const mm = String(Math.abs(off) % 60).padStart(2, "0");
  return `${day} ${mon} ${d.getUTCDate()} ${time} ${d.getUTCFullYear()} ${sign}${hh}${mm}`;
}

type Commit = Awaited<ReturnType<IsoGit["log"]>>[number];

export function formatCommit(e: Commit, oneline: boolean): string {
  const msg = e.commit.message.replace(/\n+$/, "");
  if (oneline) return `${e.oid.slice(0, 7)} ${msg.split("\n")[0]}\n`;
  const a = e.commit.author;
  const body = msg
    .split("\n")
    .map((l) => (l ? `    ${l}` : ""))
    .join("\n");
  return `commit ${e.oid}\nAuthor: ${a.name} <${a.email}>\nDate:   ${gitDate(a.timestamp, a.timezoneOffset)}\n\n${body}\n`;
}

export async function log(c: GitCtx, ref: string, oneline: boolean, depth?: number): Promise<string> {
  const entries = await c.git.log({ ...opts(c), ref, depth });
  return entries.map((e) => formatCommit(e, oneline)).join(oneline ? "" : "\n");
}

function isBinary(b: Uint8Array): boolean {
  return b.subarray(0, 8000).includes(0);
}

/** One file's diff in git's format ("" when equal). */
export function fileDiff(path: string, before: Uint8Array | undefined, after: Uint8Array | undefined): string {
  const dec = new TextDecoder();
  if (before && after && before.length === after.length && before.every((v, i) => v === after[i])) return "";
  let head = `diff --git a/${path} b/${path}\n`;
  if (!before) head += "new file mode 100644\n";
  if (!after) head += "deleted file mode 100644\n";
  if ((before && isBinary(before)) || (after && isBinary(after))) return `${head}Binary files differ\n`;
  const p = structuredPatch(`a/${path}`, `b/${path}`, before ? dec.decode(before) : "", after ? dec.decode(after) : "", "", "", { context: 3 });
  let out = `${head}--- ${before ? `a/${path}` : "/dev/null"}\n+++ ${after ? `b/${path}` : "/dev/null"}\n`;
  for (const h of p.hunks) {
    out += `@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@\n`;
    out += `${h.lines.join("\n")}\n`;
  }
  return out;
}

/** Every file's blob id in a commit's tree, the index (STAGE) or the work tree. */
export async function oids(c: GitCtx, which: "stage" | { ref: string }): Promise<Map<string, string>> {
  const tree = which === "stage" ? c.git.STAGE() : c.git.TREE({ ref: which.ref });
  const out = new Map<string, string>();
  await c.git.walk({
    ...opts(c),
    trees: [tree],
    map: async (filepath, [e]) => {
      if (!e || filepath === ".") return true;
      if ((await e.type()) === "blob") {
        const oid = await e.oid();
        if (oid) out.set(filepath, oid);
      }
      return true;
    },
  });
  return out;
}

export async function blob(c: GitCtx, oid: string | undefined): Promise<Uint8Array | undefined> {
  if (!oid) return undefined;
  return (await c.git.readBlob({ ...opts(c), oid })).blob;
}
