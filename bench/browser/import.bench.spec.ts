/**
 * opencode.db import in Chromium: a generated database (BENCH_IMPORT_BROWSER_MB, default 64) picked
 * in "Import history": time to the session picker, then importing every session into IndexedDB with
 * the progress bar; the page's longest task (PerformanceObserver "longtask") and peak JS heap. Prints a table.
 */
import { statSync } from "node:fs";
import { openApp } from "../../e2e/app";
import { expect, test } from "../../e2e/fixtures";
import { READ_MEASURE, WRITE_MEASURE } from "../../src/app/import-measures";
import { generatedDb } from "../import/generate";
import { installedApp } from "./table";

const MB = Number(process.env.BENCH_IMPORT_BROWSER_MB ?? "64");
/** BENCH_IMPORT_PROFILE=1: also record a CPU profile of the page during the import and print where its main thread spent the time. */
const PROFILE = process.env.BENCH_IMPORT_PROFILE === "1";

interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
  samples: number[];
  timeDeltas: number[];
}

/** Self time per function (name, file, line), the heaviest first. */
function selfTimes(profile: CpuProfile, top = 25): string[] {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const ms = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const f = byId.get(id)?.callFrame;
    const key = f ? `${f.functionName || "(anonymous)"} ${f.url.split("/").at(-1) ?? ""}:${f.lineNumber + 1}` : "?";
    ms.set(key, (ms.get(key) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  });
  const total = [...ms.values()].reduce((a, b) => a + b, 0);
  return [...ms.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([k, v]) => `| ${k} | ${Math.round(v)} ms (${((100 * v) / total).toFixed(1)}%) |`);
}

test(`import a ${MB} MB opencode.db`, async ({ page }) => {
  test.setTimeout(1_800_000);
  const path = await generatedDb(MB);
  await openApp(page);
  await installedApp(page);
  await page.evaluate(() => {
    const w = window as unknown as { __bench: { longest: number; tasks: number; heap: number } };
    w.__bench = { longest: 0, tasks: 0, heap: 0 };
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        w.__bench.tasks++;
        w.__bench.longest = Math.max(w.__bench.longest, e.duration);
      }
    }).observe({ type: "longtask", buffered: false });
    setInterval(() => {
      const m = (performance as unknown as { memory?: { usedJSHeapSize: number } }).memory;
      if (m) w.__bench.heap = Math.max(w.__bench.heap, m.usedJSHeapSize);
    }, 100);
  });
  await page.getByRole("button", { name: "Import history" }).click();
  const dialog = page.getByRole("dialog", { name: "Import history" });
  const t0 = Date.now();
  await dialog.getByLabel("Choose files").setInputFiles(path);
  const importButton = dialog.getByRole("button", { name: /^Import [\d,]+ sessions$/ });
  await expect(importButton).toBeVisible({ timeout: 600_000 });
  const pickerMs = Date.now() - t0;
  const listedMs = Number((await dialog.getByText(/listed in/).textContent())?.match(/listed in ([\d,]+) ms/)?.[1]?.replace(/,/g, ""));
  const sessions = Number((await importButton.textContent())?.match(/[\d,]+/)?.[0]?.replace(/,/g, ""));
  const pickerLongest = await page.evaluate(() => {
    const w = window as unknown as { __bench: { longest: number; tasks: number } };
    const longest = w.__bench.longest;
    w.__bench.longest = 0;
    w.__bench.tasks = 0;
    return longest;
  });
  const cdp = PROFILE ? await page.context().newCDPSession(page) : undefined;
  if (cdp) {
    await cdp.send("Profiler.enable");
    await cdp.send("Profiler.setSamplingInterval", { interval: 1000 });
    await cdp.send("Profiler.start");
  }
  const t1 = Date.now();
  await importButton.click();
  await expect(dialog.getByRole("progressbar", { name: "Import progress" })).toBeVisible();
  // A cheap check once a second: Playwright's role/text polling would itself add long tasks on a page listing hundreds of sessions.
  await page.waitForFunction(() => document.querySelector(".import-outcome") !== null, undefined, { polling: 1000, timeout: 1_800_000 });
  const importMs = Date.now() - t1;
  if (cdp) {
    const { profile } = (await cdp.send("Profiler.stop")) as unknown as { profile: CpuProfile };
    console.log(`\n| page main thread during the import (self time) | ms |\n|---|---|\n${selfTimes(profile).join("\n")}`);
  }
  const split = await page.evaluate(
    ([read, write]) => [read, write].map((name) => performance.getEntriesByName(name ?? "").reduce((n, e) => n + e.duration, 0)),
    [READ_MEASURE, WRITE_MEASURE],
  );
  const parts = await page.evaluate(async () => (globalThis as unknown as { __tabcode: { db: { table(n: string): { count(): Promise<number> } } } }).__tabcode.db.table("parts").count());
  const b = await page.evaluate(() => (window as unknown as { __bench: { longest: number; tasks: number; heap: number } }).__bench);
  const mib = (n: number) => `${(n / 1024 / 1024).toFixed(0)} MB`;
  console.log(`\n| opencode.db import in Chromium | result |\n|---|---|`);
  console.log(`| database file | ${mib(statSync(path).size)}, ${sessions.toLocaleString("en")} sessions |`);
  console.log(`| time to session picker (pick → list shown) | ${pickerMs.toLocaleString("en")} ms (Worker: ${listedMs.toLocaleString("en")} ms incl. sqlite-wasm start) |`);
  console.log(`| import all into IndexedDB | ${(importMs / 1000).toFixed(1)} s |`);
  console.log(`| rate | ${Math.round(sessions / (importMs / 1000)).toLocaleString("en")} sessions/s, ${Math.round(parts / (importMs / 1000)).toLocaleString("en")} parts/s (${parts.toLocaleString("en")} parts) |`);
  console.log(`| of which: waiting for the Worker (read + map) / writing (IndexedDB, search index) | ${(Number(split[0]) / 1000).toFixed(1)} s / ${(Number(split[1]) / 1000).toFixed(1)} s |`);
  console.log(`| page's longest task during the import | ${Math.round(b.longest)} ms (${b.tasks} tasks over 50 ms; before it, listing: ${Math.round(pickerLongest)} ms) |`);
  console.log(`| peak JS heap of the page (Worker not included) | ${mib(b.heap)} |`);
});
