/**
 * The local sandbox: just-bash over an in-memory filesystem whose workspace
 * subtree is persisted in a `WorkspaceStore` (IndexedDB in the browser).
 * Usable directly (Node tests) and inside the sandbox Worker.
 *
 * - Only paths under `root` are persisted; `/bin`, `/tmp`… live in memory.
 * - Every call that may change files ends with a flush of the touched paths.
 * - just-bash is imported lazily, so it never lands in the page's entry chunk.
 * - Other tabs hold copies of the same workspace: each persisted change is announced to them
 *   (`workspace-notices.ts`) and theirs are taken in before the next read, command, snapshot or
 *   restore (see "Other tabs' changes" below).
 */
import type { Bash, BashOptions, InMemoryFs } from "just-bash";
import { describeThrown } from "../../../core/errors";
import type { ExecOptions, ExecResult, Sandbox, SandboxFS } from "../../../core/ports/sandbox";
import { joinPath } from "../../../core/sandbox-path";
import { changedBetween, readAtSnapshot, requireTree } from "../../../core/snapshot/store";
import { sha256Hex } from "../../../core/snapshot/hash";
import { isSnapshotExcluded, type SnapshotTree, treeHash } from "../../../core/snapshot/tree";
import { LocalFS } from "./local-fs";
import { missingCommands } from "./missing-commands";
import { type LocalRuntimes, runtimeCommandNames, runtimeCommands } from "./runtimes/commands";
import { changeFor } from "./persist";
import { type ExecGuard, checkCommand, guardBundled, guardCustom, RefusalFrames } from "./exec-guard";
import { GuardedFs } from "./guarded-fs";
import { longListing } from "./ls-long";
import { sedWithBackup } from "./sed-backup";
import { TrackedFs } from "./tracked-fs";
import { PathRefused, pathPolicy, type PathRefusal } from "../../../core/permission/path-policy";
import { MAX_NOTICE_PATHS, type NoticeChannel, openNotices, type WorkspaceNotice } from "./workspace-notices";
import { newStamp, type WorkspaceRow, type WorkspaceStore } from "./workspace-store";

/** Where every local workspace lives inside its own filesystem. */
export const LOCAL_ROOT = "/workspace";
export const DEFAULT_EXEC_TIMEOUT_MS = 120_000;
/** Whether the platform has Node's Buffer (read before git installs its polyfill, which just-bash's gzip cannot use). */
const NATIVE_BUFFER = "Buffer" in globalThis;

/** Runaway protection handed to just-bash (the per-call time limit comes from `timeoutMs`). */
export interface LocalLimits {
  maxCommandCount: number;
  maxLoopIterations: number;
  /** Bytes of stdout+stderr per call. */
  maxOutputSize: number;
}

export const DEFAULT_LOCAL_LIMITS: LocalLimits = {
  maxCommandCount: 100_000,
  maxLoopIterations: 100_000,
  maxOutputSize: 16 * 1024 * 1024,
};

export interface LocalSandboxOptions {
  /** Workspace key in the store (the session id). */
  workspace: string;
  store: WorkspaceStore;
  limits?: Partial<LocalLimits>;
  /** Engines behind python3/git/… (absent ones report what they need). */
  runtimes?: LocalRuntimes;
  /** Whether to send and hear other tabs' notices (default true; tests turn it off to try the safety net alone). */
  notices?: boolean;
}

type JustBash = typeof import("just-bash");

/** Idle lanes kept for reuse; busy ones are as many as the calls running at once. */
const MAX_IDLE_LANES = 4;
/** The path rules without a guard: read-only outside the workspace and /tmp. */
const OPEN_POLICY = pathPolicy(LOCAL_ROOT, []);

/** What one exec call owns, read by its lane's filesystem, command checks and engine commands while it runs. */
interface ExecCall {
  guard: ExecGuard | undefined;
  /** Commands decided during the call (an ask is asked once per call), and the path refusals it met. */
  seen: Map<string, string | undefined>;
  refusals: PathRefusal[];
  timeoutMs: number;
  /** The call's live-output sink, for the engines' progress lines. */
  progress?: (text: string) => void;
}

