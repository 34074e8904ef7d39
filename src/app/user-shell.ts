/**
 * The terminal pane's commands: what the person typed, run through
 * `runUserCommand` (the bash tool, same permission rules), recorded per
 * session so they can be seen again (kept in localStorage, newest 100 per
 * session within `LOG_CHARS`, all sessions within `TOTAL_CHARS`; a long output
 * as its start and end, `cutForScreen`). The whole output of a cut entry stays
 * in this page's memory only (bounded), for its download. The model never sees them.
 *
 * A command runs under Web Locks (`holdShellLocks`): another tab showing the log tells a command running in a
 * live tab ("running in another tab") from one whose tab is gone ("stopped by a reload").
 */
import { pageStorage } from "../adapters/storage/page-storage";
import { commandLockHeld, commandLockName, holdShellLocks, lockFreed, pageLocks, shellCommandRunning, shellCommandStarted, stopShellCommand } from "./shell-runs";
import { z } from "../core/zod";
import { runUserCommand, withoutAbortLine } from "../core/session/user-command";
import { isQuotaExceeded } from "../adapters/storage/errors";
import type { AppServices } from "./bootstrap";
import type { LockManagerLike } from "./locks";
import { fitLog, LOG_CHARS, makeRoom, type Memo, onTerminalLogTrimmed, onTerminalSessionGone, TOTAL_CHARS, freeTerminalSpace, terminalLogChars } from "./terminal-log";
import { terminalLogKey } from "./terminal-log-key";
import { cutForScreen, TAIL_ONLY } from "./terminal-output";

const MAX_ENTRIES = 100;
/** Characters of whole outputs kept in memory for their download, newest first (~5 MB). */
const FULL_OUTPUT_BUDGET = 5_000_000;
/** A streamed output is written to storage at most this often (each write is the whole log). */
const PERSIST_EVERY_MS = 1_000;
const STOPPED_BY_RELOAD = "stopped by a reload";

const Entry = z.object({
  id: z.string(),
  command: z.string(),
  start: z.number(),
  end: z.optional(z.number()),
  status: z.enum(["running", "done", "stopped", "timed-out", "refused", "error"]),
  /** The output as shown: whole, or (with `head`) its last lines. */
  output: z.string(),
  /** The first lines of a cut output. */
  head: z.optional(z.string()),
  /** What a cut output leaves out between `head` and `output`. */
  /** What a cut output leaves out between `head` and `output` (`trimmed`: cut further later, for room in storage). */
  omitted: z.optional(z.object({ lines: z.number(), chars: z.number(), trimmed: z.optional(z.boolean()) })),
  exitCode: z.optional(z.number()),
  /** Why it did not run (a rule, the person), what went wrong, or what stopped it. */
  message: z.optional(z.string()),
});
/** `elsewhere`: shown only, never stored: the entry runs in another tab, which is still there. */
export type ShellEntry = z.infer<typeof Entry> & { elsewhere?: boolean };
const Log = z.array(Entry);

/** An output as the entry keeps it. */
function shown(text: string, running = false): Pick<ShellEntry, "output" | "head" | "omitted"> {
  const cut = cutForScreen(text, running ? TAIL_ONLY : undefined);
  return { output: cut.tail, head: cut.head, omitted: cut.omitted };
}

export interface ShellOptions {
  /** Web Locks (the page's by default): without them another tab's running entry reads as stopped by a reload. */
  locks?: LockManagerLike;
  /**
   * How long after another tab's command lock is freed its entry is read again before it is called stopped by a
   * reload: that tab wrote the command's end before freeing it, and this tab's copy of storage may lag a moment.
   */
  settleMs?: number;
}

/** Calls `changed` with the key another tab changed in storage (`null`: it cleared all of it); returns the way to stop. */
type WatchStorage = (changed: (key: string | null) => void) => () => void;

/** The page's `storage` events: the browser fires them in every other tab of the origin when one tab writes. */
const storageEvents: WatchStorage = (changed) => {
  if (typeof window === "undefined") return () => {};
  const on = (e: StorageEvent) => changed(e.key);
  window.addEventListener("storage", on);
  return () => window.removeEventListener("storage", on);
};

