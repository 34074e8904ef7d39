/**
 * A stand-in for a booted `WebContainer`, with the real API's shapes: `fs`
 * calls scoped to `workdir` (absolute paths resolve inside it), `spawn`
 * returning `{ output: ReadableStream<string>, exit: Promise<number>, kill() }`
 * with terminal-style CRLF output. `jsh -c <command>` runs in just-bash over
 * the fake's in-memory filesystem. Never imported by app code.
 */
import type {
  BufferEncoding,
  DirEnt,
  ExportOptions,
  FileSystemAPI,
  FileSystemTree,
  IFSWatcher,
  LoadFilesOptions,
  SpawnOptions,
  Unsubscribe,
  WebContainer,
  WebContainerProcess,
} from "@webcontainer/api";
import { Bash, InMemoryFs } from "just-bash";

/** Every public member of the real class: the fake must keep up with `@webcontainer/api` at the type level. */
type WebContainerAPI = { [K in keyof WebContainer]: WebContainer[K] };

const WORKDIR = "/home/projects/tabcode";

function inWorkdir(path: string): string {
  const rel = path.replace(/^\/+/, "");
  return rel ? `${WORKDIR}/${rel}` : WORKDIR;
}

class FakeFs implements FileSystemAPI {
  constructor(private readonly mem: InMemoryFs) {}

  readdir(path: string, options: "buffer" | { encoding: "buffer"; withFileTypes?: false }): Promise<Uint8Array[]>;
  readdir(path: string, options?: { encoding?: BufferEncoding | null; withFileTypes?: false } | BufferEncoding | null): Promise<string[]>;
  readdir(path: string, options: { encoding: "buffer"; withFileTypes: true }): Promise<DirEnt<Uint8Array>[]>;
  readdir(path: string, options: { encoding?: BufferEncoding | null; withFileTypes: true }): Promise<DirEnt<string>[]>;
  async readdir(path: string, options?: unknown): Promise<string[] | Uint8Array[] | DirEnt<string>[] | DirEnt<Uint8Array>[]> {
    const abs = inWorkdir(path);
    const withTypes = typeof options === "object" && options !== null && (options as { withFileTypes?: boolean }).withFileTypes === true;
    const buffers =
      options === "buffer" || (typeof options === "object" && options !== null && (options as { encoding?: unknown }).encoding === "buffer");
    const entries = (await this.mem.readdirWithFileTypes(abs)).sort((a, b) => (a.name < b.name ? -1 : 1));
    const enc = new TextEncoder();
    if (withTypes && buffers) {
      return entries.map((e) => ({ name: enc.encode(e.name), isFile: () => e.isFile, isDirectory: () => e.isDirectory }));
    }
    if (withTypes) return entries.map((e) => ({ name: e.name, isFile: () => e.isFile, isDirectory: () => e.isDirectory }));
    return buffers ? entries.map((e) => enc.encode(e.name)) : entries.map((e) => e.name);
  }

  readFile(path: string, encoding?: null): Promise<Uint8Array>;
  readFile(path: string, encoding: BufferEncoding): Promise<string>;
  async readFile(path: string, encoding?: BufferEncoding | null): Promise<Uint8Array | string> {
    const abs = inWorkdir(path);
    const st = await this.mem.stat(abs);
    if (st.isDirectory) throw new Error(`EISDIR: illegal operation on a directory, read '${path}'`);
    const bytes = await this.mem.readFileBuffer(abs);
    return encoding ? new TextDecoder().decode(bytes) : bytes;
  }

  async writeFile(path: string, data: string | Uint8Array, _options?: string | { encoding?: string | null } | null): Promise<void> {
    const abs = inWorkdir(path);
    const parent = abs.slice(0, abs.lastIndexOf("/")) || "/";
    if (!(await this.mem.exists(parent))) throw new Error(`ENOENT: no such file or directory, open '${path}'`);
    await this.mem.writeFile(abs, data);
  }

  mkdir(path: string, options?: { recursive?: false }): Promise<void>;
  mkdir(path: string, options: { recursive: true }): Promise<string>;
  // biome-ignore lint/suspicious/noConfusingVoidType: the implementation of the real overloads (Promise<void> | Promise<string>).
  async mkdir(path: string, options?: { recursive?: boolean }): Promise<string | void> {
    await this.mem.mkdir(inWorkdir(path), { recursive: options?.recursive === true });
    return options?.recursive ? path : undefined;
  }

  async rm(path: string, options?: { force?: boolean; recursive?: boolean }): Promise<void> {
    await this.mem.rm(inWorkdir(path), { force: options?.force, recursive: options?.recursive });
  }

  async rename(oldPath: string, newPath: string): Promise<void> {
    await this.mem.mv(inWorkdir(oldPath), inWorkdir(newPath));
  }

  watch(): IFSWatcher {
    throw new Error("fs.watch is not implemented by the fake WebContainer");
  }
}

