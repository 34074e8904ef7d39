/**
 * The filesystem the local shell (and every engine running inside it) sees:
 * every change is checked against the session's path rules first
 * (`core/permission/path-policy`), through symlinks and for every descendant
 * of a removed or moved directory. Refused changes throw `PathRefused`, whose
 * message the shell prints ("…: write refused — protected by your rule …").
 */
import type { ByteString, CpOptions, FileContent, FsStat, IFileSystem, MkdirOptions, RmOptions } from "just-bash";
import { type ChangeKind, changeRefusal, hasPathRules, type PathPolicy, type PathRefusal, PathRefused } from "../../../core/permission/path-policy";
import { basename, dirname, joinPath, normalizePath } from "../../../core/sandbox-path";
import type { TrackedFs } from "./tracked-fs";

type ReadFileOptions = Parameters<IFileSystem["readFile"]>[1];
type WriteFileOptions = Parameters<IFileSystem["writeFile"]>[2];
type DirentEntry = Awaited<ReturnType<TrackedFs["readdirWithFileTypes"]>>[number];

/**
 * The files each running command read (`RefusalFrames`), so a command that writes text back to a file it read
 * that is not UTF-8 — `sed -i` or `sort -o` of a Latin-1 file: just-bash edits text, and writes it as UTF-8 — is
 * refused rather than left with its other bytes replaced. Kept per command: another command of the line may write
 * the file anew (`grep é f; echo x > f`).
 */
export interface TextReads {
  /** The command running now read `path` (absolute). */
  read(path: string): void;
  /** Whether the command running now read `path`. */
  wasRead(path: string): boolean;
  /** The refusal of the running command's text write to `path`, a file it read that is not UTF-8. */
  notUtf8(path: string): PathRefusal;
}

const fatalUtf8 = new TextDecoder("utf-8", { fatal: true });

/** Whether a write with these options encodes its text as UTF-8 (the default). */
function asUtf8(options: WriteFileOptions): boolean {
  const encoding = typeof options === "string" ? options : options?.encoding;
  return encoding === undefined || encoding === null || encoding === "utf8" || encoding === "utf-8";
}