/**
 * Two tabs on one session share its log in storage, and each holds a copy in memory: a write that put this
 * tab's copy over the stored one lost the other tab's entries. So a log is merged by entry id, with what is
 * stored at the moment of each write and whenever another tab writes (`storage` event):
 * - an entry this tab ran is this tab's to update: its version wins;
 * - any other entry is the other tab's: the stored version wins, and one this tab has not seen is added;
 * - an entry gone from storage that this tab has seen was removed by another tab (its Clear), and goes here too;
 *   one this tab removed (its Clear, the cap) is not brought back from storage by its own next write.
 */
interface Merge {
  /** This tab's copy. */
  mine: ShellEntry[];
  /** What storage holds now. */
  stored: ShellEntry[];
  /** Ids this tab has held for the session (in its copy at some point). */
  seen: ReadonlySet<string>;
  /** Ids of the entries this tab ran: their versions here win. */
  own: ReadonlySet<string>;
  /** Ids of the entries this tab put in the log (ran, or brought back by its Undo): kept until stored. */
  placed: ReadonlySet<string>;
  /** Ids of those that reached storage (gone from it later: removed by another tab). */
  written: ReadonlySet<string>;
  /** `write`: this tab is about to store the result; `read`: another tab wrote; `trimmed`: cut in storage for room. */
  why: "write" | "read" | "trimmed";
}

function merged({ mine, stored, seen, own, placed, written, why }: Merge): ShellEntry[] {
  const held = new Map(mine.map((e) => [e.id, e]));
  const inStorage = new Set(stored.map((e) => e.id));
  const out: ShellEntry[] = [];
  if (why === "trimmed") {
    // Storage's (shorter) version of every entry, but a command still running here.
    const runningHere = (e: ShellEntry | undefined) => e !== undefined && own.has(e.id) && e.status === "running";
    for (const e of stored) out.push(runningHere(held.get(e.id)) ? (held.get(e.id) as ShellEntry) : e);
    // And what this tab put in the log that never reached storage (storage full): it lives in this page only.
    for (const e of mine) if (!inStorage.has(e.id) && (runningHere(e) || (placed.has(e.id) && !written.has(e.id)))) out.push(e);
    return out.sort((a, b) => a.start - b.start);
  }
  for (const e of stored) {
    const here = held.get(e.id);
    if (here) out.push(own.has(e.id) ? here : e);
    // Seen here and no longer held: this tab removed it, unless another tab's write (an Undo of its Clear) put it back.
    else if (why === "read" || !seen.has(e.id)) out.push(e);
  }
  for (const e of mine) {
    if (inStorage.has(e.id) || !placed.has(e.id)) continue;
    // Stored once and gone since: another tab cleared it, when nothing older is left (a Clear empties the log, the
    // cap drops the oldest). Gone while older entries stay: a write from a copy that had not heard of it yet (tabs
    // sync their storage asynchronously), so it is kept and written again. Never stored (storage full): kept.
    if (why === "read" && written.has(e.id) && !stored.some((s) => s.start < e.start)) continue;
    out.push(e);
  }
  return out.sort((a, b) => a.start - b.start).slice(-MAX_ENTRIES);
}

/** The whole output of a cut entry, and whether it is the whole (over the budget only its end is kept). */
export interface FullOutput {
  text: string;
  whole: boolean;
}

export class UserShell {
  private logs = new Map<string, ShellEntry[]>();
  /** By session: ids held here, ids of entries run here, ids of those that reached storage (see `merged`). */
  private seen = new Map<string, Set<string>>();
  private own = new Set<string>();
  private placed = new Set<string>();
  private written = new Set<string>();
  private states = new Map<string, Map<string, unknown>>();
  private full = new Map<string, FullOutput>();
  private writes = new Map<string, ReturnType<typeof setTimeout>>();
  private listeners = new Set<() => void>();
  /** Another tab's running entries: true while that tab holds the command's lock, false once it is freed. */
  private elsewhere = new Map<string, boolean>();
  /** Bumped when one of those changes: the shown logs are made again. */
  private gen = 0;
  private views = new Map<string, { log: ShellEntry[]; gen: number; view: ShellEntry[] }>();
  private viewed = new WeakMap<ShellEntry, { live: boolean; view: ShellEntry }>();
  /** Sessions whose log storage refused even after making room: their newest entries live in this page only. */
  private unsavedLogs = new Set<string>();
  private starting = new Set<string>();
  private readonly locks: LockManagerLike | undefined;
  private readonly settleMs: number;

