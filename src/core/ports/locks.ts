/** Cross-tab exclusivity for runs (Web Locks in the browser). */
export interface Locks {
  /**
   * Runs `fn` holding the session's lock. When another tab holds it, calls
   * `onBlocked` and waits for it (that tab answers queued prompts; what is left
   * is answered here afterwards).
   */
  run<T>(sessionID: string, fn: () => Promise<T>, onBlocked: () => void): Promise<T>;
  /** Whether some tab currently holds the session's lock. */
  held(sessionID: string): Promise<boolean>;
}

export const noLocks: Locks = {
  run: (_id, fn) => fn(),
  held: async () => false,
};
