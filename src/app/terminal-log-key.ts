/**
 * Where the terminal keeps a session's commands in localStorage (the log itself: terminal-log.ts). Apart so
 * that what only needs the key (the check for a command running in another tab, on every send) does not bring
 * the log's caps and sweep into the first screen's script.
 */
export const TERMINAL_LOG_PREFIX = "tabcode.terminal.";

export function terminalLogKey(sessionID: string): string {
  return `${TERMINAL_LOG_PREFIX}${sessionID}`;
}
