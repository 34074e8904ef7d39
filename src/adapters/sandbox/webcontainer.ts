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
import { joinPath, normalizePath } from "../../core/sandbox-path";
import { FsSnapshotter } from "../../core/snapshot/fs-snapshotter";
import type { WorkspaceRow, WorkspaceStore } from "./local/workspace-store";
import { bootWebContainer } from "./webcontainer-boot";
import { WebContainerFS } from "./webcontainer-fs";

export type { WebContainerLike } from "./webcontainer-like";

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

  private constructor(
    private readonly wc: WebContainerLike,
    readonly sessionID: string,
    private readonly opts: WebContainerSandboxOptions,
  ) {
    this.root = joinPath(wc.workdir, sessionID);
    this.wfs = new WebContainerFS(wc);
    this.snap = new FsSnapshotter(this.wfs, this.root, opts.store);
    const w = this.wfs;
    // The change happened even if mirroring it fails (quota…): the mirror catches up on the next change.
    const after = async <T>(p: Promise<T>): Promise<T> => {
      const v = await p;
      await this.persist().catch(() => undefined);
      return v;
    };
    this.fs = {
      readFile: (p) => w.readFile(p),
      readText: (p) => w.readText(p),
      list: (p) => w.list(p),
      stat: (p) => w.stat(p),
      exists: (p) => w.exists(p),
      writeFile: (p, d) => after(w.writeFile(p, d)),
      mkdir: (p) => after(w.mkdir(p)),
      rm: (p) => after(w.rm(p)),
      rename: (a, b) => after(w.rename(a, b)),
    };
  }

  /** Opens a session directory; a new one is filled from the session's stored rows. */
  static async open(wc: WebContainerLike, sessionID: string, opts: WebContainerSandboxOptions): Promise<WebContainerSandbox> {
    const sb = new WebContainerSandbox(wc, sessionID, opts);
    const fresh = !(await sb.wfs.exists(sb.root));
    await sb.wfs.mkdir(sb.root);
    const rows = await opts.store.loadRows(sessionID);
    for (const r of rows) sb.rows.set(r.path, r);
    if (fresh && rows.length) await sb.hydrate(rows);
    return sb;
  }

  private async hydrate(rows: WorkspaceRow[]): Promise<void> {
    const blobs = await this.opts.store.getBlobs([...new Set(rows.flatMap((r) => (r.hash ? [r.hash] : [])))]);
    for (const r of [...rows].sort((a, b) => (a.path < b.path ? -1 : 1))) {
      const abs = joinPath(this.root, r.path);
      if (r.type === "directory") await this.wfs.mkdir(abs);
      else if (r.type === "file") await this.wfs.writeFile(abs, blobs.get(r.hash ?? "") ?? new Uint8Array());
    }
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

  async exec(command: string, opts: ExecOptions = {}): Promise<ExecResult> {
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
    return this.snap.snapshot();
  }
  async restore(hash: string): Promise<void> {
    await this.snap.restore(hash);
    await this.persist();
  }
  changed(from: string, to: string): Promise<string[]> {
    return this.snap.changed(from, to);
  }
  readAt(hash: string, relPath: string): Promise<string | undefined> {
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
