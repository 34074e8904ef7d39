import { describe, expect, it } from "vitest";
import { History, makeSession, text } from "../core/compaction/test-fixtures";
import { MemoryStore } from "../testing/memory-store";
import { snapshotCollector } from "./storage-gc";

describe("snapshotCollector", () => {
  it("a burst of requests collects once, with every snapshot of active and archived sessions kept", async () => {
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
    const idle: Array<() => void> = [];
    const collect = snapshotCollector(() => ({ store, sandbox }), (run) => idle.push(run));
    collect();
    collect();
    collect();
    expect(idle).toHaveLength(1);
    idle[0]?.();
    await new Promise((r) => setTimeout(r, 0));
    await new Promise((r) => setTimeout(r, 0));
    expect(calls).toEqual([["t-active", "t-archived"]]);
    // Once run, the next request queues again.
    collect();
    expect(idle).toHaveLength(2);
  });
});
