/**
 * After start-up, when the page is idle, fetch what the first send needs but
 * the first screen does not: the model adapter for the configured provider,
 * the session service (the agent loop), the tool implementations and the tokenizer's ranks (in its worker). Each
 * is loaded on first use anyway; warming only moves the wait out of the
 * first send. Failures are ignored here (the first send retries the load
 * and reports its own error).
 */
import type { Settings } from "../core/settings";
import type { TokenCounter } from "../core/tokens/counter";

export interface WarmUpDeps {
  settings(): Settings;
  llm: { preload(provider: string): Promise<void> };
  wiring: { preload(): Promise<unknown> };
  /** The session service (the agent loop), loaded on demand. */
  sessions?: { load(): Promise<unknown> };
  counter: TokenCounter;
  /** Runs `task` when the page is idle (requestIdleCallback in the browser). */
  idle?: (task: () => void) => void;
}

export function whenIdle(task: () => void): void {
  const g = globalThis as { requestIdleCallback?: (cb: () => void, opts?: { timeout: number }) => number };
  if (g.requestIdleCallback) g.requestIdleCallback(task, { timeout: 2_000 });
  else setTimeout(task, 200);
}

/** Schedules the warm-up; resolves when the adapter and tools are loaded (the tokenizer keeps loading in its worker). */
export function warmUp(deps: WarmUpDeps): Promise<void> {
  const idle = deps.idle ?? whenIdle;
  return new Promise((resolve) => {
    idle(() => {
      const settings = deps.settings();
      deps.counter.warm?.(deps.counter.encodingFor(settings.modelID));
      void Promise.allSettled([deps.llm.preload(settings.provider), deps.wiring.preload(), deps.sessions?.load()]).then(() => resolve());
    });
  });
}
