/**
 * After start-up, when the page is idle, fetch what the first send needs but
 * the first screen does not: the model adapter for the configured provider,
 * the session service (the agent loop), the tool implementations and the tokenizer's ranks (in its worker). Each
 * is loaded on first use anyway; warming only moves the wait out of the
 * first send. Failures are ignored here (the first send retries the load
 * and reports its own error).
 */
import type { ModelConfig } from "../core/ports/llm";
import { modelConfig, type Settings } from "../core/settings";
import type { TokenCounter } from "../core/tokens/counter";

export interface WarmUpDeps {
  settings(): Settings;
  llm: { preload(config: ModelConfig): Promise<void> };
  wiring: { preload(): Promise<unknown> };
  /** The session service (the agent loop), loaded on demand. */
  sessions?: { load(): Promise<unknown> };
  counter: TokenCounter;
  /** Runs `task` when the page is idle (requestIdleCallback in the browser). */
  idle?: (task: () => void) => void;
}

/** The longest the start-up work waits for the first screen to say it has painted. */
const FIRST_PAINT_WAIT_MS = 3_000;
let painted: () => void = () => undefined;
const firstPaint = new Promise<void>((resolve) => {
  painted = resolve;
  // Whatever happens on screen, start-up work is not held back for ever.
  const t = setTimeout(resolve, FIRST_PAINT_WAIT_MS) as unknown as { unref?: () => void };
  t.unref?.();
});

/**
 * The first screen (a session's newest messages, the start page) calls this when it has content: work
 * scheduled with `whenIdle` waits for the frame after it. (An idle callback alone fires while the page
 * waits for IndexedDB, and would then load the agent loop in the middle of a cold open.)
 */
export function firstScreenShown(): void {
  const g = globalThis as { requestAnimationFrame?: (cb: () => void) => number };
  if (g.requestAnimationFrame) g.requestAnimationFrame(() => setTimeout(painted, 0));
  else painted();
}

/** Runs `task` once the first screen has painted (before the page is idle: for work on other threads). */
export function afterFirstPaint(task: () => void): void {
  void firstPaint.then(task);
}

/** Whether a send is being prepared (`SessionService.preparing`), and a promise of the moment it no longer is. */
export interface SendInPreparation {
  readonly preparing: boolean;
  whenQuiet(): Promise<void>;
}
let sending: SendInPreparation | undefined;

/**
 * Idle work waits while a send is being prepared (from the click until its answer starts): idle moments come
 * while the send waits for IndexedDB or a worker, and a task run in one (the Pinned panel's first parse of
 * every message, the glance's set-up, a repair's read) sat on the main thread the send needed next (traced).
 */
export function holdIdleWorkDuring(s: SendInPreparation): void {
  sending = s;
}

/**
 * Runs `task` once the first screen has painted and the page is idle (at most two seconds after that), and
 * no send is being prepared (`holdIdleWorkDuring`).
 */
export function whenIdle(task: () => void): void {
  const g = globalThis as { requestIdleCallback?: (cb: () => void, opts?: { timeout: number }) => number };
  const later = () => {
    if (g.requestIdleCallback) g.requestIdleCallback(run, { timeout: 2_000 });
    else setTimeout(run, 200);
  };
  const run = () => {
    if (sending?.preparing) void sending.whenQuiet().then(later, later);
    else task();
  };
  void firstPaint.then(later);
}

/**
 * Loads what a send needs (the adapter, the tools and prompt sources, the session service) and starts
 * the tokenizer: once per configured provider and model. Called when the page is idle after start-up
 * and as soon as the user starts typing a message, whichever comes first; a user who has just set up a
 * provider (the demo until then) gets that provider's adapter loaded as they type, not on Send. Resolves
 * when the loads have settled (failures are ignored).
 */
export function warmer(deps: Omit<WarmUpDeps, "idle">): () => Promise<void> {
  let started: Promise<void> | undefined;
  let key: string | undefined;
  return () => {
    const settings = deps.settings();
    const config = modelConfig(settings);
    const next = JSON.stringify([config.provider, config.modelID, config.baseURL ?? ""]);
    if (started && next === key) return started;
    key = next;
    started = (async () => {
      deps.counter.warm?.(deps.counter.encodingFor(settings.modelID));
      await Promise.allSettled([deps.llm.preload(config), deps.wiring.preload(), deps.sessions?.load()]);
    })();
    return started;
  };
}

/** Schedules the warm-up for when the page is idle; `now` starts it at once (the same loads, only once). */
export function warmUp(deps: WarmUpDeps): { done: Promise<void>; now: () => Promise<void> } {
  const idle = deps.idle ?? whenIdle;
  const now = warmer(deps);
  const done = new Promise<void>((resolve) => {
    idle(() => void now().then(resolve));
  });
  return { done, now };
}
