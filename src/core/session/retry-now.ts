/**
 * "Retry now": a step waiting to retry a failed request (a rate limit's `retry-after`, a backoff) registers how
 * to end its wait early; the person's button calls it. Only the tab that runs the session holds a waker.
 */
const wakers = new Map<string, () => void>();

/** While a step waits to retry in `sessionID`: the signal that ends the wait early (call `done` when it ends). */
export function retryWait(sessionID: string): { signal: AbortSignal; done: () => void } {
  const ctl = new AbortController();
  const wake = () => ctl.abort();
  wakers.set(sessionID, wake);
  return {
    signal: ctl.signal,
    done: () => {
      if (wakers.get(sessionID) === wake) wakers.delete(sessionID);
    },
  };
}

/** Ends the retry wait of `sessionID` now; false when this tab has none (nothing waits, or another tab runs it). */
export function retryNow(sessionID: string): boolean {
  const wake = wakers.get(sessionID);
  if (!wake) return false;
  wakers.delete(sessionID);
  wake();
  return true;
}