  constructor(
    private readonly app: Pick<AppServices, "sandbox" | "permissions" | "wiring" | "store" | "settings">,
    private readonly memo: () => Memo | undefined = pageStorage,
    watch: WatchStorage = storageEvents,
    options: ShellOptions = { locks: pageLocks() },
  ) {
    this.locks = options.locks;
    this.settleMs = options.settleMs ?? 300;
    // A log trimmed for room (by this page, for another session's write or a pending delete's note): its shorter copy.
    onTerminalLogTrimmed((sessionID) => {
      if (this.logs.has(sessionID)) this.pickUp(sessionID, "trimmed");
    });
    // Another tab wrote a log this tab holds: its entries are taken in (a Clear there clears here too: it is the
    // session's log, not the tab's; the Undo is the clearing tab's, and its restore comes back here the same way).
    watch((key) => {
      for (const sessionID of [...this.logs.keys()]) if (key === null || key === terminalLogKey(sessionID)) this.pickUp(sessionID);
    });
    onTerminalSessionGone((event, sessionID) => {
      // Deleted: its command stops (its log stays for Undo). Gone for good: so is this page's copy.
      this.stop(sessionID);
      if (event === "forgotten") this.forget(sessionID);
    });
  }

  subscribe = (l: () => void) => {
    this.listeners.add(l);
    return () => {
      this.listeners.delete(l);
    };
  };

  /**
   * The session's recorded commands as shown, oldest first (a stable array until the next change): another tab's
   * running command is `elsewhere` while that tab holds its lock, and stopped by a reload once the tab is gone.
   */
  entries(sessionID: string): ShellEntry[] {
    const log = this.log(sessionID);
    const known = this.views.get(sessionID);
    if (known && known.log === log && known.gen === this.gen) return known.view;
    const view = log.map((e) => this.shown(e));
    this.views.set(sessionID, { log, gen: this.gen, view: view.every((e, i) => e === log[i]) ? log : view });
    return this.views.get(sessionID)?.view ?? log;
  }

  /** Whether a command runs in the session in another tab that is still there. */
  runningElsewhere(sessionID: string): boolean {
    return this.entries(sessionID).some((e) => e.elsewhere === true);
  }

  /** Whether storage refused the session's log even after room was made: its newest commands are not kept past this page. */
  unsaved(sessionID: string): boolean {
    return this.unsavedLogs.has(sessionID);
  }

  /** This tab's copy of the log, as stored (another tab's running entries as running). */
  private log(sessionID: string): ShellEntry[] {
    let log = this.logs.get(sessionID);
    if (!log) {
      log = this.load(sessionID);
      this.hold(sessionID, log);
    }
    return log;
  }

  private shown(e: ShellEntry): ShellEntry {
    if (e.status !== "running" || this.own.has(e.id)) return e;
    const live = this.liveElsewhere(e.id);
    const known = this.viewed.get(e);
    if (known?.live === live) return known.view;
    const view: ShellEntry = live ? { ...e, elsewhere: true } : { ...e, status: "stopped", message: STOPPED_BY_RELOAD };
    this.viewed.set(e, { live, view });
    return view;
  }

  /**
   * Whether the tab that runs entry `id` is still there (it holds the command's lock). Taken as yes until the lock
   * manager answers (the entry came from a tab's write a moment ago, as a rule), then followed until it is freed.
   */
  private liveElsewhere(id: string): boolean {
    const known = this.elsewhere.get(id);
    if (known !== undefined) return known;
    const locks = this.locks;
    this.elsewhere.set(id, locks !== undefined);
    if (!locks) return false;
    const name = commandLockName(id);
    const over = () => {
      this.elsewhere.set(id, false);
      // Its end, if that tab wrote one, is read before the entry is called stopped by a reload.
      for (const [sessionID, log] of this.logs) {
        if (!log.some((e) => e.id === id)) continue;
        this.pickUp(sessionID, "read");
        this.settleStopped(sessionID, id);
      }
      this.gen++;
      for (const l of this.listeners) l();
    };
    void commandLockHeld(locks, name)
      .then((held) => (held ? lockFreed(locks, name).then(() => new Promise((r) => setTimeout(r, this.settleMs))) : undefined))
      .catch(() => undefined)
      .then(over);
    return true;
  }

