/**
 * Where the terminal keeps each session's commands: localStorage, `tabcode.terminal.<sessionID>`. A log holds
 * command lines and their output (secrets too), so it goes with its session: when the session's deletion is
 * final (its files go then: `deleteSessionFiles`, and `finishPendingDeletes` for a page closed before its
 * Undo went), never at the delete itself (Undo brings the log back); and, at start-up when the page is idle,
 * logs of sessions that no longer exist (left by versions that kept them) are swept.
 *
 * Logs are capped: each within `LOG_CHARS`, all of them within `TOTAL_CHARS` (older outputs trimmed to their last
 * lines, then the oldest entries and sessions go first: `fitLog`, `freeTerminalSpace`), so they never fill the
 * storage the settings and the notes of pending deletes need.
 */
import { pageStorage } from "../adapters/storage/page-storage";
import { forgetGlances, glanceChars, glanceIndex } from "../ui/glance/dismiss";
import { pendingDeleteIDs } from "./pending-deletes";
import { TERMINAL_LOG_PREFIX as PREFIX, terminalLogKey } from "./terminal-log-key";
import { countLines, cutForScreen, type Limits } from "./terminal-output";

/** localStorage, or a stand-in; one without `key`/`length` lists no logs (nothing is swept or trimmed but the one named). */
export type Memo = Pick<Storage, "getItem" | "setItem" | "removeItem"> & Partial<Pick<Storage, "key" | "length">>;

/** `deleted`: the session was deleted (its Undo still offered); `forgotten`: its log is gone for good. */
type Gone = (event: "deleted" | "forgotten", sessionID: string) => void;
const listeners = new Set<Gone>();

/** The terminal, once loaded, hears of its sessions going (this page's copy of a log lives in memory). */
export function onTerminalSessionGone(l: Gone): () => void {
  listeners.add(l);
  return () => {
    listeners.delete(l);
  };
}

/** A session was deleted, its Undo still offered: a command of its running in the terminal stops. */
export function terminalSessionDeleted(sessionID: string): void {
  for (const l of listeners) l("deleted", sessionID);
}

/** The session's deletion is final: its terminal log goes, from storage and from this page. */
export function forgetTerminalLog(sessionID: string, memo: Pick<Storage, "removeItem"> | undefined = pageStorage()): void {
  try {
    memo?.removeItem(terminalLogKey(sessionID));
  } catch {
    // No storage access: nothing was kept there either.
  }
  for (const l of listeners) l("forgotten", sessionID);
}

/** The sessions with a terminal log in storage. */
function loggedSessions(memo: Memo | undefined): string[] {
  const ids: string[] = [];
  try {
    for (let i = 0; i < (memo?.length ?? 0); i++) {
      const k = memo?.key?.(i);
      if (k?.startsWith(PREFIX) && k.length > PREFIX.length) ids.push(k.slice(PREFIX.length));
    }
  } catch {
    // No storage access.
  }
  return ids;
}

/**
 * Removes the logs of sessions that no longer exist; returns how many went. `existing` answers for all the logged
 * sessions in one read (none when no log is stored). A session whose delete is still pending (its Undo may be
 * offered, here or in another tab) keeps its log: its final delete takes it.
 */
export async function sweepTerminalLogs(existing: (sessionIDs: string[]) => Promise<ReadonlySet<string>>, memo: Memo | undefined = pageStorage()): Promise<number> {
  const logged = loggedSessions(memo);
  if (logged.length === 0) return 0;
  const live = await existing(logged);
  let swept = 0;
  for (const id of logged) {
    if (live.has(id)) continue;
    // Read after the lookup: a delete made meanwhile is noted before its rows go.
    if (pendingDeleteIDs(memo).includes(id)) continue;
    forgetTerminalLog(id, memo);
    swept++;
  }
  return swept;
}

/** The one-line-per-record shape of a stored entry that the caps need (user-shell.ts checks the rest). */
export interface LogEntry {
  id: string;
  start: number;
  status: string;
  output: string;
  head?: string;
  omitted?: { lines: number; chars: number; trimmed?: boolean };
}

/** Characters one session's log may take in storage (its JSON): about ten long outputs, or a hundred short ones. */
export const LOG_CHARS = 250_000;
/**
 * Characters all terminal logs together may take. localStorage holds about 5 M characters an origin, shared with
 * the settings, the key, the glance's pictures (up to 1.6 M) and the notes of pending deletes.
 */
export const TOTAL_CHARS = 1_000_000;
/** What an older entry keeps of its output once trimmed for room: its last lines (the terminal's own cut, tail only). */
const TRIMMED: Limits = { headLines: 0, headChars: 0, tailLines: 10, tailChars: 1_000 };

/** An entry with its output cut to its last lines (and a note of how many went), or itself when it is already that short. */
function trimmed<E extends LogEntry>(e: E): E {
  const cut = cutForScreen(e.output, TRIMMED);
  if (!cut.omitted && e.head === undefined) return e;
  const headLines = e.head === undefined ? 0 : countLines(e.head);
  const gone = (e.omitted?.lines ?? 0) + headLines + (cut.omitted?.lines ?? 0);
  const chars = (e.omitted?.chars ?? 0) + (e.head?.length ?? 0) + e.output.length - cut.tail.length;
  const { head: _head, ...rest } = e;
  return { ...rest, output: cut.tail, omitted: { lines: gone, chars, trimmed: true } } as E;
}

const sizeOf = (e: unknown) => JSON.stringify(e).length + 1;

/**
 * The log within `budget` characters of JSON: first the outputs of the oldest entries are cut to their last lines
 * (marked as trimmed), then the oldest entries go. An entry still running, and the newest one, are never dropped.
 */