/** Output as a terminal sends it: CRLF line endings, in two chunks. */
function terminalStream(text: string, chunks: number = 2): ReadableStream<string> {
  const crlf = text.replace(/\n/g, "\r\n");
  const size = Math.ceil(crlf.length / chunks) || 1;
  return new ReadableStream<string>({
    start(controller) {
      for (let i = 0; i < crlf.length; i += size) controller.enqueue(crlf.slice(i, i + size));
      controller.close();
    },
  });
}

export class FakeWebContainer implements WebContainerAPI {
  readonly workdir = WORKDIR;
  readonly path = "/bin:/usr/bin:/usr/local/bin";
  readonly fs: FakeFs;
  readonly mem: InMemoryFs;
  /** Every spawn, for assertions. */
  readonly spawned: Array<{ command: string; args: string[]; options?: SpawnOptions }> = [];
  tornDown = false;

  constructor() {
    this.mem = new InMemoryFs();
    this.mem.mkdirSync(WORKDIR, { recursive: true });
    this.fs = new FakeFs(this.mem);
  }

  spawn(command: string, args: string[], options?: SpawnOptions): Promise<WebContainerProcess>;
  spawn(command: string, options?: SpawnOptions): Promise<WebContainerProcess>;
  async spawn(command: string, argsOrOptions?: string[] | SpawnOptions, maybeOptions?: SpawnOptions): Promise<WebContainerProcess> {
    const args = Array.isArray(argsOrOptions) ? argsOrOptions : [];
    const options = Array.isArray(argsOrOptions) ? maybeOptions : argsOrOptions;
    this.spawned.push({ command, args, options });
    const ac = new AbortController();
    let resolveExit: (code: number) => void = () => undefined;
    const exit = new Promise<number>((r) => {
      resolveExit = r;
    });
    let emit: ReadableStreamDefaultController<string> | undefined;
    const output = new ReadableStream<string>({
      start(c) {
        emit = c;
      },
    });
    const finish = (text: string, code: number) => {
      const reader = terminalStream(text).getReader();
      void (async () => {
        for (let r = await reader.read(); !r.done; r = await reader.read()) emit?.enqueue(r.value);
        emit?.close();
        resolveExit(code);
      })();
    };
    if (command !== "jsh" || args[0] !== "-c" || args[1] === undefined) {
      finish(`jsh: command not found: ${command}\n`, 127);
    } else {
      const cwd = options?.cwd ? (options.cwd.startsWith("/") ? options.cwd : inWorkdir(options.cwd)) : WORKDIR;
      const env = Object.fromEntries(Object.entries(options?.env ?? {}).map(([k, v]) => [k, String(v)]));
      const bash = new Bash({ fs: this.mem, cwd: WORKDIR, env: { HOME: WORKDIR } });
      void bash.exec(args[1], { cwd, env, signal: ac.signal }).then(
        (r) => finish(ac.signal.aborted ? "" : r.stdout + r.stderr, ac.signal.aborted ? 143 : r.exitCode),
        (e: unknown) => finish(`${String(e)}\n`, 1),
      );
    }
    return {
      output,
      exit,
      input: new WritableStream<string>(),
      kill: () => ac.abort(),
      resize: () => undefined,
    };
  }

  /** Writes a tree into the workdir (or `mountPoint` inside it), like the real `mount`. */
  async mount(snapshotOrTree: FileSystemTree | Uint8Array | ArrayBuffer, options?: LoadFilesOptions): Promise<void> {
    if (snapshotOrTree instanceof Uint8Array || snapshotOrTree instanceof ArrayBuffer) throw new Error("binary snapshots are not supported by the fake WebContainer");
    const base = options?.mountPoint ? inWorkdir(options.mountPoint) : WORKDIR;
    const write = async (dir: string, tree: FileSystemTree): Promise<void> => {
      await this.mem.mkdir(dir, { recursive: true });
      for (const [name, node] of Object.entries(tree)) {
        const at = `${dir}/${name}`;
        if ("directory" in node) await write(at, node.directory);
        else if ("contents" in node.file) await this.mem.writeFile(at, node.file.contents);
        else throw new Error("symlinks are not supported by the fake WebContainer");
      }
    };
    await write(base, snapshotOrTree);
  }

  export(path: string): Promise<FileSystemTree>;
  export(path: string, options: ExportOptions & { format?: "json" }): Promise<FileSystemTree>;
  export(path: string, options: ExportOptions): Promise<Uint8Array>;
  async export(path: string, options?: ExportOptions): Promise<FileSystemTree | Uint8Array> {
    if (options?.format && options.format !== "json") throw new Error("only json exports are supported by the fake WebContainer");
    const read = async (dir: string): Promise<FileSystemTree> => {
      const out: FileSystemTree = {};
      for (const e of await this.mem.readdirWithFileTypes(dir)) {
        const at = `${dir}/${e.name}`;
        out[e.name] = e.isDirectory ? { directory: await read(at) } : { file: { contents: await this.mem.readFileBuffer(at) } };
      }
      return out;
    };
    return read(inWorkdir(path));
  }

  on(_event: string, _listener: (...args: never[]) => void): Unsubscribe {
    return () => undefined;
  }

  async setPreviewScript(): Promise<void> {}

  teardown(): void {
    this.tornDown = true;
  }
}
