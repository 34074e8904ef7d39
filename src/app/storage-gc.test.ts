import { describe, expect, it } from "vitest";
import { History, makeSession, text } from "../core/compaction/test-fixtures";
import { GC_GRACE_MS } from "../core/snapshot/grace";
import { MemoryStore } from "../testing/memory-store";
import { snapshotCollector } from "./storage-gc";

/** A page's timers and storage, driven by hand. */
function page() {
  let t = 1_000_000;
  const idle: Array<() => Promise<void>> = [];
  const timers: Array<{ at: number; run: () => void }> = [];
  const items = new Map<string, string>();
  const memo = { getItem: (k: string) => items.get(k) ?? null, setItem: (k: string, v: string) => void items.set(k, v), removeItem: (k: string) => void items.delete(k) };
  return {
    idle,
    items,
    opts: { idle: (run: () => Promise<void>) => idle.push(run), later: (run: () => void, ms: number) => timers.push({ at: t + ms, run }), now: () => t, memo },
    /** Advances the clock, firing due timers. */
    advance(ms: number) {
      t += ms;
      for (const timer of timers.splice(0)) {
        if (timer.at <= t) timer.run();
        else timers.push(timer);
      }
    },
    /** Runs the idle tasks and waits for the collections they start (their code loads on first use). */
    async runIdle() {
      for (const run of idle.splice(0)) await run();
    },
  };
}

async function services() {
  const store = new MemoryStore();
  for (const [archived, hash] of [[false, "t-active"], [true, "t-archived"]] as const) {
    const h = new History();
    h.user(text("go"));
    h.assistant([(ids) => ({ ...ids, type: "step-start", snapshot: hash })]);
    const session = makeSession(h.sessionID);
    await store.importSession(archived ? { ...session, time: { ...session.time, archived: 1 } } : session, h.msgs);
  }
  const calls: string[][] = [];
  const sandbox = {
    collectGarbage: async (live: ReadonlySet<string>) => {
      calls.push([...live].sort());
      return { trees: 0, blobs: 0, bytes: 0 };
    },
  };
  return { app: { store, sandbox }, calls };
}

describe("snapshotCollector", () => {
  it("a drop collects when idle (once per burst), keeping every snapshot of active and archived sessions, and again past the grace period", async () => {
    const { app, calls } = await services();
    const p = page();
    const c = snapshotCollector(() => app, p.opts);
    c.dropped();
    c.dropped();
    expect(p.idle).toHaveLength(1);
    await p.runIdle();
    expect(calls).toEqual([["t-active", "t-archived"]]);
    // Still owed: the drop's own trees were inside the grace period.
    expect(p.items.size).toBe(1);
    p.advance(GC_GRACE_MS + 1_000);
    await p.runIdle();
    expect(calls).toHaveLength(2);
    expect(p.items.size).toBe(0);
  });

  it("start-up reads nothing unless an earlier page left a drop owed; then it finishes it", async () => {
    const { app, calls } = await services();
    const fresh = page();
    snapshotCollector(() => app, fresh.opts).start();
    fresh.advance(GC_GRACE_MS * 2);
    await fresh.runIdle();
    expect(calls).toEqual([]);

    const reloaded = page();
    reloaded.items.set("tabcode.snapshots.dropped", String(reloaded.opts.now() - GC_GRACE_MS - 5_000));
    snapshotCollector(() => app, reloaded.opts).start();
    await reloaded.runIdle();
    expect(calls).toHaveLength(1);
    expect(reloaded.items.size).toBe(0);
  });
});