/**
 * A shell of its own for one exec at a time: its filesystem view (the shared tracked filesystem, checked against
 * the call's rules), its commands (checked against the call's guard) and its refusal frames all read `call`.
 * Calls that overlap (two bash tool calls of one step) run in different lanes, so one call's rules, asks,
 * refusals and progress never reach the other.
 */
interface Lane {
  readonly timeoutMs: number;
  call: ExecCall;
  readonly bash: Bash;
  readonly frames: RefusalFrames;
}

function idleCall(timeoutMs: number): ExecCall {
  return { guard: undefined, seen: new Map(), refusals: [], timeoutMs };
}

/** How long a file read's token check holds for the reads after it (a lost notice is seen within this much). */
const READ_CHECK_MS = 100;

export class LocalSandbox implements Sandbox {
  readonly kind = "local" as const;
  readonly root = LOCAL_ROOT;
  readonly fs: SandboxFS;
  private readonly rows = new Map<string, WorkspaceRow>();
  /** Shells not running anything now, newest last (at most `MAX_IDLE_LANES`). */
  private readonly idle: Lane[] = [];
  private chain: Promise<unknown> = Promise.resolve();
  /** This instance, in its notices. */
  private readonly id = newStamp();
  /** The store's generation token this copy stands at. */
  private stamp: string | undefined;
  /** The copy may miss a change of another tab (a write came between ours and our last known one): reload all. */
  private stale = false;
  /** The newest queued taking-in of another tab's notice (earlier ones run before it on the chain). */
  private refreshing: Promise<void> = Promise.resolve();
  private notices: NoticeChannel | undefined;
  /** Notices of other tabs taken in, and whole reloads made (tests and diagnostics). */
  readonly taken = { notices: 0, reloads: 0 };

  private constructor(
    private readonly jb: JustBash,
    private readonly mem: InMemoryFs,
    private readonly tracked: TrackedFs,
    readonly workspace: string,
    private readonly store: WorkspaceStore,
    private readonly limits: LocalLimits,
    private readonly runtimes: LocalRuntimes = {},
  ) {
    this.fs = new LocalFS(
      tracked,
      () => this.flush(),
      (policy) => new GuardedFs(tracked, () => policy),
      () => this.fsReady(),
      () => this.readReady(),
    );
  }

  /** What an fs call waits for: the notices taken in so far, and a reload when the copy is known stale (no token read). */
  private async fsReady(): Promise<void> {
    await this.refreshing;
    if (this.stale) await this.locked(() => this.catchUp());
  }

  /** Until when (performance.now()) a file read may skip the token check: the last one found the copy current. */
  private checkedUntil = 0;

  /**
   * What a file read waits for: as `fsReady`, and the store's generation token checked (a notice lost after
   * another tab's write must not leave the text a tool edits and writes back stale). A search reading a thousand
   * files pays for one check per `READ_CHECK_MS`, not one per file.
   */
  private async readReady(): Promise<void> {
    if (performance.now() < this.checkedUntil) return this.fsReady();
    await this.current();
    this.checkedUntil = performance.now() + READ_CHECK_MS;
  }

  /** Loads the workspace from the store (or starts it empty). */
  static async open(opts: LocalSandboxOptions): Promise<LocalSandbox> {
    const jb = await import("just-bash");
    const mem = new jb.InMemoryFs();
    mem.mkdirSync(LOCAL_ROOT, { recursive: true });
    mem.mkdirSync("/tmp", { recursive: true });
    // The token first: a write landing between the two reads only makes the copy newer than its token.
    const stamp = await opts.store.stampOf(opts.workspace);
    const rows = await opts.store.loadRows(opts.workspace);
    await loadRows(mem, opts.store, rows);
    const sb = new LocalSandbox(jb, mem, new TrackedFs(mem), opts.workspace, opts.store, { ...DEFAULT_LOCAL_LIMITS, ...opts.limits }, opts.runtimes);
    for (const r of rows) sb.rows.set(r.path, r);
    sb.stamp = stamp;
    if (opts.notices !== false) sb.notices = openNotices(opts.store.scope, opts.workspace, (n) => sb.heard(n));
    return sb;
  }

  /** Stops hearing and sending notices (the Worker's end does the same). */
  close(): void {
    this.notices?.close();
    this.notices = undefined;
  }

