/**
 * The WebContainer sandbox backend: real Node.js, npm and a `jsh` shell in
 * StackBlitz's WebContainer runtime (booted once per page, see
 * `webcontainer-boot.ts`). Each session works in its own directory under the
 * container's workdir. Snapshots use the same content-addressed store as the
 * local backend, and the workspace (minus node_modules) is mirrored into the
 * session's rows of that store after every change, so it survives reloads
 * and a switch to the local backend.
 */
import type { WebContainerLike } from "./webcontainer-like";
import type { ExecOptions, ExecResult, Sandbox, SandboxFS } from "../../core/ports/sandbox";
import { normalizePath } from "../../core/sandbox-path";
import { FsSnapshotter } from "../../core/snapshot/fs-snapshotter";
import type { WorkspaceRow, WorkspaceStore } from "./local/workspace-store";
import { bootWebContainer } from "./webcontainer-boot";
import { WebContainerFS } from "./webcontainer-fs";
import { MountCoordinator } from "./webcontainer-mount";

export type { WebContainerLike } from "./webcontainer-like";


const coordinators = new WeakMap<WebContainerLike, MountCoordinator>();

/** The container's one project directory, shared by its sessions one at a time. */
function coordinatorFor(wc: WebContainerLike): MountCoordinator {
  let c = coordinators.get(wc);
  if (!c) {
    c = new MountCoordinator({
      async clear() {
        // The directory itself may be gone (`rm -r ..` in the last session): recreate it.
        await wc.fs.mkdir("/", { recursive: true });
        for (const name of await wc.fs.readdir("/")) await wc.fs.rm(`/${name}`, { recursive: true, force: true });
      },
      mount: (tree) => wc.mount(tree),
    });
    coordinators.set(wc, c);
  }
  return c;
}

export const DEFAULT_WC_TIMEOUT_MS = 120_000;
/** Characters of output kept per command. */
export const MAX_WC_OUTPUT = 16 * 1024 * 1024;
/** How long to wait for a killed process to report its exit. */
const KILL_GRACE_MS = 500;

// CSI and OSC terminal escape sequences (built from char codes: lint forbids control characters in regex literals).
const ESC = String.fromCharCode(27);
const BEL = String.fromCharCode(7);
const ANSI = new RegExp(`${ESC}\\[[0-9;?]*[ -/]*[@-~]|${ESC}\\][^${BEL}${ESC}]*(?:${BEL}|${ESC}\\\\)`, "g");

/** Turns terminal output into plain text, carrying a CR split across chunks. */
export class TerminalText {
  private pendingCR = false;
  push(chunk: string): string {
    let s = (this.pendingCR ? "\r" : "") + chunk;
    this.pendingCR = s.endsWith("\r");
    if (this.pendingCR) s = s.slice(0, -1);
    return s.replace(ANSI, "").replace(/\r\n/g, "\n");
  }
  end(): string {
    const out = this.pendingCR ? "\n" : "";
    this.pendingCR = false;
    return out;
  }
}

export interface WebContainerSandboxOptions {
  /** Snapshot blobs/trees and the mirrored workspace rows (shared with the local backend). */
  store: WorkspaceStore;
  /** Mirror the workspace into the store after changes (default true). */
  persist?: boolean;
}

export class WebContainerSandbox implements Sandbox {
  readonly kind = "webcontainer" as const;
  readonly root: string;
  readonly fs: SandboxFS;
  private readonly wfs: WebContainerFS;
  private readonly snap: FsSnapshotter;
  private rows = new Map<string, WorkspaceRow>();
  private persisting?: Promise<void>;
  private persistAgain = false;

  private readonly mount: MountCoordinator;

  private constructor(
    private readonly wc: WebContainerLike,
    readonly sessionID: string,
    private readonly opts: WebContainerSandboxOptions,
  ) {
    // The container's project directory itself: this session's files are mounted there while it runs.
    this.root = normalizePath(wc.workdir);
    this.wfs = new WebContainerFS(wc);
    this.snap = new FsSnapshotter(this.wfs, this.root, opts.store);
    this.mount = coordinatorFor(wc);
    const w = this.wfs;
    const mounted = <T>(fn: () => Promise<T>): Promise<T> => this.mount.use(this.sessionID, fn);
    // The change happened even if mirroring it fails (quota…): the mirror catches up on the next change.
    const after = <T>(fn: () => Promise<T>): Promise<T> =>
      mounted(async () => {
        const v = await fn();
        await this.persist().catch(() => undefined);
        return v;
      });
    this.fs = {
      readFile: (p) => mounted(() => w.readFile(p)),
      readText: (p) => mounted(() => w.readText(p)),
      list: (p) => mounted(() => w.list(p)),
      stat: (p) => mounted(() => w.stat(p)),
      exists: (p) => mounted(() => w.exists(p)),
      writeFile: (p, d) => after(() => w.writeFile(p, d)),
      mkdir: (p) => after(() => w.mkdir(p)),
      rm: (p) => after(() => w.rm(p)),
      rename: (a, b) => after(() => w.rename(a, b)),
    };
  }

  /** Opens a session's sandbox; its stored files are mounted in the project directory at its first use. */
  static async open(wc: WebContainerLike, sessionID: string, opts: WebContainerSandboxOptions): Promise<WebContainerSandbox> {
    const sb = new WebContainerSandbox(wc, sessionID, opts);
    for (const r of await opts.store.loadRows(sessionID)) sb.rows.set(r.path, r);
    sb.mount.register(sessionID, sb);
    return sb;
  }

