import type { Locks } from "../core/session/loop";

/**
 * Cross-tab run exclusivity with the Web Locks API: a session runs in at most
 * one tab at a time. Without the API (old browsers), runs are not guarded.
 */
export function webLocks(): Locks {
  const locks = typeof navigator !== "undefined" ? navigator.locks : undefined;
  if (!locks) return { run: async (_id, fn) => ({ ok: true, value: await fn() }), held: async () => false };
  const name = (id: string) => `tabcode-run-${id}`;
  return {
    async run(sessionID, fn) {
      return locks.request(name(sessionID), { ifAvailable: true }, async (lock) => {
        if (!lock) return { ok: false as const };
        return { ok: true as const, value: await fn() };
      });
    },
    async held(sessionID) {
      const state = await locks.query();
      return (state.held ?? []).some((l) => l.name === name(sessionID));
    },
  };
}