  /** Runs `fn` after every earlier queued operation (flushes and restores must not interleave). */
  private locked<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.chain.then(fn, fn);
    this.chain = run.catch(() => undefined);
    return run;
  }

  /** Persists every path changed since the last flush. */
  flush(): Promise<void> {
    return this.locked(() => this.flushNow());
  }

  private async flushNow(): Promise<void> {
    if (!this.tracked.hasDirty()) return;
    const change = await changeFor(this.mem, this.root, this.tracked.takeDirty(), this.rows);
    if (!change.put.length && !change.remove.length) return;
    const stamps = await this.store.applyChanges(this.workspace, change);
    for (const p of change.remove) this.rows.delete(p);
    for (const r of change.put) this.rows.set(r.path, r);
    // Another tab wrote since the write this copy knows of (its notice may still come, or never): catch up later.
    if (stamps.before !== this.stamp) this.stale = true;
    this.stamp = stamps.after;
    const put = change.put.map((r) => r.path);
    if (put.length + change.remove.length > MAX_NOTICE_PATHS) this.notices?.post({ from: this.id, all: true });
    else this.notices?.post({ from: this.id, before: stamps.before, after: stamps.after, put, remove: change.remove });
  }

  // Other tabs' changes. A notice is taken in on the chain (never in the middle of a flush, snapshot or
  // restore); reads, commands, snapshots and restores wait for it (`refreshing`). Commands, snapshots and
  // restores also compare the store's generation token with this copy's first (one read), and reload the
  // whole workspace when they differ: a lost notice costs a reload, never a stale command.
  //
  // A path this copy changed and has not flushed yet (a command still running) keeps its local content:
  // its flush comes after the other tab's write and wins, and is announced back. `rows` always follows the
  // store, so that flush compares against what is really stored.

  /** A notice arrived from another sandbox of this workspace. */
  private heard(n: WorkspaceNotice): void {
    if (n.from === this.id) return;
    this.refreshing = this.locked(() => this.takeNotice(n)).catch(() => {
      this.stale = true;
    });
  }

  private async takeNotice(n: WorkspaceNotice): Promise<void> {
    if ("all" in n) return this.reloadAll();
    if (n.after === this.stamp) return; // Already in (a reload read it).
    if (this.stale || n.before !== this.stamp) return this.reloadAll();
    const paths = [...new Set([...n.put, ...n.remove])];
    const stored = await this.store.rowsAt(this.workspace, paths);
    await this.takeRows(paths.map((p, i) => [p, stored[i]]));
    this.stamp = n.after;
    this.taken.notices++;
  }

  /** Makes the whole copy match the store (a whole-workspace notice, a lost notice). */
  private async reloadAll(): Promise<void> {
    const stamp = await this.store.stampOf(this.workspace);
    const rows = new Map((await this.store.loadRows(this.workspace)).map((r) => [r.path, r]));
    const paths = new Set([...rows.keys(), ...this.rows.keys()]);
    await this.takeRows([...paths].map((p) => [p, rows.get(p)]));
    this.stamp = stamp;
    this.stale = false;
    this.taken.reloads++;
  }

  /** Before a command, snapshot or restore: takes in pending notices, and reloads if the store moved on without one. */
  private async current(): Promise<void> {
    await this.refreshing;
    if (!this.stale && (await this.store.stampOf(this.workspace)) === this.stamp) return;
    await this.locked(() => this.catchUp());
  }

  /**
   * On the chain, before a snapshot or restore builds from `rows`: catches up with the store, flushes this copy's
   * changes, and catches up again when that flush found another tab wrote since the check.
   */
  private async settle(): Promise<void> {
    await this.catchUp();
    await this.flushNow();
    if (this.stale) await this.catchUp();
  }

  /** On the chain: reloads when the copy is behind the store. */
  private async catchUp(): Promise<void> {
    if (this.stale || (await this.store.stampOf(this.workspace)) !== this.stamp) await this.reloadAll();
  }

  /**
   * Writes stored rows (undefined: removed) into the in-memory filesystem below the tracking, so they are not
   * flushed again, keeping their times and modes; paths with unflushed local changes keep their content.
   */
  private async takeRows(entries: Array<[string, WorkspaceRow | undefined]>): Promise<void> {
    const before = new Map(entries.map(([p]) => [p, this.rows.get(p)]));
    const wanted = entries.filter(([p, row]) => !sameRow(before.get(p), row));
    const hashes = wanted.flatMap(([, r]) => (r?.type === "file" && r.hash ? [r.hash] : []));
    const blobs = hashes.length ? await this.store.getBlobs([...new Set(hashes)]) : new Map<string, Uint8Array>();
    for (const [p, row] of entries) {
      if (row) this.rows.set(p, row);
      else this.rows.delete(p);
    }
    // Removals deepest first, then the rest parents first; directories' times last (their children move them).
    const gone = wanted.filter(([, r]) => !r).sort(([a], [b]) => (a < b ? 1 : a > b ? -1 : 0));
    const put = wanted.filter((e): e is [string, WorkspaceRow] => e[1] !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    const mem = this.mem;
    for (const [p] of gone) {
      const abs = joinPath(this.root, p);
      if (await this.keepsLocal(abs, before.get(p))) continue;
      try {
        // Only what the store removed (its rows below are listed too, deepest first): a directory that still holds
        // a row the writer did not know of (this tab's newer file) stays, as it does in the store.
        await mem.rm(abs, { force: true });
      } catch {
        // Not empty: see above.
      }
    }
    const dirs: WorkspaceRow[] = [];
    for (const [p, row] of put) {
      const abs = joinPath(this.root, p);
      const had = before.get(p);
      // Decided here, next to the write: a running command may have marked more since the notice came.
      if (await this.keepsLocal(abs, had)) continue;
      const kind = await entryKind(mem, abs);
      if (kind !== undefined && (kind !== row.type || row.type === "symlink" || (had && had.type !== row.type))) {
        await mem.rm(abs, { recursive: true, force: true });
      }
      // A file written over keeps the stored mode and time (the write alone leaves the old ones).
      await placeRow(mem, abs, row, blobs, kind === "file");
      if (row.type === "directory") dirs.push(row);
    }
    await dateDirs(mem, dirs);
  }

  /**
   * Whether this copy keeps its own entry at `abs` over the store's: a change not flushed yet lies at or below it,
   * or a directory above it is marked (`mkdir` or `touch` of it, `rm -r`, `cp -r` into it) and the entry here is no
   * longer the one the copy last stored (`had`). Below a marked directory, a path this copy did not change takes
   * the other tab's content: the flush of the directory writes what is here, and would undo that tab's write.
   */
  private async keepsLocal(abs: string, had: WorkspaceRow | undefined): Promise<boolean> {
    if (!this.tracked.touches(abs)) return false;
    if (this.tracked.changedAtOrBelow(abs)) return true;
    return !(await sameEntry(this.mem, abs, had));
  }

  /** An idle lane for this timeout, or a new one: each exec runs in a lane of its own. */
  private takeLane(timeoutMs: number): Lane {
    const i = this.idle.findLastIndex((l) => l.timeoutMs === timeoutMs);
    if (i >= 0) return this.idle.splice(i, 1)[0] as Lane;
    return this.newLane(timeoutMs);
  }

  /** Gives a lane back once its exec has ended; one whose command may still be running (stopped, timed out) is dropped. */
  private releaseLane(lane: Lane, clean: boolean): void {
    lane.call = idleCall(lane.timeoutMs);
    if (!clean) return;
    this.idle.push(lane);
    if (this.idle.length > MAX_IDLE_LANES) this.idle.shift();
  }

  private newLane(timeoutMs: number): Lane {
    const lane: Omit<Lane, "bash"> = { timeoutMs, call: idleCall(timeoutMs), frames: new RefusalFrames() };
    const fs = new GuardedFs(
      this.tracked,
      () => lane.call.guard?.policy ?? OPEN_POLICY,
      (r) => {
        lane.call.refusals.push(r);
        lane.frames.note(r);
      },
      lane.frames,
    );
    const check = (name: string, args: string[]) => checkCommand(lane.call.guard, lane.call.seen, name, args);
    const custom = [
      ...missingCommands(this.jb.defineCommand, NATIVE_BUFFER, runtimeCommandNames(this.runtimes)),
      ...runtimeCommands(this.jb.defineCommand, this.runtimes, {
        root: this.root,
        timeoutMs: () => lane.call.timeoutMs,
        progress: (text) => lane.call.progress?.(text),
      }),
    ];
    const options: BashOptions = {
      fs,
      cwd: this.root,
      env: { HOME: this.root, USER: "user", TMPDIR: "/tmp" },
      customCommands: guardCustom(custom, check, lane.frames),
      executionLimits: { ...this.limits, maxExecutionTimeMs: timeoutMs },
    };
    const bash = new this.jb.Bash(options);
    guardBundled(this.jb, bash, new Set(custom.map((c) => c.name)), check, lane.frames, {
      ls: async (args, ctx, run) => {
        const printed = await run(args);
        // The rows' modes, times and order are a correction: if it fails, the listing stays as just-bash printed it.
        return longListing(args, ctx, printed).catch(() => printed);
      },
      sed: sedWithBackup,
    });
    return Object.assign(lane, { bash });
  }

  async exec(command: string, opts: ExecOptions = {}): Promise<ExecResult> {
    const timeoutMs = Math.max(1, Math.floor(opts.timeoutMs ?? DEFAULT_EXEC_TIMEOUT_MS));
    if (opts.signal?.aborted) return { stdout: "", stderr: "", combined: "", exitCode: 130, timedOut: false, aborted: true };
    await this.current();
    const timer = new AbortController();
    const handle = setTimeout(() => timer.abort(), timeoutMs);
    const signal = opts.signal ? AbortSignal.any([timer.signal, opts.signal]) : timer.signal;
    const started = Date.now();
    let stdout = "";
    let stderr = "";
    let exitCode: number;
    const lane = this.takeLane(timeoutMs);
    const call: ExecCall = { guard: opts.guard, seen: new Map(), refusals: [], timeoutMs, progress: opts.onOutput };
    lane.call = call;
    try {
      const r = await lane.bash.exec(command, { cwd: opts.cwd ?? this.root, env: opts.env, signal });
      stdout = r.stdout;
      stderr = r.stderr;
      exitCode = r.exitCode;
    } catch (e) {
      // A refused redirection ends the whole line in just-bash (its earlier output is not returned): say so.
      stderr = e instanceof PathRefused ? `${e.message} (the command line stopped here)\n` : `${describeThrown(e)}\n`;
      exitCode = 1;
    } finally {
      clearTimeout(handle);
      this.releaseLane(lane, !signal.aborted);
      await this.flush();
    }
    const aborted = opts.signal?.aborted === true;
    const timedOut = !aborted && (timer.signal.aborted || (exitCode === 124 && Date.now() - started >= timeoutMs));
    for (const r of call.refusals) opts.guard?.pathRefused?.(r);
    const combined = stdout + stderr;
    if (combined) opts.onOutput?.(combined);
    return { stdout, stderr, combined, exitCode, timedOut, aborted };
  }

  async snapshot(): Promise<string> {
    await this.refreshing;
    return this.locked(async () => {
      await this.settle();
      const tree: SnapshotTree = { files: {}, dirs: [] };
      for (const r of this.rows.values()) {
        if (isSnapshotExcluded(r.path)) continue;
        if (r.type === "file" && r.hash) tree.files[r.path] = r.hash;
        else if (r.type === "directory") tree.dirs.push(r.path);
      }
      tree.dirs.sort();
      const hash = await treeHash(tree);
      await this.store.putTree(hash, tree);
      return hash;
    });
  }

  async restore(hash: string): Promise<void> {
    await this.refreshing;
    return this.locked(async () => {
      await this.settle();
      const tree = await requireTree(this.store, hash);
      const fs = this.tracked;
      const wantDirs = new Set(tree.dirs);
      // Deepest first, so children go before their directories.
      const existing = [...this.rows.values()].filter((r) => !isSnapshotExcluded(r.path)).sort((a, b) => (a.path < b.path ? 1 : -1));
      for (const r of existing) {
        const keep = r.type === "directory" ? wantDirs.has(r.path) : r.type === "file" && r.path in tree.files;
        if (!keep) await fs.rm(joinPath(this.root, r.path), { recursive: true, force: true });
      }
      for (const d of tree.dirs) await fs.mkdir(joinPath(this.root, d), { recursive: true });
      const toWrite = Object.entries(tree.files).filter(([rel, h]) => this.rows.get(rel)?.hash !== h);
      const blobs = await this.store.getBlobs([...new Set(toWrite.map(([, h]) => h))]);
      for (const [rel, h] of toWrite) {
        const data = blobs.get(h);
        if (!data) throw new Error(`Snapshot ${hash} refers to a missing blob ${h}`);
        const abs = joinPath(this.root, rel);
        await fs.writeFile(abs, data);
      }
      await this.flushNow();
    });
  }

  changed(from: string, to: string): Promise<string[]> {
    return changedBetween(this.store, from, to);
  }

  readAt(hash: string, relPath: string): Promise<Uint8Array | undefined> {
    return readAtSnapshot(this.store, hash, relPath);
  }
}

