/**
 * Which sessions have a command of the person's running in the Terminal, and a way to wait for it to end. A
 * step of the model waits for it before it takes its starting snapshot, so a command the person started
 * just before a send is the person's change, not the agent's (revert would otherwise undo it with the turn).
 *
 * Across tabs: a tab running a command holds two Web Locks for as long as it runs (`holdShellLocks`): the
 * session's (`shellLockName`: another tab's turn waits for it, another tab's Run is refused) and the command's
 * own (`commandLockName`: another tab showing the entry asks whether that tab is still there). The browser
 * frees both when the tab goes, so a command of a closed or reloaded tab is never taken for a running one.
 * Stop works from any tab: a tab that does not run the session's command asks the others over a
 * BroadcastChannel. Tiny on purpose: the start-up imports it; the terminal itself loads on demand.
 */
import { pageStorage } from "../adapters/storage/page-storage";
import type { LockManagerLike } from "./locks";
import { terminalLogKey } from "./terminal-log-key";

const running = new Map<string, { done: Promise<void>; end: () => void; stop: () => void; command: string; entryID?: string }>();

/** The lock a tab holds (exclusive) while a command of the person's runs in the session. */
export const shellLockName = (sessionID: string): string => `tabcode-shell-${sessionID}`;
/** The lock a tab holds (exclusive) while the log's entry `entryID` runs there. */
export const commandLockName = (entryID: string): string => `tabcode-shell-cmd-${entryID}`;

/** The page's Web Locks, if it has them. */
export function pageLocks(): LockManagerLike | undefined {
  return typeof navigator !== "undefined" ? navigator.locks : undefined;
}

/** Whether `name` is held by a running command (waiters ask in shared mode, which does not count). */
export async function commandLockHeld(locks: LockManagerLike, name: string): Promise<boolean> {
  const state = await locks.query();
  return (state.held ?? []).some((l) => l.name === name && l.mode === "exclusive");
}

/** Resolves once nobody holds `name` exclusively (a shared request waits for the holder and takes nothing from it). */
export async function lockFreed(locks: LockManagerLike, name: string): Promise<void> {
  await locks.request(name, { mode: "shared" }, async () => undefined);
}

/**
 * Holds the session's and the command's locks until the returned function is called; `undefined` when another
 * tab runs a command in the session (its lock is taken). Without Web Locks (or when they fail) nothing is held.
 */
export function holdShellLocks(locks: LockManagerLike | undefined, sessionID: string, entryID: string): Promise<(() => void) | undefined> {
  if (!locks) return Promise.resolve(() => undefined);
  return new Promise((resolve) => {
    let release = () => {};
    const over = new Promise<void>((r) => {
      release = r;
    });
    locks
      .request(shellLockName(sessionID), { ifAvailable: true }, async (lock) => {
        if (!lock) return resolve(undefined);
        await locks.request(commandLockName(entryID), async () => {
          resolve(release);
          await over;
        });
      })
      .catch(() => resolve(release));
  });
}

const STOP_CHANNEL = "tabcode-shell-stop";
let channel: BroadcastChannel | undefined;

/** The tabs' stop requests (listened to once this tab has run a command). */
function stopChannel(): BroadcastChannel | undefined {
  if (channel || typeof BroadcastChannel === "undefined") return channel;
  channel = new BroadcastChannel(STOP_CHANNEL);
  channel.onmessage = (e: MessageEvent) => {
    const data = e.data as { stop?: unknown; entry?: unknown } | null;
    const sessionID = data?.stop;
    if (typeof sessionID !== "string") return;
    // A Stop aimed at one command (the Terminal's) stops that one only: the other tab may have seen it end late
    // and started another meanwhile. One aimed at the session (a waiting turn's bar) stops whatever runs there.
    const here = running.get(sessionID);
    if (here && (typeof data?.entry !== "string" || here.entryID === data.entry)) here.stop();
  };
  // Node (tests): the channel must not keep the process alive.
  (channel as { unref?: () => void }).unref?.();
  return channel;
}