export function fitLog<E extends LogEntry>(log: E[], budget: number): E[] {
  let size = JSON.stringify(log).length;
  if (size <= budget) return log;
  const out = [...log];
  for (let i = 0; i < out.length && size > budget; i++) {
    const e = out[i];
    if (!e || e.status === "running") continue;
    const t = trimmed(e);
    size -= sizeOf(e) - sizeOf(t);
    out[i] = t;
  }
  while (size > budget) {
    const i = out.findIndex((e) => e.status !== "running");
    if (i === -1 || i === out.length - 1) break;
    size -= sizeOf(out[i]);
    out.splice(i, 1);
  }
  return out;
}

/** The other tabs' and this page's shells hear of logs trimmed for room (this page hears no `storage` event of its own writes). */
type Trimmed = (sessionID: string) => void;
const trimListeners = new Set<Trimmed>();
export function onTerminalLogTrimmed(l: Trimmed): () => void {
  trimListeners.add(l);
  return () => {
    trimListeners.delete(l);
  };
}

/**
 * Frees at least `need` characters of storage from terminal logs, the logs of the sessions used longest ago first
 * (their outputs trimmed, then their oldest entries, then the whole log; a command still running stays), leaving
 * `except` alone; returns what it freed (less than `need` when there was no more to free).
 */
export function freeTerminalSpace(need: number, memo: Memo | undefined = pageStorage(), except?: string): number {
  if (!memo || need <= 0) return 0;
  const logs: Array<{ id: string; raw: string; log: LogEntry[]; last: number }> = [];
  for (const { id, raw, log } of storedLogs(memo, except)) {
    // Unreadable: the shell reads it as empty too.
    if (!log) memo.removeItem(terminalLogKey(id));
    else logs.push({ id, raw, log, last: Math.max(0, ...log.map((e) => (typeof e?.start === "number" ? e.start : 0))) });
  }
  logs.sort((a, b) => a.last - b.last);
  let freed = 0;
  for (const { id, raw, log } of logs) {
    if (freed >= need) break;
    const kept = shrunk(log, Math.max(0, raw.length - (need - freed)));
    try {
      if (kept.length === 0) memo.removeItem(terminalLogKey(id));
      else memo.setItem(terminalLogKey(id), JSON.stringify(kept));
    } catch {
      continue;
    }
    freed += raw.length - keptChars(kept);
    for (const l of trimListeners) l(id);
  }
  return freed;
}

/** The other sessions' stored logs (all but `except`'s), each parsed; `log` is undefined for one that cannot be read. */
function storedLogs(memo: Memo, except: string | undefined): Array<{ id: string; raw: string; log?: LogEntry[] }> {
  const out: Array<{ id: string; raw: string; log?: LogEntry[] }> = [];
  for (const id of loggedSessions(memo)) {
    if (id === except) continue;
    const raw = memo.getItem(terminalLogKey(id)) ?? "";
    let log: unknown;
    try {
      log = JSON.parse(raw);
    } catch {
      out.push({ id, raw });
      continue;
    }
    if (Array.isArray(log)) out.push({ id, raw, log: log as LogEntry[] });
  }
  return out;
}

/** What a log keeps to fit `budget`: cut by `fitLog`, or nothing when even that is too large (unless a command of it runs). */
function shrunk(log: LogEntry[], budget: number): LogEntry[] {
  const kept = fitLog(log, budget);
  return JSON.stringify(kept).length > budget && !kept.some((e) => e.status === "running") ? [] : kept;
}

/** Characters a kept log takes as stored (none: it is removed). */
function keptChars(kept: LogEntry[]): number {
  return kept.length === 0 ? 0 : JSON.stringify(kept).length;
}

/** Characters the terminal logs take in storage, but `except`'s. */
export function terminalLogChars(memo: Memo | undefined = pageStorage(), except?: string): number {
  let n = 0;
  for (const id of loggedSessions(memo)) {
    if (id === except) continue;
    try {
      n += memo?.getItem(terminalLogKey(id))?.length ?? 0;
    } catch {
      // No storage access.
    }
  }
  return n;
}

/**
 * What `makeRoom(need, memo, except)` could free at most, found without freeing anything: the glance's pictures
 * (and their index), and the other sessions' terminal logs as far as `freeTerminalSpace` would cut them (the whole
 * log, or down to what `fitLog` keeps of it at no budget while a command of it runs). A check that must change
 * nothing (the delete asked about at the press of its button, which the user may still call off) judges by this
 * whether making room would help.
 */
export function roomToMake(memo: Memo | undefined = pageStorage(), except?: string): number {
  if (!memo) return 0;
  try {
    // An unreadable log is removed whole; the others are cut as `freeTerminalSpace` would cut them for any need.
    return storedLogs(memo, except).reduce((n, { raw, log }) => n + raw.length - (log ? keptChars(shrunk(log, 0)) : 0), glanceChars(memo));
  } catch {
    // No storage access.
    return 0;
  }
}

/**
 * Makes room in a full storage for a write of about `need` characters: the glance's pictures go first (they only
 * speed up a cold open and are taken again), then terminal logs, the oldest sessions' first (`except`'s last of
 * all: not at all). Returns whether anything was freed.
 */
export function makeRoom(need: number, memo: Memo | undefined = pageStorage(), except?: string): boolean {
  let freed = false;
  try {
    if (memo && glanceIndex(memo).length > 0) {
      forgetGlances(memo);
      freed = true;
    }
  } catch {
    // No storage access.
  }
  return freeTerminalSpace(need, memo, except) > 0 || freed;
}