  /** The session's files as last persisted (what a mount writes back into the project directory). */
  async stored(): Promise<{ rows: WorkspaceRow[]; blobs: Map<string, Uint8Array> }> {
    const rows = [...this.rows.values()];
    const blobs = await this.opts.store.getBlobs([...new Set(rows.flatMap((r) => (r.hash ? [r.hash] : [])))]);
    return { rows, blobs };
  }

  /** Mirrors the workspace into the store (coalesces concurrent calls). */
  persist(): Promise<void> {
    if (this.opts.persist === false) return Promise.resolve();
    if (this.persisting) {
      this.persistAgain = true;
      return this.persisting;
    }
    this.persisting = (async () => {
      do {
        this.persistAgain = false;
        await this.persistOnce();
      } while (this.persistAgain);
    })().finally(() => {
      this.persisting = undefined;
    });
    return this.persisting;
  }

  private async persistOnce(): Promise<void> {
    // A command may have removed the project directory itself (`rm -r ..`): that is an empty workspace.
    if (!(await this.wfs.exists(this.root))) await this.wfs.mkdir(this.root);
    const { tree, sizes } = await this.snap.capture();
    const now = Date.now();
    const next = new Map<string, WorkspaceRow>();
    for (const d of tree.dirs) next.set(d, this.rows.get(d) ?? { path: d, type: "directory", size: 0, mtime: now, mode: 0o755 });
    for (const [path, hash] of Object.entries(tree.files)) {
      const old = this.rows.get(path);
      next.set(path, old?.hash === hash ? old : { path, type: "file", hash, size: sizes.get(path) ?? 0, mtime: now, mode: 0o644 });
    }
    const remove = [...this.rows.keys()].filter((p) => !next.has(p));
    const put = [...next.values()].filter((r) => this.rows.get(r.path) !== r);
    if (put.length || remove.length) await this.opts.store.applyChanges(this.sessionID, { blobs: [], put, remove });
    this.rows = next;
  }

  exec(command: string, opts: ExecOptions = {}): Promise<ExecResult> {
    return this.mount.use(this.sessionID, () => this.execMounted(command, opts));
  }

  private async execMounted(command: string, opts: ExecOptions): Promise<ExecResult> {
    if (opts.signal?.aborted) return { stdout: "", stderr: "", combined: "", exitCode: 130, timedOut: false, aborted: true };
    const cwd = this.wfs.toSpawnCwd(normalizePath(opts.cwd ?? this.root));
    const proc = await this.wc.spawn("jsh", ["-c", command], { cwd, env: opts.env });
    let timedOut = false;
    let aborted = false;
    let killed: (() => void) | undefined;
    const killedAndSettled = new Promise<void>((resolve) => {
      killed = () => setTimeout(resolve, KILL_GRACE_MS);
    });
    const kill = (why: "timeout" | "abort") => {
      if (timedOut || aborted) return;
      if (why === "timeout") timedOut = true;
      else aborted = true;
      proc.kill();
      killed?.();
    };
    const timer = setTimeout(() => kill("timeout"), opts.timeoutMs ?? DEFAULT_WC_TIMEOUT_MS);
    const onAbort = () => kill("abort");
    opts.signal?.addEventListener("abort", onAbort, { once: true });

    const term = new TerminalText();
    let out = "";
    const reader = proc.output.getReader();
    const pump = (async () => {
      for (let r = await reader.read(); !r.done; r = await reader.read()) {
        const text = term.push(r.value);
        if (text && out.length < MAX_WC_OUTPUT) {
          out += text;
          opts.onOutput?.(text);
        }
      }
      out += term.end();
    })().catch(() => undefined);

    try {
      const code = await Promise.race([proc.exit, killedAndSettled.then(() => undefined)]);
      await Promise.race([pump, killedAndSettled]);
      if (timedOut || aborted) void reader.cancel().catch(() => undefined);
      const exitCode = timedOut ? 124 : aborted ? 130 : (code ?? 1);
      return { stdout: out, stderr: "", combined: out, exitCode, timedOut, aborted };
    } finally {
      clearTimeout(timer);
      opts.signal?.removeEventListener("abort", onAbort);
      await this.persist().catch(() => undefined);
    }
  }

  snapshot(): Promise<string> {
    return this.mount.use(this.sessionID, () => this.snap.snapshot());
  }
  restore(hash: string): Promise<void> {
    return this.mount.use(this.sessionID, async () => {
      await this.snap.restore(hash);
      await this.persist();
    });
  }
  changed(from: string, to: string): Promise<string[]> {
    return this.snap.changed(from, to);
  }
  readAt(hash: string, relPath: string): Promise<Uint8Array | undefined> {
    return this.snap.readAt(hash, relPath);
  }
}

export interface OpenWebContainerOptions {
  /** A booted container (default: the page's, booted on first use). */
  wc?: WebContainerLike;
  /** Default: the shared IndexedDB workspace store. */
  store?: WorkspaceStore;
}

let sharedStore: Promise<WorkspaceStore> | undefined;

/** The session's WebContainer sandbox. Rejects with `WebContainerUnavailable` when it cannot boot. */
export async function openWebContainerSandbox(sessionID: string, opts: OpenWebContainerOptions = {}): Promise<Sandbox> {
  const wc = opts.wc ?? (await bootWebContainer());
  sharedStore ??= import("./local/dexie-workspace-store").then((m) => new m.DexieWorkspaceStore());
  const store = opts.store ?? (await sharedStore);
  return WebContainerSandbox.open(wc, sessionID, { store });
}
