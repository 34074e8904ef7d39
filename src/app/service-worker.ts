/**
 * When the service worker (the app shell and its chunks, cached for offline use) is registered.
 *
 * Its first install fetches and stores the whole precache (several MB: the tokenizer ranks, the sandbox's
 * engines, every chunk), and Chromium compiles the scripts it stores. Registered at the load event, on a
 * 2-core machine, it ran during the first answer of a first visit: measured while a 30 KB answer streamed
 * right after a first page load, the service worker's thread was busy 3.9 s and the renderer's compile
 * threads 3.6 s more than during the next answer, and that answer had 7–13 long tasks (1–5 with this).
 *
 * So it waits for a moment when the user is not watching an answer arrive: the page idle after the first
 * paint, no run going on in this tab, and either a run has ended here (the user is reading) or `quietMs`
 * have passed since start-up without one. At the latest `latestMs` after start-up, whatever is going on.
 */
export interface ServiceWorkerTiming {
  /** Runs a task once the first screen has painted and the page is idle (`whenIdle`). */
  idle(task: () => void): void;
  /** Whether a run is going on in this tab (the session service's status map is not empty). */
  busy(): boolean;
  /** Calls `listener` when runs start or end; returns the unsubscribe function. */
  subscribe(listener: () => void): () => void;
  register(): void;
  /** Without a run, the registration waits this long after start-up (ms; default 30 s). */
  quietMs?: number;
  /** And registers then at the latest (ms after start-up; default 90 s). */
  latestMs?: number;
}

/** Starts waiting; returns a function that registers at once (tests, and anything that needs it now). */
export function registerServiceWorkerWhenQuiet(t: ServiceWorkerTiming): () => void {
  let done = false;
  let ended = false;
  let quiet = false;
  const go = () => {
    if (done) return;
    done = true;
    clearTimeout(quietTimer);
    clearTimeout(latestTimer);
    off();
    t.register();
  };
  const consider = () => {
    if (done || t.busy() || !(ended || quiet)) return;
    t.idle(() => {
      if (!t.busy()) go();
    });
  };
  let wasBusy = t.busy();
  const off = t.subscribe(() => {
    const busy = t.busy();
    if (wasBusy && !busy) ended = true;
    wasBusy = busy;
    consider();
  });
  const quietTimer = setTimeout(() => {
    quiet = true;
    consider();
  }, t.quietMs ?? 30_000);
  const latestTimer = setTimeout(go, t.latestMs ?? 90_000);
  return go;
}
