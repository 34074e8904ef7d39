import type { LockManagerLike } from "../app/locks";

/**
 * An in-memory Web Locks manager shared by several "tabs": exclusive and shared locks, granted in request order,
 * `ifAvailable` answered with null when taken, `query` listing what is held (with its mode). `tab()` gives one
 * tab's view of it; `close(tab)` is that tab going away: the browser frees every lock it held.
 */
export function fakeLocks() {
  interface Holder {
    tab: number;
    mode: LockMode;
    free: () => void;
  }
  const holders = new Map<string, Holder[]>();
  const queues = new Map<string, Array<{ mode: LockMode; go: () => void }>>();
  const closed = new Set<number>();
  const grantable = (name: string, mode: LockMode) => {
    const h = holders.get(name) ?? [];
    return h.length === 0 || (mode === "shared" && h.every((x) => x.mode === "shared"));
  };
  const pump = (name: string) => {
    const q = queues.get(name) ?? [];
    while (q.length > 0 && grantable(name, q[0]?.mode ?? "exclusive")) q.shift()?.go();
  };
  let tabs = 0;
  const tab = (): LockManagerLike & { id: number } => {
    const id = ++tabs;
    const request = (name: string, a: LockOptions | LockGrantedCallback<unknown>, b?: LockGrantedCallback<unknown>): Promise<unknown> => {
      const options = typeof a === "function" ? {} : a;
      const cb = (typeof a === "function" ? a : b) as LockGrantedCallback<unknown>;
      const mode = options.mode ?? "exclusive";
      if (closed.has(id)) return new Promise(() => undefined);
      if (options.ifAvailable && (!grantable(name, mode) || (queues.get(name)?.length ?? 0) > 0)) return Promise.resolve().then(() => cb(null));
      return new Promise<void>((granted) => {
        const q = queues.get(name) ?? [];
        queues.set(name, q);
        q.push({ mode, go: granted });
        pump(name);
      }).then(async () => {
        let freed = false;
        const holder: Holder = {
          tab: id,
          mode,
          free: () => {
            if (freed) return;
            freed = true;
            holders.set(
              name,
              (holders.get(name) ?? []).filter((x) => x !== holder),
            );
            pump(name);
          },
        };
        holders.set(name, [...(holders.get(name) ?? []), holder]);
        try {
          return await cb({ name, mode } as Lock);
        } finally {
          holder.free();
        }
      });
    };
    return {
      id,
      request: request as LockManagerLike["request"],
      query: async () => ({
        held: [...holders].flatMap(([name, hs]) => hs.map((h) => ({ name, mode: h.mode }))),
        pending: [],
      }),
    };
  };
  return {
    tab,
    /** The tab is gone (closed, reloaded): its locks are freed, its callbacks never finish. */
    close(t: { id: number }) {
      closed.add(t.id);
      for (const hs of [...holders.values()]) for (const h of hs) if (h.tab === t.id) h.free();
    },
    held: () => [...holders].filter(([, hs]) => hs.length > 0).map(([name]) => name),
  };
}
