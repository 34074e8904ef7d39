/** Shared helpers for the browser benchmarks: `| measure | result |` tables, runs as "median (min–max)", and `typedFirst`. */
import { cacheApp } from "../../e2e/app";

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] ?? Number.NaN) : ((s[mid - 1] ?? 0) + (s[mid] ?? 0)) / 2;
}

/** "median X ms (min–max, n runs)". */
export function summary(xs: number[], unit = "ms"): string {
  if (xs.length === 0) return "no runs";
  const r = (x: number) => (Math.abs(x) >= 10 ? Math.round(x) : Math.round(x * 10) / 10);
  return `median ${r(median(xs))} ${unit} (${r(Math.min(...xs))}–${r(Math.max(...xs))}, ${xs.length} runs)`;
}

export function printRows(title: string, rows: [string, string][]): void {
  const w = Math.max("measure".length, ...rows.map((r) => r[0].length));
  console.log(`\n${title}\n| ${"measure".padEnd(w)} | result |\n|${"-".repeat(w + 2)}|--------|`);
  for (const [k, v] of rows) console.log(`| ${k.padEnd(w)} | ${v} |`);
}

/**
 * What typing a message starts (the composer calls the app's `warm` on the first keystroke: the model
 * adapter, the agent loop, the tools, the tokenizer), awaited: a person types for seconds before Send,
 * Playwright for none. Streaming rows use it so they measure the stream, not these one-time loads, which
 * the first-send bench measures on their own (a send right after a page load, nothing awaited).
 */
export async function typedFirst(page: import("@playwright/test").Page): Promise<void> {
  await page.evaluate(() => (globalThis as unknown as { __tabcode: { warm?: () => Promise<void> } }).__tabcode.warm?.());
}

/**
 * Waits until an article on the page holds `text`, with a plain text check four times a second. A
 * Playwright locator (`getByRole("article").filter({ hasText })`) polls its role query much more often:
 * profiled while a 30 KB answer streamed for 9 s, that polling took 150–300 ms of the page's main thread,
 * which the long-task rows then counted as the app's.
 */
export async function articleShows(page: import("@playwright/test").Page, text: string, timeout = 240_000): Promise<void> {
  await page.waitForFunction((t) => Array.from(document.querySelectorAll("article")).some((a) => a.textContent?.includes(t)), text, { polling: 250, timeout });
}

/**
 * A returning visit: the app registers its service worker now (it waits for a quiet moment otherwise) and
 * the precache is installed before anything is measured. The install happens once per browser profile,
 * on the first visit, and costs seconds of CPU on 2 cores; every benchmark here starts from a fresh
 * profile, so without this its first runs measured the install as well. Returns the install's time (ms)
 * and what it stored, for the rows that report the first visit.
 */
export async function installedApp(page: import("@playwright/test").Page): Promise<{ ms: number; files: number; bytes: number }> {
  const t0 = Date.now();
  await cacheApp(page, 120_000);
  const ms = Date.now() - t0;
  const stored = await page.evaluate(async () => {
    let files = 0;
    let bytes = 0;
    for (const name of await caches.keys()) {
      const cache = await caches.open(name);
      for (const req of await cache.keys()) {
        files++;
        bytes += (await (await cache.match(req))?.arrayBuffer())?.byteLength ?? 0;
      }
    }
    return { files, bytes };
  });
  return { ms, ...stored };
}

/**
 * Starts counting the page's long tasks (> 50 ms) afresh. One observer per document: a run that reaches the
 * next session by its address alone stays in the same document, and an observer added per run there counted
 * each task once for every earlier run (the third run's tasks three times).
 */
export async function watchLongTasks(page: import("@playwright/test").Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { __long: number[]; __longObserver?: PerformanceObserver };
    w.__longObserver?.disconnect();
    w.__long = [];
    w.__longObserver = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.__long.push(e.duration);
    });
    w.__longObserver.observe({ type: "longtask", buffered: false });
  });
}

/** The durations of the long tasks since `watchLongTasks` (ms). */
export function longTasks(page: import("@playwright/test").Page): Promise<number[]> {
  return page.evaluate(() => (window as unknown as { __long: number[] }).__long);
}