/** Whether two rows describe the same entry (undefined: none). */
function sameRow(a: WorkspaceRow | undefined, b: WorkspaceRow | undefined): boolean {
  if (!a || !b) return a === b;
  return a.type === b.type && a.hash === b.hash && a.target === b.target && a.mode === b.mode && a.mtime === b.mtime;
}

/** Whether the entry at `abs` is still the one `row` describes (type, content, link target; times and modes aside). */
async function sameEntry(mem: InMemoryFs, abs: string, row: WorkspaceRow | undefined): Promise<boolean> {
  const kind = await entryKind(mem, abs);
  if (kind === undefined || row === undefined) return kind === row?.type;
  if (kind !== row.type) return false;
  if (kind === "symlink") return (await mem.readlink(abs)) === row.target;
  if (kind === "file") return (await sha256Hex(await mem.readFileBuffer(abs))) === row.hash;
  return true;
}

/** What is at a path of the in-memory filesystem now (links not followed). */
async function entryKind(mem: InMemoryFs, abs: string): Promise<WorkspaceRow["type"] | undefined> {
  try {
    const st = await mem.lstat(abs);
    return st.isSymbolicLink ? "symlink" : st.isDirectory ? "directory" : "file";
  } catch {
    return undefined;
  }
}

/** Fills an in-memory filesystem from stored rows (parents before children). */
async function loadRows(mem: InMemoryFs, store: WorkspaceStore, rows: WorkspaceRow[]): Promise<void> {
  const sorted = [...rows].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const hashes = [...new Set(sorted.flatMap((r) => (r.type === "file" && r.hash ? [r.hash] : [])))];
  const blobs = await store.getBlobs(hashes);
  for (const r of sorted) await placeRow(mem, joinPath(LOCAL_ROOT, r.path), r, blobs, false);
  await dateDirs(
    mem,
    sorted.filter((r) => r.type === "directory"),
  );
}