  /**
   * An entry still running in storage after its tab let its lock go without writing an end: that tab is gone (closed,
   * reloaded). It is stored as stopped by a reload, once, by whichever tab finds it, and this tab's version wins from
   * now on: left as running, every tab would take it for a live command (and the caps never drop a running entry).
   */
  private settleStopped(sessionID: string, id: string): void {
    const log = this.logs.get(sessionID) ?? [];
    const e = log.find((x) => x.id === id);
    if (e?.status !== "running") return;
    this.own.add(id);
    this.set(
      sessionID,
      log.map((x) => (x.id === id ? { ...x, status: "stopped" as const, message: STOPPED_BY_RELOAD } : x)),
    );
  }

  /** The whole output of an entry whose output is cut, while this page holds it. */
  fullOutput(entryID: string): FullOutput | undefined {
    return this.full.get(entryID);
  }

  running(sessionID: string): boolean {
    return shellCommandRunning(sessionID);
  }

  /** Stops the session's command (`entryID`: that one only, as shown; another tab may have started one since). */
  stop(sessionID: string, entryID?: string): void {
    stopShellCommand(sessionID, entryID);
  }

  /** Empties the session's log; returns what it held (for `restore`). */
  clear(sessionID: string): ShellEntry[] {
    const removed = this.log(sessionID);
    this.set(sessionID, []);
    return removed;
  }

  /** Puts back entries `clear` removed, with any run since. */
  restore(sessionID: string, entries: ShellEntry[]): void {
    const now = this.log(sessionID);
    const ids = new Set(now.map((e) => e.id));
    const back = entries.filter((e) => !ids.has(e.id));
    // Put back by this tab: its next write stores them again, though it had seen them go.
    for (const e of back) this.placed.add(e.id);
    this.set(sessionID, [...back, ...now].sort((a, b) => a.start - b.start).slice(-MAX_ENTRIES));
  }