function isUtf8(bytes: Uint8Array): boolean {
  try {
    fatalUtf8.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

export class GuardedFs implements IFileSystem {
  constructor(
    readonly inner: TrackedFs,
    /** The policy in force right now. */
    private readonly policy: () => PathPolicy,
    /** Told about every refusal (for the permissions log). */
    private readonly onRefused: (r: PathRefusal) => void = () => {},
    /** Files read as text that are not UTF-8, so a command does not write them back as UTF-8. */
    private readonly text?: TextReads,
  ) {}

  /** The path as written and, when it goes through links, the path actually changed. */
  private async targets(path: string, followLast: boolean): Promise<string[]> {
    const abs = normalizePath(path);
    const out = new Set([abs]);
    try {
      if (followLast) out.add(normalizePath(await this.inner.realpath(abs)));
      else out.add(joinPath(await this.inner.realpath(dirname(abs)), basename(abs)));
    } catch {
      try {
        out.add(joinPath(await this.inner.realpath(dirname(abs)), basename(abs)));
      } catch {
        // Parent missing: the plain path is all there is.
      }
    }
    return [...out];
  }

  private refuse(r: PathRefusal): never {
    this.onRefused(r);
    throw new PathRefused(r);
  }

  private async check(path: string, kind: ChangeKind, followLast = true): Promise<void> {
    const policy = this.policy();
    for (const t of await this.targets(path, followLast)) {
      const r = changeRefusal(policy, t, kind);
      if (r) this.refuse(r);
    }
  }

  /** A removed or moved entry takes its whole subtree with it: check every descendant too. */
  private async checkTree(path: string, kind: ChangeKind): Promise<void> {
    await this.check(path, kind, false);
    const policy = this.policy();
    if (!hasPathRules(policy)) return;
    const abs = normalizePath(path);
    let isDir = false;
    try {
      isDir = (await this.inner.lstat(abs)).isDirectory;
    } catch {
      return;
    }
    if (!isDir) return;
    const prefix = `${abs}/`;
    for (const p of this.inner.getAllPaths()) {
      if (!p.startsWith(prefix)) continue;
      const r = changeRefusal(policy, p, kind);
      if (r) this.refuse(r);
    }
  }

  readFile(path: string, options?: ReadFileOptions): Promise<string> {
    this.text?.read(normalizePath(path));
    return this.inner.readFile(path, options);
  }
  readFileBytes(path: string): Promise<ByteString> {
    this.text?.read(normalizePath(path));
    return this.inner.readFileBytes(path);
  }
  readFileBuffer(path: string): Promise<Uint8Array> {
    this.text?.read(normalizePath(path));
    return this.inner.readFileBuffer(path);
  }
  async writeFile(path: string, content: FileContent, options?: WriteFileOptions): Promise<void> {
    const empty = typeof content === "string" ? content.length === 0 : content.byteLength === 0;
    await this.check(path, empty ? "truncate" : "write");
    if (this.text && typeof content === "string" && asUtf8(options) && this.text.wasRead(normalizePath(path))) await this.checkText(path);
    return this.inner.writeFile(path, content, options);
  }
  /** Refuses writing text over a file that is not UTF-8 (its bytes now), which the writing command read. */
  private async checkText(path: string): Promise<void> {
    let bytes: Uint8Array;
    try {
      bytes = await this.inner.readFileBuffer(path);
    } catch {
      return;
    }
    if (!isUtf8(bytes)) throw new PathRefused((this.text as TextReads).notUtf8(normalizePath(path)));
  }
  async appendFile(path: string, content: FileContent, options?: WriteFileOptions): Promise<void> {
    await this.check(path, "append");
    return this.inner.appendFile(path, content, options);
  }
  exists(path: string): Promise<boolean> {
    return this.inner.exists(path);
  }
  stat(path: string): Promise<FsStat> {
    return this.inner.stat(path);
  }
  lstat(path: string): Promise<FsStat> {
    return this.inner.lstat(path);
  }
  async mkdir(path: string, options?: MkdirOptions): Promise<void> {
    if (options?.recursive && (await this.isDirectory(path))) return;
    await this.check(path, "mkdir");
    return this.inner.mkdir(path, options);
  }
  private async isDirectory(path: string): Promise<boolean> {
    try {
      return (await this.inner.stat(path)).isDirectory;
    } catch {
      return false;
    }
  }
  readdir(path: string): Promise<string[]> {
    return this.inner.readdir(path);
  }
  readdirWithFileTypes(path: string): Promise<DirentEntry[]> {
    return this.inner.readdirWithFileTypes(path);
  }
  async rm(path: string, options?: RmOptions): Promise<void> {
    await this.checkTree(path, "delete");
    return this.inner.rm(path, options);
  }
  async cp(src: string, dest: string, options?: CpOptions): Promise<void> {
    await this.check(dest, "copy");
    if (options?.recursive && hasPathRules(this.policy())) {
      const from = normalizePath(src);
      const to = normalizePath(dest);
      for (const p of this.inner.getAllPaths()) if (p.startsWith(`${from}/`)) await this.check(to + p.slice(from.length), "copy");
    }
    return this.inner.cp(src, dest, options);
  }
  async mv(src: string, dest: string): Promise<void> {
    await this.checkTree(src, "rename");
    await this.checkTree(dest, "rename");
    return this.inner.mv(src, dest);
  }
  resolvePath(base: string, path: string): string {
    return this.inner.resolvePath(base, path);
  }
  getAllPaths(): string[] {
    return this.inner.getAllPaths();
  }
  async chmod(path: string, mode: number): Promise<void> {
    await this.check(path, "chmod");
    return this.inner.chmod(path, mode);
  }
  async symlink(target: string, linkPath: string): Promise<void> {
    await this.check(linkPath, "link", false);
    return this.inner.symlink(target, linkPath);
  }
  async link(existingPath: string, newPath: string): Promise<void> {
    // A hard link to a protected file would be a second name to change it by.
    await this.check(existingPath, "link");
    await this.check(newPath, "link", false);
    return this.inner.link(existingPath, newPath);
  }
  readlink(path: string): Promise<string> {
    return this.inner.readlink(path);
  }
  realpath(path: string): Promise<string> {
    return this.inner.realpath(path);
  }
  async utimes(path: string, atime: Date, mtime: Date): Promise<void> {
    await this.check(path, "touch");
    return this.inner.utimes(path, atime, mtime);
  }
}
