/**
 * Giving the page its turn during long storage work: the live copy's sliced reads and copies, the store's
 * sliced reads, stored counts written when the page is idle.
 */

/** The longest stretch of validation before yielding to the page (ms). */
const SLICE_MS = 8;

/** Lets the page handle input and paint, then continues (`scheduler.yield` where there is one: no timer clamping). */
function yieldToPage(): Promise<void> {
  const s = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  if (typeof s?.yield === "function") return s.yield();
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** Runs `task` when the page is idle (an idle callback, at most two seconds away; a timer where there is none). */
export function whenPageIdle(task: () => void): void {
  const g = globalThis as { requestIdleCallback?: (cb: () => void, opts?: { timeout: number }) => number };
  if (typeof g.requestIdleCallback === "function") g.requestIdleCallback(task, { timeout: 2_000 });
  else setTimeout(task, 0);
}

/** A long loop's pause point: `await breathe()` yields to the page once SLICE_MS have passed since the last pause. */
export function slicer(): () => Promise<void> {
  let since = performance.now();
  return async () => {
    if (performance.now() - since < SLICE_MS) return;
    await yieldToPage();
    since = performance.now();
  };
}
