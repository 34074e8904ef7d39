/**
 * Booting the page's one WebContainer. `WebContainer.boot()` needs a
 * cross-origin isolated page and StackBlitz's servers, and never settles when
 * they are unreachable; a second boot in the same page hangs too. So:
 * - refuse at once when the page is not isolated or the browser is offline;
 * - race `boot()` against a no-cors probe of stackblitz.com (fails in ms when
 *   blocked or offline) and an overall timeout;
 * - once `boot()` has been called, its outcome is final for this page load.
 *
 * The runtime `@webcontainer/api` loads is StackBlitz's hosted service: free
 * for personal and open-source use; commercial production use needs a
 * commercial licence from StackBlitz.
 */
import type { WebContainerLike } from "./webcontainer-like";

/** Boot state, observable by the UI. */
export type WebContainerState =
  | { status: "idle" }
  | { status: "booting" }
  | { status: "ready" }
  | { status: "unavailable"; reason: string };

export const BOOT_TIMEOUT_MS = 20_000;
export const PROBE_TIMEOUT_MS = 3_000;
export const PROBE_URL = "https://stackblitz.com/headless";

export const WEBCONTAINER_LICENCE_NOTE =
  "The WebContainer runtime is StackBlitz's hosted service: free for personal and open-source use; commercial production use needs a commercial licence from StackBlitz.";

/** Why WebContainer cannot be used (the message completes "WebContainer unavailable: …"). */
export class WebContainerUnavailable extends Error {
  override readonly name = "WebContainerUnavailable";
  constructor(readonly reason: string) {
    super(`WebContainer unavailable: ${reason}`);
  }
}

export const REASONS = {
  notIsolated: "this page is not cross-origin isolated",
  offline: "could not reach StackBlitz (offline?)",
  timeout: (ms: number) => `boot timed out after ${ms >= 1000 ? `${Math.round(ms / 1000)} s` : `${ms} ms`}`,
  failed: (msg: string) => `boot failed: ${msg}`,
} as const;

/** What booting depends on (injected in tests). */
export interface BootEnvironment {
  crossOriginIsolated: boolean;
  onLine: boolean;
  /** Resolves when StackBlitz answers, rejects when it cannot be reached. */
  probe(): Promise<unknown>;
  boot(): Promise<WebContainerLike>;
  timeoutMs: number;
}

export function browserBootEnvironment(): BootEnvironment {
  return {
    crossOriginIsolated: globalThis.crossOriginIsolated === true,
    onLine: typeof navigator === "undefined" || navigator.onLine !== false,
    probe: () => fetch(PROBE_URL, { mode: "no-cors", signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) }),
    boot: async () => {
      const { WebContainer } = await import("@webcontainer/api");
      return WebContainer.boot({ coep: "require-corp", workdirName: "tabcode" });
    },
    timeoutMs: BOOT_TIMEOUT_MS,
  };
}

let state: WebContainerState = { status: "idle" };
const listeners = new Set<() => void>();
let booted: Promise<WebContainerLike> | undefined;

function setState(next: WebContainerState): void {
  state = next;
  for (const l of listeners) l();
}

export function getWebContainerState(): WebContainerState {
  return state;
}

/** useSyncExternalStore-style subscription; returns the unsubscribe function. */
export function subscribeWebContainerState(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

async function attempt(env: BootEnvironment): Promise<WebContainerLike> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new WebContainerUnavailable(REASONS.timeout(env.timeoutMs))), env.timeoutMs);
  });
  const probe = env.probe().then(
    () => new Promise<never>(() => undefined),
    () => {
      throw new WebContainerUnavailable(REASONS.offline);
    },
  );
  const boot = env.boot().catch((e: unknown) => {
    throw e instanceof WebContainerUnavailable ? e : new WebContainerUnavailable(REASONS.failed(e instanceof Error ? e.message : String(e)));
  });
  try {
    return await Promise.race([boot, probe, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The page's WebContainer, booted once. Rejects with `WebContainerUnavailable`.
 * Failures found before `boot()` is called (not isolated, offline) can be
 * retried; a boot that was started and failed stays failed until reload.
 */
export function bootWebContainer(env: BootEnvironment = browserBootEnvironment()): Promise<WebContainerLike> {
  if (booted) return booted;
  if (!env.crossOriginIsolated) {
    setState({ status: "unavailable", reason: REASONS.notIsolated });
    return Promise.reject(new WebContainerUnavailable(REASONS.notIsolated));
  }
  if (!env.onLine) {
    setState({ status: "unavailable", reason: REASONS.offline });
    return Promise.reject(new WebContainerUnavailable(REASONS.offline));
  }
  setState({ status: "booting" });
  booted = attempt(env).then(
    (wc) => {
      setState({ status: "ready" });
      return wc;
    },
    (e: unknown) => {
      const reason = e instanceof WebContainerUnavailable ? e.reason : REASONS.failed(String(e));
      setState({ status: "unavailable", reason });
      throw e instanceof WebContainerUnavailable ? e : new WebContainerUnavailable(reason);
    },
  );
  return booted;
}

/** Forgets the page's boot (tests only: a real page cannot boot twice). */
export function resetWebContainerBootForTests(): void {
  booted = undefined;
  setState({ status: "idle" });
}
