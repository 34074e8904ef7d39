/**
 * Which sessions have a command of the person's running in the Terminal, and a way to wait for it to end. A
 * step of the model waits for it before it takes its starting snapshot, so a command the person started
 * just before a send is the person's change, not the agent's (revert would otherwise undo it with the turn).
 * Tiny on purpose: the start-up imports it; the terminal itself loads on demand.
 */
const running = new Map<string, { done: Promise<void>; end: () => void; stop: () => void; command: string }>();

/**
 * Marks a command of the person's (`command`, the line as typed) as running in `sessionID`, stopped by `stop`;
 * call the returned function when it ends. The one record of what runs: the terminal asks it too.
 */
export function shellCommandStarted(sessionID: string, stop: () => void, command: string): () => void {
  let end = () => {};
  const done = new Promise<void>((resolve) => {
    end = resolve;
  });
  const entry = { done, end, stop, command };
  running.set(sessionID, entry);
  return () => {
    if (running.get(sessionID) === entry) running.delete(sessionID);
    entry.end();
  };
}

/** Resolves once no command of the person's runs in `sessionID` (at once when none does). */
export async function shellCommandsDone(sessionID: string): Promise<void> {
  for (let entry = running.get(sessionID); entry; entry = running.get(sessionID)) await entry.done;
}

/** The line of the person's command running in `sessionID`'s terminal now (a waiting turn names it), if one does. */
export function shellCommandLine(sessionID: string): string | undefined {
  return running.get(sessionID)?.command;
}

/** Whether a command of the person's runs in `sessionID`'s terminal now. */
export function shellCommandRunning(sessionID: string): boolean {
  return running.has(sessionID);
}

/** Stops the person's command running in `sessionID`, if one does. */
export function stopShellCommand(sessionID: string): void {
  running.get(sessionID)?.stop();
}

/** Refuses a change to the files while the person's command runs (it would read or overwrite them half-way). */
export function assertNoShellCommand(sessionID: string): void {
  if (running.has(sessionID)) throw new Error("a command of yours is still running in the terminal: wait for it to end, or stop it, and try again");
}
