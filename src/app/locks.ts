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
  /**
   * Asks for the session's run lock now, if it is free, and holds it until the run's body is handed over
   * (`run`) or the reservation is cancelled; `run` on one that was not granted says so and waits for the lock.
   */
  const reserve = (sessionID: string): RunReservation => {
    let hand: (fn: (() => Promise<unknown>) | undefined) => void = () => undefined;
    const body = new Promise<(() => Promise<unknown>) | undefined>((resolve) => {
      hand = resolve;
    });
    const granted = locks.request(name(sessionID), { ifAvailable: true }, async (lock) => (lock ? { value: await (await body)?.() } : undefined));
    let used = false;
    return {
      run<T>(fn: () => Promise<T>, onBlocked: () => void): Promise<T> {
        if (used) throw new Error("A run reservation is used once.");
        used = true;
        hand(fn);
        return granted.then((held) => {
          if (held) return held.value as T;
          onBlocked();
          return locks.request(name(sessionID), fn);
        });
      },
      cancel() {
        if (used) return;
        used = true;
        hand(undefined);
      },
    };
  };
  return {
    // Settles with the body, not with the request's own promise: that one settles a task later, once the lock is
    // given back, and a send's next step would wait there behind whatever the page queued meanwhile (the prompt's render).
    write: <T>(sessionID: string, fn: () => Promise<T>) =>
      new Promise<T>((resolve, reject) => {
        locks
          .request(`tabcode-write-${sessionID}`, () => {
            const done = Promise.resolve().then(fn);
            done.then(resolve, reject);
            return done;
          })
          .catch(reject);
      }),
    // A run that starts at once is a reservation used at once.
    run: (sessionID, fn, onBlocked) => reserve(sessionID).run(fn, onBlocked),
    reserve,
    async held(sessionID) {
      const state = await locks.query();
      return (state.held ?? []).some((l) => l.name === name(sessionID));
    },
  };
}
