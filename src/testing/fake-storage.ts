/**
 * A page's localStorage for tests: the whole Storage interface over a Map, and, given a
 * `quota`, a write that would pass it (keys and values, in characters) refused with a
 * QuotaExceededError as browsers do.
 */
export interface FakeStorage extends Storage {
  /** The stored items, for a test to look at directly. */
  readonly m: Map<string, string>;
  /** Characters in use, keys and values. */
  used(): number;
}

export function fakeStorage(quota = Number.POSITIVE_INFINITY): FakeStorage {
  const m = new Map<string, string>();
  const used = () => [...m].reduce((n, [k, v]) => n + k.length + v.length, 0);
  return {
    m,
    used,
    getItem: (k) => m.get(k) ?? null,
    setItem: (k, v) => {
      const value = String(v);
      const freed = m.has(k) ? k.length + (m.get(k) ?? "").length : 0;
      if (used() - freed + k.length + value.length > quota) throw new DOMException("The quota has been exceeded.", "QuotaExceededError");
      m.set(k, value);
    },
    removeItem: (k) => void m.delete(k),
    clear: () => m.clear(),
    key: (i) => [...m.keys()][i] ?? null,
    get length() {
      return m.size;
    },
  };
}
