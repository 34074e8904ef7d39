import type { Locks } from "../core/ports/locks";

/**
 * Cross-tab run exclusivity with the Web Locks API: a session runs in at most
 * one tab at a time. Without the API (old browsers), runs are not guarded.
 */
export function webLocks(): Locks {
  const locks = typeof navigator !== "undefined" ? navigator.locks : undefined;
  if (!locks) return { run: (_id, fn) => fn(), held: async () => false };
  const name = (id: string) => `tabcode-run-${id}`;
  return {
    async run(sessionID, fn, onBlocked) {
      const first = await locks.request(name(sessionID), { ifAvailable: true }, async (lock) => (lock ? { value: await fn() } : undefined));
      if (first) return first.value;
      onBlocked();
      return locks.request(name(sessionID), fn);
    },
    async held(sessionID) {
      const state = await locks.query();
      return (state.held ?? []).some((l) => l.name === name(sessionID));
    },
  };
}
