/**
 * The terminal pane's commands: what the person typed, run through
 * `runUserCommand` (the bash tool, same permission rules), recorded per
 * session so they can be seen again (kept in localStorage, newest 100 per
 * session; output capped). The model never sees them.
 */
import { shellCommandStarted } from "./shell-runs";
import { z } from "../core/zod";
import { runUserCommand } from "../core/session/user-command";
import type { AppServices } from "./bootstrap";

const MAX_ENTRIES = 100;
const MAX_OUTPUT = 20_000;

const Entry = z.object({
  id: z.string(),
  command: z.string(),
  start: z.number(),
  end: z.optional(z.number()),
  status: z.enum(["running", "done", "refused", "error"]),
  output: z.string(),
  exitCode: z.optional(z.number()),
  /** Why it did not run (a rule, the person), or what went wrong. */
  message: z.optional(z.string()),
});
export type ShellEntry = z.infer<typeof Entry>;
const Log = z.array(Entry);

const key = (sessionID: string) => `tabcode.terminal.${sessionID}`;
const tail = (s: string) => (s.length > MAX_OUTPUT ? `…${s.slice(-MAX_OUTPUT)}` : s);

class UserShell {
  private logs = new Map<string, ShellEntry[]>();
  private states = new Map<string, Map<string, unknown>>();
  private runs = new Map<string, AbortController>();
  private listeners = new Set<() => void>();

  constructor(private readonly app: AppServices) {}

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

  running(sessionID: string): boolean {
    return this.runs.has(sessionID);
  }

  stop(sessionID: string): void {
    this.runs.get(sessionID)?.abort();
  }

  clear(sessionID: string): void {
    this.set(sessionID, []);
  }

  async run(sessionID: string, command: string): Promise<void> {
    if (this.runs.has(sessionID) || command.trim() === "") return;
    const controller = new AbortController();
    this.runs.set(sessionID, controller);
    // A step of the model that starts meanwhile waits for this command (its changes are the person's).
    const ended = shellCommandStarted(sessionID);
    const entry: ShellEntry = { id: `cmd_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 6)}`, command, start: Date.now(), status: "running", output: "" };
    const update = (patch: Partial<ShellEntry>) => {
      this.set(
        sessionID,
        this.entries(sessionID).map((e) => (e.id === entry.id ? { ...e, ...patch } : e)),
      );
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
        { sessionID, command, signal: controller.signal, onOutput: (text) => update({ output: tail(text) }) },
      );
      if (r.status === "done") update({ status: "done", output: tail(r.output), exitCode: r.exitCode, end: Date.now() });
      else update({ status: r.status, message: r.message, end: Date.now() });
    } catch (e) {
      update({ status: "error", message: e instanceof Error ? e.message : String(e), end: Date.now() });
    } finally {
      ended();
      this.runs.delete(sessionID);
      for (const l of this.listeners) l();
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

  private set(sessionID: string, log: ShellEntry[]): void {
    this.logs.set(sessionID, log);
    try {
      // A command still running after a reload is gone: recorded as cut short.
      localStorage.setItem(key(sessionID), JSON.stringify(log.filter((e) => e.status !== "running")));
    } catch {
      // Storage full or private mode: the log lasts for this page.
    }
    for (const l of this.listeners) l();
  }

  private load(sessionID: string): ShellEntry[] {
    try {
      const raw = localStorage.getItem(key(sessionID));
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
