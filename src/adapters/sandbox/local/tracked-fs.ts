/**
 * just-bash filesystem that records which paths were changed. It delegates
 * every call to an in-memory filesystem (which keeps the whole path index in
 * memory, as `IFileSystem.resolvePath()` / `getAllPaths()` are synchronous)
 * and collects the touched paths; the local sandbox persists them after
 * each call (`LocalSandbox.flush`).
 */
import type {
  ByteString,
  CpOptions,
  FileContent,
  FsStat,
  IFileSystem,
  InMemoryFs,
  MkdirOptions,
  RmOptions,
} from "just-bash";
import { isInside, normalizePath } from "../../../core/sandbox-path";

type ReadFileOptions = Parameters<IFileSystem["readFile"]>[1];
type WriteFileOptions = Parameters<IFileSystem["writeFile"]>[2];
type DirentEntry = Awaited<ReturnType<InMemoryFs["readdirWithFileTypes"]>>[number];

export class TrackedFs implements IFileSystem {
  /** Absolute paths changed since the last `takeDirty()`. */
  private dirty = new Set<string>();

  constructor(readonly inner: InMemoryFs) {}

  /** Returns and clears the changed paths. */
  takeDirty(): string[] {
    const out = [...this.dirty];
    this.dirty.clear();
    return out;
  }

  hasDirty(): boolean {
    return this.dirty.size > 0;
  }

  /** Whether a change not yet taken lies at, above or below this absolute path. */
  touches(path: string): boolean {
    for (const d of this.dirty) if (d === path || isInside(d, path) || isInside(path, d)) return true;
    return false;
  }

  /** Whether a change not yet taken lies at or below this absolute path (not only above it). */
  changedAtOrBelow(path: string): boolean {
    for (const d of this.dirty) if (isInside(path, d)) return true;
    return false;
  }

  private mark(path: string): void {
    this.dirty.add(normalizePath(path));
  }

  /** Marks a path and, when it goes through symlinks, the file actually written. */
  private async markResolved(path: string): Promise<void> {
    this.mark(path);
    try {
      this.mark(await this.inner.realpath(path));
    } catch {
      // Missing or dangling: the plain path is enough.
    }
  }

  readFile(path: string, options?: ReadFileOptions): Promise<string> {
    return this.inner.readFile(path, options);
  }
  readFileBytes(path: string): Promise<ByteString> {
    return this.inner.readFileBytes(path);
  }
  readFileBuffer(path: string): Promise<Uint8Array> {
    return this.inner.readFileBuffer(path);
  }
  async writeFile(path: string, content: FileContent, options?: WriteFileOptions): Promise<void> {
    try {
      await this.inner.writeFile(path, content, options);
    } finally {
      await this.markResolved(path);
    }
  }
  async appendFile(path: string, content: FileContent, options?: WriteFileOptions): Promise<void> {
    try {
      await this.inner.appendFile(path, content, options);
    } finally {
      await this.markResolved(path);
    }
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
    // `mkdir -p` of an existing directory changes nothing: do not make the flush rescan it.
    if (options?.recursive && (await this.isDirectory(path))) return;
    try {
      await this.inner.mkdir(path, options);
    } finally {
      this.mark(path);
    }
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
    try {
      await this.inner.rm(path, options);
    } finally {
      this.mark(path);
    }
  }
  async cp(src: string, dest: string, options?: CpOptions): Promise<void> {
    try {
      await this.inner.cp(src, dest, options);
    } finally {
      this.mark(dest);
    }
  }
  async mv(src: string, dest: string): Promise<void> {
    try {
      await this.inner.mv(src, dest);
    } finally {
      this.mark(src);
      this.mark(dest);
    }
  }
  resolvePath(base: string, path: string): string {
    return this.inner.resolvePath(base, path);
  }
  getAllPaths(): string[] {
    return this.inner.getAllPaths();
  }
  async chmod(path: string, mode: number): Promise<void> {
    try {
      await this.inner.chmod(path, mode);
    } finally {
      await this.markResolved(path);
    }
  }
  async symlink(target: string, linkPath: string): Promise<void> {
    try {
      await this.inner.symlink(target, linkPath);
    } finally {
      this.mark(linkPath);
    }
  }
  async link(existingPath: string, newPath: string): Promise<void> {
    try {
      await this.inner.link(existingPath, newPath);
    } finally {
      this.mark(newPath);
    }
  }
  readlink(path: string): Promise<string> {
    return this.inner.readlink(path);
  }
  realpath(path: string): Promise<string> {
    return this.inner.realpath(path);
  }
  async utimes(path: string, atime: Date, mtime: Date): Promise<void> {
    try {
      await this.inner.utimes(path, atime, mtime);
    } finally {
      await this.markResolved(path);
    }
  }
}
