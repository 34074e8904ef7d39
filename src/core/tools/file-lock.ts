/**
 * One writer per file: `edit` and `write` on the same path run one after the
 * other (read → check → ask → write), so a second change sees the first's
 * result instead of overwriting it from a stale copy.
 */
import type { Sandbox } from "../ports/sandbox";

const tails = new WeakMap<Sandbox, Map<string, Promise<unknown>>>();

/** Runs `fn` once every earlier `withFileLock` call on the same sandbox path has settled. */
export async function withFileLock<T>(sandbox: Sandbox, abs: string, fn: () => Promise<T>): Promise<T> {
  let byPath = tails.get(sandbox);
  if (!byPath) {
    byPath = new Map();
    tails.set(sandbox, byPath);
  }
  const paths = byPath;
  const before = paths.get(abs) ?? Promise.resolve();
  const run = before.then(fn, fn);
  const settled = run.then(
    () => undefined,
    () => undefined,
  );
  paths.set(abs, settled);
  try {
    return await run;
  } finally {
    if (paths.get(abs) === settled) paths.delete(abs);
  }
}
