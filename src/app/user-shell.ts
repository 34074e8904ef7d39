/**
 * The terminal pane's commands: what the person typed, run through
 * `runUserCommand` (the bash tool, same permission rules), recorded per
 * session so they can be seen again (kept in localStorage, newest 100 per
 * session; a long output as its start and end, `cutForScreen`). The whole
 * output of a cut entry stays in this page's memory only (bounded), for its
 * download. The model never sees them.
 */
import { pageStorage } from "../adapters/storage/page-storage";
import { shellCommandRunning, shellCommandStarted, stopShellCommand } from "./shell-runs";
import { z } from "../core/zod";
import { runUserCommand, withoutAbortLine } from "../core/session/user-command";
import type { AppServices } from "./bootstrap";
import { onTerminalSessionGone, terminalLogKey } from "./terminal-log";
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
  omitted: z.optional(z.object({ lines: z.number(), chars: z.number() })),
  exitCode: z.optional(z.number()),
  /** Why it did not run (a rule, the person), what went wrong, or what stopped it. */
  message: z.optional(z.string()),
});
export type ShellEntry = z.infer<typeof Entry>;
const Log = z.array(Entry);

/** An output as the entry keeps it. */
function shown(text: string, running = false): Pick<ShellEntry, "output" | "head" | "omitted"> {
  const cut = cutForScreen(text, running ? TAIL_ONLY : undefined);
  return { output: cut.tail, head: cut.head, omitted: cut.omitted };
}

/** As stored: a command still running is recorded as cut short, which it is if the page goes. */
function stored(e: ShellEntry): ShellEntry {
  return e.status === "running" ? { ...e, status: "stopped", message: STOPPED_BY_RELOAD } : e;
}

type Memo = Pick<Storage, "getItem" | "setItem" | "removeItem">;

/** The whole output of a cut entry, and whether it is the whole (over the budget only its end is kept). */
export interface FullOutput {
  text: string;
  whole: boolean;
}

export class UserShell {
  private logs = new Map<string, ShellEntry[]>();
  private states = new Map<string, Map<string, unknown>>();
  private full = new Map<string, FullOutput>();
  private writes = new Map<string, ReturnType<typeof setTimeout>>();
  private listeners = new Set<() => void>();

  constructor(
    private readonly app: Pick<AppServices, "sandbox" | "permissions" | "wiring" | "store" | "settings">,
    private readonly memo: () => Memo | undefined = pageStorage,
  ) {
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

  /** The session's recorded commands, oldest first (a stable array until the next change). */
  entries(sessionID: string): ShellEntry[] {
    let log = this.logs.get(sessionID);
    if (!log) {
      log = this.load(sessionID);
      this.logs.set(sessionID, log);
    }
    return log;
  }

  /** The whole output of an entry whose output is cut, while this page holds it. */
  fullOutput(entryID: string): FullOutput | undefined {
    return this.full.get(entryID);
  }

  running(sessionID: string): boolean {
    return shellCommandRunning(sessionID);
  }

  stop(sessionID: string): void {
    stopShellCommand(sessionID);
  }

  /** Empties the session's log; returns what it held (for `restore`). */
  clear(sessionID: string): ShellEntry[] {
    const removed = this.entries(sessionID);
    this.set(sessionID, []);
    return removed;
  }

  /** Puts back entries `clear` removed, with any run since. */
  restore(sessionID: string, entries: ShellEntry[]): void {
    const now = this.entries(sessionID);
    const ids = new Set(now.map((e) => e.id));
    const merged = [...entries.filter((e) => !ids.has(e.id)), ...now].sort((a, b) => a.start - b.start);
    this.set(sessionID, merged.slice(-MAX_ENTRIES));
  }

  async run(sessionID: string, command: string): Promise<void> {
    if (shellCommandRunning(sessionID) || command.trim() === "") return;
    const controller = new AbortController();
    // A step of the model that starts meanwhile waits for this command (its changes are the person's).
    const ended = shellCommandStarted(sessionID, () => controller.abort());
    const entry: ShellEntry = { id: `cmd_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 6)}`, command, start: Date.now(), status: "running", output: "" };
    let streamed = "";
    const update = (patch: Partial<ShellEntry>, persist: "now" | "soon" = "now") => {
      const log = this.entries(sessionID);
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
    this.set(sessionID, [...this.entries(sessionID), entry].slice(-MAX_ENTRIES));
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
      ended();
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
    this.states.delete(sessionID);
    clearTimeout(this.writes.get(sessionID));
    this.writes.delete(sessionID);
    for (const l of this.listeners) l();
  }

  private set(sessionID: string, log: ShellEntry[], persist: "now" | "soon" = "now"): void {
    this.logs.set(sessionID, log);
    if (persist === "now") this.persist(sessionID);
    else if (!this.writes.has(sessionID)) this.writes.set(sessionID, setTimeout(() => this.persist(sessionID), PERSIST_EVERY_MS));
    for (const l of this.listeners) l();
  }

  private persist(sessionID: string): void {
    clearTimeout(this.writes.get(sessionID));
    this.writes.delete(sessionID);
    const log = this.logs.get(sessionID) ?? [];
    try {
      const memo = this.memo();
      if (log.length === 0) memo?.removeItem(terminalLogKey(sessionID));
      else memo?.setItem(terminalLogKey(sessionID), JSON.stringify(log.map(stored)));
    } catch {
      // Storage full or private mode: the log lasts for this page.
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
