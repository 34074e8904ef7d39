/**
 * The sandbox port's filesystem over the local backend's tracked in-memory
 * filesystem. Every mutating call is followed by a flush, so what the port
 * reports as written is persisted; every call first waits for the changes
 * other tabs announced to be taken in (`ready`).
 */
import type { PathPolicy } from "../../../core/permission/path-policy";
import type { FileEntry, SandboxFS } from "../../../core/ports/sandbox";
import { basename, dirname, joinPath, normalizePath } from "../../../core/sandbox-path";
import type { TrackedFs } from "./tracked-fs";

const decoder = new TextDecoder();

export class LocalFS implements SandboxFS {
  constructor(
    private readonly fs: TrackedFs,
    private readonly flush: () => Promise<void>,
    /** The same filesystem checked against a path policy. */
    private readonly guarded?: (policy: PathPolicy) => Pick<TrackedFs, "mkdir" | "writeFile">,
    /** Settles once the other tabs' changes announced so far are in the filesystem. */
    private readonly ready: () => Promise<void> = () => Promise.resolve(),
    /**
     * As `ready`, and also checks the store's generation token (one read): a file's content is what a tool edits
     * and writes back, so a notice that never came (a tab closed right after its write) must not leave it stale.
     */
    private readonly fresh: () => Promise<void> = ready,
  ) {}

  async readFile(path: string): Promise<Uint8Array> {
    await this.fresh();
    return this.fs.readFileBuffer(normalizePath(path));
  }

  async readText(path: string): Promise<string> {
    return decoder.decode(await this.readFile(path));
  }

  async writeFile(path: string, data: string | Uint8Array, opts?: { policy?: PathPolicy }): Promise<void> {
    const p = normalizePath(path);
    const fs = opts?.policy && this.guarded ? this.guarded(opts.policy) : this.fs;
    await this.ready();
    try {
      await fs.mkdir(dirname(p), { recursive: true });
      await fs.writeFile(p, data);
    } finally {
      await this.flush();
    }
  }

  async list(path: string): Promise<FileEntry[]> {
    await this.ready();
    const dir = normalizePath(path);
    const st = await this.fs.stat(dir);
    if (!st.isDirectory) throw new Error(`ENOTDIR: not a directory, scandir '${dir}'`);
    const names = (await this.fs.readdir(dir)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    const out: FileEntry[] = [];
    for (const name of names) {
      const entry = await this.stat(joinPath(dir, name));
      if (entry) out.push(entry);
    }
    return out;
  }

  async stat(path: string): Promise<FileEntry | undefined> {
    const p = normalizePath(path);
    await this.ready();
    try {
      const st = await this.fs.stat(p);
      return {
        name: basename(p),
        path: p,
        type: st.isDirectory ? "directory" : "file",
        size: st.isDirectory ? 0 : st.size,
        mtime: st.mtime.getTime(),
      };
    } catch {
      return undefined;
    }
  }

  async exists(path: string): Promise<boolean> {
    await this.ready();
    return this.fs.exists(normalizePath(path));
  }

  async mkdir(path: string): Promise<void> {
    await this.ready();
    try {
      await this.fs.mkdir(normalizePath(path), { recursive: true });
    } finally {
      await this.flush();
    }
  }

  async rm(path: string): Promise<void> {
    await this.ready();
    try {
      await this.fs.rm(normalizePath(path), { recursive: true, force: true });
    } finally {
      await this.flush();
    }
  }

  async rename(from: string, to: string): Promise<void> {
    const dest = normalizePath(to);
    await this.ready();
    try {
      await this.fs.mkdir(dirname(dest), { recursive: true });
      await this.fs.mv(normalizePath(from), dest);
    } finally {
      await this.flush();
    }
  }
}