/** Writes one stored row at `abs` (a file's content from `blobs`); `overwrite`: a file is there already. */
async function placeRow(mem: InMemoryFs, abs: string, row: WorkspaceRow, blobs: Map<string, Uint8Array>, overwrite: boolean): Promise<void> {
  const meta = { mode: row.mode, mtime: new Date(row.mtime) };
  if (row.type === "directory") mem.mkdirSync(abs, { recursive: true });
  else if (row.type === "file") {
    mem.writeFileSync(abs, blobs.get(row.hash ?? "") ?? new Uint8Array(), undefined, meta);
    if (overwrite) {
      await mem.chmod(abs, row.mode);
      await mem.utimes(abs, meta.mtime, meta.mtime);
    }
  } else if (row.target !== undefined) {
    try {
      await mem.symlink(row.target, abs);
    } catch {
      // A clashing entry wins over a stale link.
    }
  }
}

/**
 * Gives directories their stored time and mode, as files have theirs: `ls -l` and `stat` show when a directory
 * was made. Done after their children are written (writing a child moves its directory's time).
 */
async function dateDirs(mem: InMemoryFs, dirs: readonly WorkspaceRow[]): Promise<void> {
  for (const r of dirs) {
    const abs = joinPath(LOCAL_ROOT, r.path);
    try {
      if ((await mem.lstat(abs)).isDirectory) {
        await mem.utimes(abs, new Date(r.mtime), new Date(r.mtime));
        await mem.chmod(abs, r.mode);
      }
    } catch {
      // Shadowed by a clashing entry.
    }
  }
}
