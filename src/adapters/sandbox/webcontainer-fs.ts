/**
 * The sandbox port's filesystem over a WebContainer's `fs`. WebContainer's
 * fs calls are scoped to its workdir, so absolute sandbox paths (which the
 * shell also sees) are translated by stripping the workdir prefix.
 *
 * WebContainer has no `stat`: sizes come from reading the file, and mtimes
 * are observed: a file gets "now" when it is first seen or when its content
 * signature changes, so newest-first orderings still follow edits.
 */
import type { FileEntry, SandboxFS } from "../../core/ports/sandbox";
import { basename, dirname, isInside, joinPath, normalizePath } from "../../core/sandbox-path";
import type { WebContainerLike } from "./webcontainer-like";

/** FNV-1a over the bytes plus the length: a cheap change detector, not a content address. */
function signature(bytes: Uint8Array): string {
  let h = 0x811c9dc5;
  for (const b of bytes) h = Math.imul(h ^ b, 0x01000193) >>> 0;
  return `${bytes.length}:${h.toString(16)}`;
}

export class WebContainerFS implements SandboxFS {
  private readonly seen = new Map<string, { sig: string; mtime: number }>();

  constructor(private readonly wc: WebContainerLike) {}

  /** Absolute sandbox path → path for `wc.fs` (relative to the workdir). */
  toWc(path: string): string {
    const abs = normalizePath(path);
    if (!isInside(this.wc.workdir, abs)) throw new Error(`EACCES: path outside the WebContainer workdir: '${abs}'`);
    const rel = abs.slice(normalizePath(this.wc.workdir).length);
    return rel === "" ? "/" : rel;
  }

  /** Relative form for `spawn`'s cwd. */
  toSpawnCwd(path: string): string {
    const rel = this.toWc(path).replace(/^\//, "");
    return rel === "" ? "." : rel;
  }

  private observe(abs: string, bytes: Uint8Array): number {
    const sig = signature(bytes);
    const prev = this.seen.get(abs);
    if (prev && prev.sig === sig) return prev.mtime;
    const mtime = Math.max(Date.now(), (prev?.mtime ?? 0) + 1);
    this.seen.set(abs, { sig, mtime });
    return mtime;
  }

  async readFile(path: string): Promise<Uint8Array> {
    return this.wc.fs.readFile(this.toWc(path));
  }

  async readText(path: string): Promise<string> {
    return new TextDecoder().decode(await this.readFile(path));
  }

  async writeFile(path: string, data: string | Uint8Array): Promise<void> {
    const abs = normalizePath(path);
    await this.wc.fs.mkdir(this.toWc(dirname(abs)), { recursive: true });
    await this.wc.fs.writeFile(this.toWc(abs), data);
    this.observe(abs, typeof data === "string" ? new TextEncoder().encode(data) : data);
  }

  private async fileEntry(abs: string): Promise<FileEntry | undefined> {
    try {
      const bytes = await this.wc.fs.readFile(this.toWc(abs));
      return { name: basename(abs), path: abs, type: "file", size: bytes.length, mtime: this.observe(abs, bytes) };
    } catch {
      return undefined;
    }
  }

  async list(path: string): Promise<FileEntry[]> {
    const dir = normalizePath(path);
    const entries = await this.wc.fs.readdir(this.toWc(dir), { withFileTypes: true });
    const out: FileEntry[] = [];
    for (const e of entries) {
      const abs = joinPath(dir, e.name);
      if (e.isDirectory()) out.push({ name: e.name, path: abs, type: "directory", size: 0, mtime: 0 });
      else {
        const f = await this.fileEntry(abs);
        if (f) out.push(f);
      }
    }
    return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  async stat(path: string): Promise<FileEntry | undefined> {
    const abs = normalizePath(path);
    if (!isInside(this.wc.workdir, abs)) return undefined;
    try {
      await this.wc.fs.readdir(this.toWc(abs));
      return { name: basename(abs), path: abs, type: "directory", size: 0, mtime: 0 };
    } catch {
      return this.fileEntry(abs);
    }
  }

  async exists(path: string): Promise<boolean> {
    return (await this.stat(path)) !== undefined;
  }

  async mkdir(path: string): Promise<void> {
    await this.wc.fs.mkdir(this.toWc(path), { recursive: true });
  }

  async rm(path: string): Promise<void> {
    const abs = normalizePath(path);
    await this.wc.fs.rm(this.toWc(abs), { recursive: true, force: true });
    for (const p of [...this.seen.keys()]) if (isInside(abs, p)) this.seen.delete(p);
  }

  async rename(from: string, to: string): Promise<void> {
    const dest = normalizePath(to);
    await this.wc.fs.mkdir(this.toWc(dirname(dest)), { recursive: true });
    await this.wc.fs.rename(this.toWc(from), this.toWc(dest));
  }
}