/**
 * Marks a command of the person's (`command`, the line as typed) as running in `sessionID`, stopped by `stop`;
 * call the returned function when it ends. The one record of what runs in this tab: the terminal asks it too.
 */
export function shellCommandStarted(sessionID: string, stop: () => void, command: string, entryID?: string): () => void {
  stopChannel();
  let end = () => {};
  const done = new Promise<void>((resolve) => {
    end = resolve;
  });
  const entry = { done, end, stop, command, ...(entryID === undefined ? {} : { entryID }) };
  running.set(sessionID, entry);
  return () => {
    if (running.get(sessionID) === entry) running.delete(sessionID);
    entry.end();
  };
}

/** The line of the newest command the session's stored log says is running (another tab's, when this tab runs none). */
export function storedRunningCommand(sessionID: string, memo: Pick<Storage, "getItem"> | undefined = pageStorage()): string | undefined {
  try {
    const log: unknown = JSON.parse(memo?.getItem(terminalLogKey(sessionID)) ?? "[]");
    if (!Array.isArray(log)) return undefined;
    const e = log.findLast((x: { status?: unknown; command?: unknown }) => x?.status === "running" && typeof x.command === "string") as { command: string } | undefined;
    return e?.command;
  } catch {
    return undefined;
  }
}

/**
 * Resolves once no command of the person's runs in `sessionID` (at once when none does): this tab's, then another
 * tab's (its session lock). `waiting` hears the line of another tab's command when there is one to wait for.
 */
export async function shellCommandsDone(sessionID: string, waiting?: (command: string) => void, locks: LockManagerLike | undefined = pageLocks()): Promise<void> {
  for (let entry = running.get(sessionID); entry; entry = running.get(sessionID)) await entry.done;
  if (!locks) return;
  const name = shellLockName(sessionID);
  const held = await commandLockHeld(locks, name).catch(() => false);
  // A command of this tab's started while the query was out (its lock may not be held yet): wait for that one.
  if (running.has(sessionID)) return shellCommandsDone(sessionID, waiting, locks);
  if (!held) return;
  const line = storedRunningCommand(sessionID);
  if (line !== undefined) waiting?.(line);
  await lockFreed(locks, name).catch(() => undefined);
  for (let entry = running.get(sessionID); entry; entry = running.get(sessionID)) await entry.done;
}

/** The line of the person's command running in `sessionID`'s terminal in this tab now (a waiting turn names it), if one does. */
export function shellCommandLine(sessionID: string): string | undefined {
  return running.get(sessionID)?.command;
}

/** Whether a command of the person's runs in `sessionID`'s terminal in this tab now. */
export function shellCommandRunning(sessionID: string): boolean {
  return running.has(sessionID);
}

/** Stops the person's command running in `sessionID` (with `entryID`: only that command): this tab's, else whichever tab runs one (asked over the channel). */
export function stopShellCommand(sessionID: string, entryID?: string): void {
  const here = running.get(sessionID);
  if (here && (entryID === undefined || here.entryID === entryID)) here.stop();
  else if (!here) stopChannel()?.postMessage(entryID === undefined ? { stop: sessionID } : { stop: sessionID, entry: entryID });
}

/**
 * Refuses a change to the files while the person's command runs, in this tab or another (it would read or
 * overwrite them half-way): another tab's is known by its session lock. Without Web Locks only this tab's is seen.
 */
export async function assertNoShellCommand(sessionID: string, locks: LockManagerLike | undefined = pageLocks()): Promise<void> {
  const refuse = (where: string) => new Error(`a command of yours is still running in the terminal${where}: wait for it to end, or stop it, and try again`);
  if (running.has(sessionID)) throw refuse("");
  if (!locks || !(await commandLockHeld(locks, shellLockName(sessionID)).catch(() => false))) return;
  // Started here while the query was out: this tab's words.
  if (running.has(sessionID)) throw refuse("");
  const line = storedRunningCommand(sessionID);
  throw refuse(` in another tab${line ? ` (${line})` : ""}`);
}
