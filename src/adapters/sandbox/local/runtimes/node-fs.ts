/**
 * The filesystem a `node` script sees: the workspace view under its root and
 * a scratch `/tmp` (kept only for the run). Everything else does not exist
 * and cannot be written. Operations answer with a value or a Node-style
 * error code, which the script's `fs` module turns into thrown errors.
 */
import { dirname, isInside, joinPath, normalizePath } from "../../../../core/sandbox-path";
import type { EngineResult, FileView } from "./engine-protocol";

export type FsAnswer = { v?: unknown; e?: { code: string; message: string } };

const SCRATCH = "/tmp";
/** Top-level import/export statements (Node also runs such .js files as modules). */
const ESM_SYNTAX = /^\s*(import\s+[\w{*]|import\s*['"{]|export\s+(default|const|let|var|function|class|async|\{|\*))/m;

export class NodeFs {
  readonly files = new Map<string, Uint8Array>();
  readonly dirs = new Set<string>(["/", SCRATCH]);

  constructor(
    readonly root: string,
    private readonly view: FileView,
  ) {
    this.addDir(root);
    for (const [rel, data] of Object.entries(view)) {
      const abs = joinPath(root, rel);
      this.files.set(abs, data);
      this.addDir(dirname(abs));
    }
  }

  private addDir(dir: string): void {
    for (let d = normalizePath(dir); !this.dirs.has(d); d = dirname(d)) this.dirs.add(d);
  }

  private visible(abs: string): boolean {
    return abs === "/" || isInside(this.root, abs) || isInside(SCRATCH, abs) || isInside(abs, this.root);
  }

  private writable(abs: string): boolean {
    return (isInside(this.root, abs) && abs !== this.root) || (isInside(SCRATCH, abs) && abs !== SCRATCH);
  }

  private err(code: string, syscall: string, path: string, words: string): FsAnswer {
    return { e: { code, message: `${code}: ${words}, ${syscall} '${path}'` } };
  }

  private canWrite(abs: string, syscall: string): FsAnswer | undefined {
    if (!this.writable(abs))
      return this.err("EACCES", syscall, abs, "permission denied (node in the local sandbox writes only inside the workspace and /tmp)");
    if (!this.dirs.has(dirname(abs))) return this.err("ENOENT", syscall, abs, "no such file or directory");
    if (this.dirs.has(abs)) return this.err("EISDIR", syscall, abs, "illegal operation on a directory");
    return undefined;
  }

  read(abs: string): Uint8Array | FsAnswer {
    const data = this.visible(abs) ? this.files.get(abs) : undefined;
    if (data) return data;
    if (this.dirs.has(abs)) return this.err("EISDIR", "open", abs, "illegal operation on a directory");
    return this.err("ENOENT", "open", abs, "no such file or directory");
  }

  write(abs: string, data: Uint8Array, append: boolean): FsAnswer {
    const bad = this.canWrite(abs, "open");
    if (bad) return bad;
    const old = append ? this.files.get(abs) : undefined;
    if (old) {
      const both = new Uint8Array(old.length + data.length);
      both.set(old);
      both.set(data, old.length);
      this.files.set(abs, both);
    } else this.files.set(abs, data);
    return {};
  }

  op(op: string, abs: string, arg: string): FsAnswer {
    switch (op) {
      case "stat": {
        if (!this.visible(abs)) return this.err("ENOENT", "stat", abs, "no such file or directory");
        const f = this.files.get(abs);
        if (f) return { v: { type: "file", size: f.length } };
        if (this.dirs.has(abs)) return { v: { type: "dir", size: 4096 } };
        return this.err("ENOENT", "stat", abs, "no such file or directory");
      }
      case "readdir": {
        if (!this.dirs.has(abs) || !this.visible(abs)) return this.err(this.files.has(abs) ? "ENOTDIR" : "ENOENT", "scandir", abs, "no such file or directory");
        const prefix = abs === "/" ? "/" : `${abs}/`;
        const names = new Map<string, string>();
        for (const p of this.files.keys()) if (p.startsWith(prefix) && !p.slice(prefix.length).includes("/")) names.set(p.slice(prefix.length), "file");
        for (const p of this.dirs) if (p !== abs && p.startsWith(prefix) && !p.slice(prefix.length).includes("/")) names.set(p.slice(prefix.length), "dir");
        return { v: [...names].sort(([a], [b]) => (a < b ? -1 : 1)).filter(([n]) => this.visible(joinPath(abs, n))) };
      }
      case "mkdir": {
        if (this.dirs.has(abs)) return arg === "r" ? {} : this.err("EEXIST", "mkdir", abs, "file already exists");
        if (!this.writable(abs)) return this.err("EACCES", "mkdir", abs, "permission denied (node in the local sandbox writes only inside the workspace and /tmp)");
        if (this.files.has(abs)) return this.err("EEXIST", "mkdir", abs, "file already exists");
        if (arg !== "r" && !this.dirs.has(dirname(abs))) return this.err("ENOENT", "mkdir", abs, "no such file or directory");
        this.addDir(abs);
        return {};
      }
      case "unlink": {
        if (!this.files.has(abs) || !this.visible(abs)) return this.err(this.dirs.has(abs) ? "EISDIR" : "ENOENT", "unlink", abs, "no such file or directory");
        if (!this.writable(abs)) return this.err("EACCES", "unlink", abs, "permission denied");
        this.files.delete(abs);
        return {};
      }
      case "rmdir": {
        if (!this.dirs.has(abs)) return arg === "f" ? {} : this.err("ENOENT", "rmdir", abs, "no such file or directory");
        if (!this.writable(abs)) return this.err("EACCES", "rmdir", abs, "permission denied");
        const inside = (p: string) => p.startsWith(`${abs}/`);
        if (arg !== "r" && arg !== "f" && ([...this.files.keys()].some(inside) || [...this.dirs].some(inside)))
          return this.err("ENOTEMPTY", "rmdir", abs, "directory not empty");
        for (const p of [...this.files.keys()]) if (inside(p)) this.files.delete(p);
        for (const p of [...this.dirs]) if (inside(p) || p === abs) this.dirs.delete(p);
        return {};
      }
      case "rename": {
        const to = arg;
        const data = this.files.get(abs);
        if (!data) return this.err("ENOENT", "rename", abs, "no such file or directory");
        const bad = this.canWrite(to, "rename") ?? (this.writable(abs) ? undefined : this.err("EACCES", "rename", abs, "permission denied"));
        if (bad) return bad;
        this.files.delete(abs);
        this.files.set(to, data);
        return {};
      }
      default:
        return this.err("ENOSYS", op, abs, "function not implemented");
    }
  }

  /** A script path as the command line gave it, made absolute. */
  resolve(cwd: string, path: string): string {
    return normalizePath(path.startsWith("/") ? path : joinPath(cwd, path));
  }

  /** A visible file's text, or undefined. */
  text(abs: string): string | undefined {
    const r = this.read(abs);
    return r instanceof Uint8Array ? new TextDecoder().decode(r) : undefined;
  }

  /** Whether a file runs as an ES module: .mjs, "type": "module" in the nearest package.json, or import/export syntax in a .js file. */
  isModule(abs: string, src: string): boolean {
    if (abs.endsWith(".mjs")) return true;
    if (abs.endsWith(".cjs") || abs.endsWith(".json")) return false;
    for (let d = dirname(abs); isInside(this.root, d); d = dirname(d)) {
      const pkg = this.text(joinPath(d, "package.json"));
      if (pkg !== undefined) {
        try {
          const type = (JSON.parse(pkg) as { type?: unknown }).type;
          if (type === "module") return true;
          if (type === "commonjs") return false;
        } catch {
          // A broken package.json says nothing about the module type.
        }
        break;
      }
      if (d === this.root) break;
    }
    return ESM_SYNTAX.test(src);
  }

  /** Workspace files the run created, changed or deleted. */
  changes(): Pick<EngineResult, "writes" | "removes"> {
    const writes: FileView = {};
    const removes: string[] = [];
    const prefix = `${this.root}/`;
    for (const [abs, data] of this.files) {
      if (!abs.startsWith(prefix)) continue;
      const rel = abs.slice(prefix.length);
      if (this.view[rel] !== data) writes[rel] = data;
    }
    for (const rel of Object.keys(this.view)) if (!this.files.has(joinPath(this.root, rel))) removes.push(rel);
    return { writes, removes };
  }
}
