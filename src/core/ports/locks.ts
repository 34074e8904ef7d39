/** Cross-tab exclusivity for runs (Web Locks in the browser). */
export interface Locks {
  /**
   * Runs `fn` holding the session's lock. When another tab holds it, calls
   * `onBlocked` and waits for it (that tab answers queued prompts; what is left
   * is answered here afterwards).
   */
  run<T>(sessionID: string, fn: () => Promise<T>, onBlocked: () => void): Promise<T>;
  /**
   * Asks for the session's run lock now, for a run that starts a little later (once the prompt is
   * written): the round trip to the browser overlaps the write instead of following it. Optional:
   * without it, a run asks when it starts.
   */
  reserve?(sessionID: string): RunReservation;
  /** Whether some tab currently holds the session's lock. */
  held(sessionID: string): Promise<boolean>;
  /**
   * Runs `fn` holding the session's short write lock, which serialises prompt
   * writes across tabs (the new message's place in the branch is computed and
   * written under it). Optional: without it, writes are not serialised.
   */
  write?<T>(sessionID: string, fn: () => Promise<T>): Promise<T>;
}

/** A run lock asked for ahead of its run: exactly one of `run` or `cancel` is called. */
export interface RunReservation {
  /** `Locks.run` on the lock asked for at reservation time (if another tab held it then, `onBlocked` and wait as `run` does). */
  run<T>(fn: () => Promise<T>, onBlocked: () => void): Promise<T>;
  /** Gives the lock back without running anything (the prompt could not be written). */
  cancel(): void;
}

export const noLocks: Locks = {
  run: (_id, fn) => fn(),
  held: async () => false,
};
