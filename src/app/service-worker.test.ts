import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { registerServiceWorkerWhenQuiet, serviceWorkerWaker, WAKE_EVERY_MS } from "./service-worker";

function harness() {
  const idle: Array<() => void> = [];
  const listeners = new Set<() => void>();
  const state = { busy: false, registered: 0 };
  const runIdle = () => {
    for (const task of idle.splice(0)) task();
  };
  const setBusy = (b: boolean) => {
    state.busy = b;
    for (const l of [...listeners]) l();
  };
  const start = () =>
    registerServiceWorkerWhenQuiet({
      idle: (task) => idle.push(task),
      busy: () => state.busy,
      subscribe: (l) => {
        listeners.add(l);
        return () => listeners.delete(l);
      },
      register: () => state.registered++,
      quietMs: 30_000,
      latestMs: 90_000,
    });
  return { state, runIdle, setBusy, start, listeners };
}

describe("registerServiceWorkerWhenQuiet", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("without a run: registers once quietMs have passed and the page is idle, and only once", () => {
    const h = harness();
    h.start();
    h.runIdle();
    vi.advanceTimersByTime(29_999);
    h.runIdle();
    expect(h.state.registered).toBe(0);
    vi.advanceTimersByTime(1);
    expect(h.state.registered).toBe(0);
    h.runIdle();
    expect(h.state.registered).toBe(1);
    vi.advanceTimersByTime(120_000);
    h.setBusy(true);
    h.setBusy(false);
    h.runIdle();
    expect(h.state.registered).toBe(1);
    expect(h.listeners.size).toBe(0);
  });

  it("not while an answer is being generated: once the first run has ended and the page is idle", () => {
    const h = harness();
    h.start();
    h.setBusy(true);
    vi.advanceTimersByTime(10_000);
    h.runIdle();
    expect(h.state.registered).toBe(0);
    h.setBusy(false);
    // A new run started before the page was idle: still waiting.
    h.state.busy = true;
    h.runIdle();
    expect(h.state.registered).toBe(0);
    h.setBusy(false);
    h.runIdle();
    expect(h.state.registered).toBe(1);
  });

  it("runs that keep going past quietMs delay it to their end, and latestMs is the limit", () => {
    const h = harness();
    h.start();
    h.setBusy(true);
    vi.advanceTimersByTime(60_000);
    h.runIdle();
    expect(h.state.registered).toBe(0);
    vi.advanceTimersByTime(30_000);
    expect(h.state.registered).toBe(1);
  });

  it("the returned function registers at once", () => {
    const h = harness();
    const now = h.start();
    now();
    expect(h.state.registered).toBe(1);
    now();
    h.setBusy(true);
    h.setBusy(false);
    h.runIdle();
    vi.advanceTimersByTime(120_000);
    expect(h.state.registered).toBe(1);
  });
});

describe("serviceWorkerWaker", () => {
  function controlled() {
    const sent: unknown[] = [];
    const source = { controller: { postMessage: (m: unknown) => sent.push(m) } as { postMessage(m: unknown): void } | null };
    let t = 1_000;
    const wake = serviceWorkerWaker(() => source, () => t);
    return { sent, source, wake, advance: (ms: number) => (t += ms) };
  }

  it("messages the controlling worker, then not again until WAKE_EVERY_MS have passed", () => {
    const h = controlled();
    h.wake();
    expect(h.sent).toEqual([{ type: "tabcode-wake" }]);
    h.advance(WAKE_EVERY_MS - 1);
    h.wake();
    expect(h.sent).toHaveLength(1);
    h.advance(1);
    h.wake();
    expect(h.sent).toHaveLength(2);
  });

  it("does nothing while no worker controls the page, and wakes the first one that does at once", () => {
    const h = controlled();
    const worker = h.source.controller;
    h.source.controller = null;
    h.wake();
    expect(h.sent).toHaveLength(0);
    h.source.controller = worker;
    h.wake();
    expect(h.sent).toHaveLength(1);
  });

  it("a worker that refuses the message does not throw into the send path", () => {
    const wake = serviceWorkerWaker(() => ({
      controller: {
        postMessage: () => {
          throw new Error("InvalidStateError");
        },
      },
    }));
    expect(() => wake()).not.toThrow();
  });

  it("without service workers (no navigator.serviceWorker) it is a no-op", () => {
    expect(() => serviceWorkerWaker(() => undefined)()).not.toThrow();
  });
});
