import { describe, expect, it } from "vitest";
import { type LockManagerLike, webLocks } from "./locks";

/** An in-memory Web Locks manager: exclusive locks, granted in request order, `ifAvailable` answered with null when taken. */
function fakeLockManager(): LockManagerLike & { holders(): string[] } {
  const held = new Set<string>();
  const queues = new Map<string, (() => void)[]>();
  // Taken when granted, not a tick later: two requests in one tick must not both get it.
  const release = (name: string) => {
    held.delete(name);
    const next = queues.get(name)?.shift();
    if (next) {
      held.add(name);
      next();
    }
  };
  const request = (name: string, a: LockOptions | LockGrantedCallback<unknown>, b?: LockGrantedCallback<unknown>): Promise<unknown> => {
    const options = typeof a === "function" ? {} : a;
    const cb = (typeof a === "function" ? a : b) as LockGrantedCallback<unknown>;
    if (held.has(name) && options.ifAvailable) return Promise.resolve().then(() => cb(null));
    return new Promise<void>((granted) => {
      if (held.has(name)) queues.set(name, [...(queues.get(name) ?? []), granted]);
      else {
        held.add(name);
        granted();
      }
    }).then(async () => {
      held.add(name);
      try {
        return await cb({ name, mode: "exclusive" } as Lock);
      } finally {
        release(name);
      }
    });
  };
  return {
    request: request as LockManagerLike["request"],
    query: async () => ({ held: [...held].map((name) => ({ name, mode: "exclusive" as const })), pending: [] }),
    holders: () => [...held],
  };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

describe("webLocks: a run lock reserved ahead of its run", () => {
  it("holds the lock from the reservation, runs the body under it and frees it after", async () => {
    const manager = fakeLockManager();
    const locks = webLocks(manager);
    const reserved = locks.reserve?.("s1");
    if (!reserved) throw new Error("webLocks reserves");
    await tick();
    // Asked for and granted before the run is handed its body (the prompt is still being written).
    expect(manager.holders()).toEqual(["tabcode-run-s1"]);
    expect(await locks.held("s1")).toBe(true);
    let inside: string[] = [];
    const value = await reserved.run(async () => {
      inside = manager.holders();
      return 42;
    }, () => expect.unreachable("not blocked"));
    expect(value).toBe(42);
    expect(inside).toEqual(["tabcode-run-s1"]);
    expect(manager.holders()).toEqual([]);
  });

  it("gives the lock back when cancelled, so a later run gets it at once", async () => {
    const manager = fakeLockManager();
    const locks = webLocks(manager);
    const reserved = locks.reserve?.("s1");
    await tick();
    reserved?.cancel();
    await tick();
    expect(manager.holders()).toEqual([]);
    let blocked = false;
    expect(await locks.run("s1", async () => "ran", () => { blocked = true; })).toBe("ran");
    expect(blocked).toBe(false);
  });

  it("when another tab holds the lock: says so and runs once that tab lets go", async () => {
    const manager = fakeLockManager();
    const locks = webLocks(manager);
    let letGo: () => void = () => undefined;
    const other = manager.request("tabcode-run-s1", () => new Promise<void>((r) => { letGo = r; }));
    await tick();
    const reserved = locks.reserve?.("s1");
    if (!reserved) throw new Error("webLocks reserves");
    let blocked = 0;
    let ran = false;
    const run = reserved.run(async () => {
      ran = true;
    }, () => blocked++);
    await tick();
    expect(blocked).toBe(1);
    expect(ran).toBe(false);
    letGo();
    await other;
    await run;
    expect(ran).toBe(true);
    expect(manager.holders()).toEqual([]);
  });

  it("a failing run rejects with its error and frees the lock", async () => {
    const manager = fakeLockManager();
    const locks = webLocks(manager);
    const reserved = locks.reserve?.("s1");
    await expect(reserved?.run(async () => {
      throw new Error("boom");
    }, () => undefined)).rejects.toThrow("boom");
    expect(manager.holders()).toEqual([]);
  });

  it("is used once", async () => {
    const reserved = webLocks(fakeLockManager()).reserve?.("s1");
    await reserved?.run(async () => undefined, () => undefined);
    expect(() => reserved?.run(async () => undefined, () => undefined)).toThrow(/once/);
  });
});

describe("webLocks: the short write lock", () => {
  /** A manager whose request promise settles a while after the body (a real one settles once the lock is given back, a task later). */
  const slowToSettle = (grant: "granted" | "refused" = "granted"): LockManagerLike & { log: string[] } => {
    const log: string[] = [];
    const request = ((name: string, cb: LockGrantedCallback<unknown>) => {
      if (grant === "refused") return Promise.reject(new DOMException("no locks here", "SecurityError"));
      log.push(`granted ${name}`);
      const body = Promise.resolve(cb({ name, mode: "exclusive" } as Lock));
      return new Promise<unknown>((resolve, reject) =>
        setTimeout(() => {
          log.push(`released ${name}`);
          body.then(resolve, reject);
        }, 30),
      );
    }) as LockManagerLike["request"];
    return { request, query: async () => ({ held: [], pending: [] }), log };
  };

  it("settles with the body, before the lock's own promise (the send goes on without waiting for the release)", async () => {
    const manager = slowToSettle();
    const value = await webLocks(manager).write?.("s1", async () => "written");
    expect(value).toBe("written");
    expect(manager.log).toEqual(["granted tabcode-write-s1"]);
    await new Promise((r) => setTimeout(r, 50));
    expect(manager.log).toEqual(["granted tabcode-write-s1", "released tabcode-write-s1"]);
  });

  it("rejects with the body's error, and when the browser refuses the lock", async () => {
    await expect(webLocks(slowToSettle()).write?.("s1", async () => Promise.reject(new Error("quota")))).rejects.toThrow("quota");
    let ran = false;
    await expect(
      webLocks(slowToSettle("refused")).write?.("s1", async () => {
        ran = true;
      }),
    ).rejects.toThrow("no locks here");
    expect(ran).toBe(false);
  });

  it("still serialises writers: the second body starts after the first one's", async () => {
    const manager = fakeLockManager();
    const locks = webLocks(manager);
    const order: string[] = [];
    let finishFirst: () => void = () => undefined;
    const first = locks.write?.("s1", async () => {
      order.push("first in");
      await new Promise<void>((r) => {
        finishFirst = r;
      });
      order.push("first out");
    });
    const second = locks.write?.("s1", async () => {
      order.push("second in");
    });
    await tick();
    expect(order).toEqual(["first in"]);
    finishFirst();
    await Promise.all([first, second]);
    expect(order).toEqual(["first in", "first out", "second in"]);
  });
});