  async run(sessionID: string, command: string): Promise<void> {
    if (shellCommandRunning(sessionID) || this.starting.has(sessionID) || this.runningElsewhere(sessionID) || command.trim() === "") return;
    const controller = new AbortController();
    const entry: ShellEntry = { id: `cmd_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 6)}`, command, start: Date.now(), status: "running", output: "" };
    // A step of the model that starts meanwhile waits for this command (its changes are the person's).
    const ended = shellCommandStarted(sessionID, () => controller.abort(), command, entry.id);
    // Held while it runs, and before any tab can read the entry: other tabs wait for it, and tell it from a gone tab's.
    this.starting.add(sessionID);
    const release = await holdShellLocks(this.locks, sessionID, entry.id);
    this.starting.delete(sessionID);
    this.own.add(entry.id);
    this.placed.add(entry.id);
    if (!release) {
      ended();
      const message = "not run: a command is running in this session in another tab (wait for it to end, or stop it)";
      this.set(sessionID, [...this.log(sessionID), { ...entry, status: "refused" as const, message, end: Date.now() }].slice(-MAX_ENTRIES));
      return;
    }
    let streamed = "";
    const update = (patch: Partial<ShellEntry>, persist: "now" | "soon" = "now") => {
      const log = this.log(sessionID);
      // Cleared, or the session gone meanwhile: nothing to record.
      if (!log.some((e) => e.id === entry.id)) return;
      this.set(
        sessionID,
        log.map((e) => (e.id === entry.id ? { ...e, ...patch } : e)),
        persist,
      );
    };
    // `partial`: the text is the streamed tail (it starts with "…"), not the whole output: shown as a tail, never offered as whole.
    const finish = (patch: Partial<ShellEntry>, text: string, partial = false) => {
      const cut = shown(text, partial);
      if (cut.omitted && !partial) this.keepFull(entry.id, text);
      update({ ...patch, ...cut, end: Date.now() });
    };
    this.set(sessionID, [...this.log(sessionID), entry].slice(-MAX_ENTRIES));
    try {
      const { sandbox: sandboxes, permissions, wiring, store, settings } = this.app;
      const session = await store.getSession(sessionID);
      // Hands the session's own rules to the broker, as a run of the model would.
      if (session) await wiring.tools(session.agent ?? "build", session);
      const sandbox = await sandboxes.sandboxFor(sessionID);
      const rules = [...permissions.rulesFor(sessionID), settings.get().permissions, session?.permission ?? []];
      const r = await runUserCommand(
        { sandbox, permissions, rules, state: this.stateFor(sessionID) },
        {
          sessionID,
          command,
          signal: controller.signal,
          onOutput: (text) => {
            streamed = text;
            update(shown(text, true), "soon");
          },
        },
      );
      if (r.status === "done") finish({ status: r.timedOut ? "timed-out" : "done", exitCode: r.exitCode }, r.output);
      // What it printed before the stop, if the sandbox's answer lost it.
      else if (r.status === "stopped") finish({ status: "stopped" }, r.output || withoutAbortLine(streamed.replace(/\n+$/, "")), !r.output);
      else update({ status: r.status, message: r.message, end: Date.now() });
    } catch (e) {
      update({ status: "error", message: e instanceof Error ? e.message : String(e), end: Date.now() });
    } finally {
      // Its end is written (above) before its locks go: a tab that waited reads it.
      ended();
      release();
      for (const l of this.listeners) l();
    }
  }

  /** Keeps a cut entry's whole output in memory, the newest first, within the budget. */
  private keepFull(entryID: string, text: string): void {
    const whole = text.length <= FULL_OUTPUT_BUDGET;
    this.full.set(entryID, { text: whole ? text : text.slice(-FULL_OUTPUT_BUDGET), whole });
    let total = 0;
    for (const [id, f] of [...this.full].reverse()) {
      total += f.text.length;
      if (total > FULL_OUTPUT_BUDGET && id !== entryID) this.full.delete(id);
    }
  }

  private stateFor(sessionID: string): Map<string, unknown> {
    let s = this.states.get(sessionID);
    if (!s) {
      s = new Map();
      this.states.set(sessionID, s);
    }
    return s;
  }

  private forget(sessionID: string): void {
    for (const e of this.logs.get(sessionID) ?? []) this.full.delete(e.id);
    this.logs.delete(sessionID);
    this.seen.delete(sessionID);
    this.views.delete(sessionID);
    this.unsavedLogs.delete(sessionID);
    this.states.delete(sessionID);
    clearTimeout(this.writes.get(sessionID));
    this.writes.delete(sessionID);
    for (const l of this.listeners) l();
  }

  /** Makes `log` this tab's copy of the session's log, noting its ids as seen here. */
  private hold(sessionID: string, log: ShellEntry[]): void {
    this.logs.set(sessionID, log);
    let seen = this.seen.get(sessionID);
    if (!seen) {
      seen = new Set();
      this.seen.set(sessionID, seen);
    }
    for (const e of log) seen.add(e.id);
  }

  private set(sessionID: string, log: ShellEntry[], persist: "now" | "soon" = "now"): void {
    this.hold(sessionID, log);
    if (persist === "now") this.persist(sessionID);
    // A streamed write leaves the total to the command's end (it would read every other log each second).
    else if (!this.writes.has(sessionID)) this.writes.set(sessionID, setTimeout(() => this.persist(sessionID, false), PERSIST_EVERY_MS));
    for (const l of this.listeners) l();
  }

  /** The merge of this tab's copy with what storage holds now (see `merged`). */
  private mergedWith(sessionID: string, why: Merge["why"]): ShellEntry[] {
    const mine = this.logs.get(sessionID) ?? [];
    return merged({ mine, stored: this.load(sessionID), seen: this.seen.get(sessionID) ?? new Set(), own: this.own, placed: this.placed, written: this.written, why });
  }

