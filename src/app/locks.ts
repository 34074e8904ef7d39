import type { Locks, RunReservation } from "../core/ports/locks";

/** The part of the Web Locks API the app uses (a test passes its own). */
export type LockManagerLike = Pick<LockManager, "request" | "query">;

/**
 * Cross-tab run exclusivity with the Web Locks API: a session runs in at most
 * one tab at a time. Without the API (old browsers), runs are not guarded.
 */
export function webLocks(locks: LockManagerLike | undefined = typeof navigator !== "undefined" ? navigator.locks : undefined): Locks {
  if (!locks) return { run: (_id, fn) => fn(), held: async () => false };
  const name = (id: string) => `tabcode-run-${id}`;
  /** Asks for the lock if it is free; once granted, waits for `body` (or for nothing, if cancelled) and returns whether it was granted. */
  const ask = (sessionID: string, body: Promise<(() => Promise<void>) | undefined>): Promise<boolean> =>
    locks.request(name(sessionID), { ifAvailable: true }, async (lock) => {
      if (!lock) return false;
      await (await body)?.();
      return true;
    });
  return {
    write: (sessionID, fn) => locks.request(`tabcode-write-${sessionID}`, fn),
    async run(sessionID, fn, onBlocked) {
      const first = await locks.request(name(sessionID), { ifAvailable: true }, async (lock) => (lock ? { value: await fn() } : undefined));
      if (first) return first.value;
      onBlocked();
      return locks.request(name(sessionID), fn);
    },
    reserve(sessionID): RunReservation {
      let settle: (body: (() => Promise<void>) | undefined) => void = () => undefined;
      const body = new Promise<(() => Promise<void>) | undefined>((resolve) => {
        settle = resolve;
      });
      const granted = ask(sessionID, body);
      let used = false;
      return {
        run<T>(fn: () => Promise<T>, onBlocked: () => void): Promise<T> {
          if (used) throw new Error("A run reservation is used once.");
          used = true;
          let result: { value: T } | { error: unknown } | undefined;
          settle(async () => {
            try {
              result = { value: await fn() };
            } catch (error) {
              result = { error };
            }
          });
          return granted.then((ok) => {
            if (!ok) {
              onBlocked();
              return locks.request(name(sessionID), fn);
            }
            if (!result) throw new Error("The reserved run did not finish.");
            if ("error" in result) throw result.error;
            return result.value;
          });
        },
        cancel() {
          if (used) return;
          used = true;
          settle(undefined);
        },
      };
    },
    async held(sessionID) {
      const state = await locks.query();
      return (state.held ?? []).some((l) => l.name === name(sessionID));
    },
  };
}
