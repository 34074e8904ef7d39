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

/**
 * Every request a page or its Workers make goes to the service worker's fetch handler, and the model
 * Worker's POSTs cannot skip it (static routes do not apply to a dedicated Worker's requests in
 * Chromium 156). Chromium stops an idle service worker after ~30 s, so a send after a pause (the usual
 * case: the user read the answer, then typed) waited for the worker to start before its request could
 * leave: 60–100 ms more from the model Worker's `fetch` to the server here (interleaved sends with the
 * worker stopped and running). A message starts a stopped worker and keeps a running one awake, so the
 * composer sends one as the user types (and the send path once more before each request), at most every
 * `WAKE_EVERY_MS`.
 */
export const WAKE_EVERY_MS = 10_000;

/** The part of `navigator.serviceWorker` the waker uses. */
export interface ControllerSource {
  readonly controller: { postMessage(message: unknown): void } | null;
}

/** Returns `wake()`: asks the page's service worker (if one controls it) to start or stay awake. */
export function serviceWorkerWaker(source: () => ControllerSource | undefined, now: () => number = Date.now): () => void {
  let last = Number.NEGATIVE_INFINITY;
  return () => {
    const t = now();
    if (t - last < WAKE_EVERY_MS) return;
    const worker = source()?.controller;
    if (!worker) return;
    last = t;
    try {
      worker.postMessage({ type: "tabcode-wake" });
    } catch {
      // A worker being replaced can refuse a message: the request then simply waits for it, as before.
    }
  };
}

/** The page's waker (a no-op where there is no service worker). */
export const wakeServiceWorker = serviceWorkerWaker(() => (typeof navigator !== "undefined" && "serviceWorker" in navigator ? navigator.serviceWorker : undefined));