  /** Another tab wrote the session's log (or it was trimmed for room): this tab's copy takes its entries in. */
  private pickUp(sessionID: string, why: "read" | "trimmed" = "read"): void {
    const before = this.logs.get(sessionID) ?? [];
    const log = this.mergedWith(sessionID, why);
    if (log.length === before.length && log.every((e, i) => e === before[i])) return;
    this.hold(sessionID, log);
    for (const l of this.listeners) l();
  }

  /** Writes the session's log (within its cap; `total`: and all logs within theirs, the oldest sessions' trimmed first). */
  private persist(sessionID: string, total = true): void {
    clearTimeout(this.writes.get(sessionID));
    this.writes.delete(sessionID);
    // Read, merge and write at once. Another tab may still write from a copy that has not heard of this write yet (tabs
    // sync localStorage asynchronously): `merged` keeps an entry lost that way and writes it again.
    const log = fitLog(this.mergedWith(sessionID, "write"), LOG_CHARS);
    this.keep(sessionID, log);
    const memo = this.memo();
    if (!memo) return;
    const key = terminalLogKey(sessionID);
    try {
      if (log.length === 0) {
        memo.removeItem(key);
        this.saved(sessionID, true);
        return;
      }
      const json = JSON.stringify(log);
      const before = memo.getItem(key)?.length ?? 0;
      if (total && json.length > before) freeTerminalSpace(terminalLogChars(memo, sessionID) + json.length - TOTAL_CHARS, memo, sessionID);
      this.saved(sessionID, this.write(memo, sessionID, log, json.length - before));
    } catch {
      // No storage access (private mode): the log lasts for this page.
    }
  }

  /** Makes `log` this tab's copy, telling the pane when it differs. */
  private keep(sessionID: string, log: ShellEntry[]): void {
    const before = this.logs.get(sessionID);
    if (before && (log.length !== before.length || log.some((e, i) => e !== before[i]))) {
      this.hold(sessionID, log);
      for (const l of this.listeners) l();
    }
  }

  private saved(sessionID: string, ok: boolean): void {
    if (ok === !this.unsavedLogs.has(sessionID)) return;
    if (ok) this.unsavedLogs.delete(sessionID);
    else this.unsavedLogs.add(sessionID);
    for (const l of this.listeners) l();
  }

  /**
   * Stores the log; false when storage is full even after making room: first the glance's pictures and the other
   * sessions' logs (the oldest first, more each time), then this log's own older entries down to its newest.
   * Errors other than a full storage are thrown.
   */
  private write(memo: Memo, sessionID: string, log: ShellEntry[], grows: number): boolean {
    const key = terminalLogKey(sessionID);
    const attempt = (l: ShellEntry[]): boolean => {
      try {
        memo.setItem(key, JSON.stringify(l));
        for (const e of l) if (this.placed.has(e.id)) this.written.add(e.id);
        return true;
      } catch (e) {
        if (isQuotaExceeded(e)) return false;
        throw e;
      }
    };
    if (attempt(log)) return true;
    for (let need = Math.max(8_192, grows); makeRoom(need, memo, sessionID); need *= 4) if (attempt(log)) return true;
    for (let budget = JSON.stringify(log).length / 2; ; budget /= 2) {
      const fitted = fitLog(log, budget);
      if (attempt(fitted)) {
        this.keep(sessionID, fitted);
        return true;
      }
      if (fitted.length <= 1 || budget < 1_000) return false;
    }
  }

  private load(sessionID: string): ShellEntry[] {
    try {
      const raw = this.memo()?.getItem(terminalLogKey(sessionID));
      const parsed = raw ? Log.safeParse(JSON.parse(raw)) : undefined;
      return parsed?.success ? parsed.data : [];
    } catch {
      return [];
    }
  }
}

const shells = new WeakMap<AppServices, UserShell>();

/** The terminal's command log and runner for this app. */
export function userShell(app: AppServices): UserShell {
  let s = shells.get(app);
  if (!s) {
    s = new UserShell(app);
    shells.set(app, s);
  }
  return s;
}
