/**
 * Streaming and long-session benchmarks in Chromium (built app):
 * 1. stream ~200 chunks/s into a session that already holds 2,000 parts and count long tasks (> 50 ms),
 *    and the store's writes per second meanwhile (journal appends, merges into parts);
 * 2. the same with ~30 KB of realistic markdown (headings, paragraphs, lists, code fences, tables),
 *    into an empty session and into the 2,000-part one;
 * 3. open a 5,000-part session: cold (a fresh page load in a new tab → the newest message painted, with
 *    the app's other tab idle, while it still starts up, and with the service worker stopped as after a while
 *    without a tabcode page; and the address loaded again in the tab showing
 *    the session, whose teardown is on the clock too) and in-app (from the home screen), three runs each;
 *    and, as the floor of the cold rows, a page with no script opened in a new tab the same way. A cold open
 *    gives two times: the newest message on screen (the glance: the session's last screen, kept by the app and
 *    painted from index.html before the modules run) and the app's own paint of it.
 * Prints a table; asserts nothing about speed.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { Page } from "@playwright/test";
import { configure, newSession, openApp, send, stopServiceWorkers, waitIdle } from "../../e2e/app";
import { type MockOpenAI, test } from "../../e2e/fixtures";
import { realisticMarkdown } from "./markdown-stream";
import { seedSession } from "./seed";
import { articleShows, installedApp, longTasks, printRows, summary, typedFirst, watchLongTasks } from "./table";

const writes = (page: Page) => page.evaluate(() => ({ ...(globalThis as unknown as { __tabcode: { store: { writes: { journal: number; merge: number } } } }).__tabcode.store.writes }));

/** Streams `chunks` into the open session; returns wall time, long tasks and store writes per second. */
async function stream(page: Page, mock: MockOpenAI, sid: string, chunks: string[], until: string) {
  await typedFirst(page);
  await watchLongTasks(page);
  const before = await writes(page);
  mock.setScript([{ text: chunks, chunkDelayMs: 5 }]);
  const t0 = Date.now();
  await send(page, `stream please ${t0}`);
  await articleShows(page, until, 120_000);
  await waitIdle(page, sid);
  const ms = Date.now() - t0;
  const after = await writes(page);
  const long = await longTasks(page);
  return { ms, long, journal: ((after.journal - before.journal) * 1000) / ms, merge: ((after.merge - before.merge) * 1000) / ms };
}

/** What the cold tabs' watcher logs, followed by the page time of the first frame showing the newest message. */
const COLD_PAINT = "tabcode-bench cold paint at ";
const APP_PAINT = "tabcode-bench app paint at ";

/** Records (page time) the first animation frame in which an article holds `text`. */
async function paintedAt(page: Page, text: string): Promise<number> {
  return page.evaluate(
    (text) =>
      new Promise<number>((resolve) => {
        const look = () => {
          for (const a of document.querySelectorAll("article")) if (a.textContent?.includes(text)) return resolve(performance.now());
          requestAnimationFrame(look);
        };
        look();
      }),
    text,
  );
}

test("streaming into a long session; opening a 5,000-part session", async ({ page, mock }) => {
  test.setTimeout(600_000);
  const rows: [string, string][] = [];
  await openApp(page);
  await installedApp(page);
  await configure(page, mock, "openai-compatible");

  // 1. Stream 1,000 short chunks at ~200 chunks/s into a 2,000-part session (three runs).
  const long = await seedSession(page, 2000);
  const RUNS = 3;
  const plain: Awaited<ReturnType<typeof stream>>[] = [];
  for (let run = 0; run < RUNS; run++) {
    await page.goto(`/?plain=${run}#/s/${long.id}`);
    await page.getByRole("article").last().waitFor();
    plain.push(await stream(page, mock, long.id, Array.from({ length: 1000 }, (_, i) => `w${run}x${i} `), `w${run}x999`));
  }
  const longest = (r: { long: number[] }) => (r.long.length ? Math.max(...r.long) : 0);
  rows.push(["plain words: 1,000 chunks, wall time (3 runs)", summary(plain.map((r) => r.ms))]);
  rows.push(["plain words: long tasks > 50 ms (3 runs)", summary(plain.map((r) => r.long.length), "tasks")]);
  rows.push(["plain words: longest task (3 runs)", summary(plain.map(longest))]);
  rows.push(["plain words: store writes per second (journal + merges)", plain.map((r) => `${r.journal.toFixed(1)} + ${r.merge.toFixed(1)}`).join(", ")]);

  // 2. ~30 KB of realistic markdown, in an empty session and in the 2,000-part one (three runs each).
  const md = realisticMarkdown(30_000);
  const chunks = md.match(/[\s\S]{1,30}/g) ?? [md];
  for (const where of ["empty session", "2,000-part session"] as const) {
    const runs: Awaited<ReturnType<typeof stream>>[] = [];
    for (let run = 0; run < RUNS; run++) {
      let sid = long.id;
      if (where === "empty session") sid = await newSession(page);
      else {
        await page.goto(`/?md=${run}#/s/${long.id}`);
        await page.getByRole("article").last().waitFor();
      }
      // Each run's end is its own (the 2,000-part session keeps the earlier runs' answers).
      runs.push(await stream(page, mock, sid, [...chunks, ` (run ${run})`], `End of the answer. (run ${run})`));
    }
    const label = `markdown ${Math.round(md.length / 1000)} KB (${chunks.length} chunks) into an ${where}`;
    rows.push([`${label}: long tasks > 50 ms (3 runs)`, summary(runs.map((r) => r.long.length), "tasks")]);
    rows.push([`${label}: longest task (3 runs)`, `${summary(runs.map(longest))}; ${runs.map((r) => Math.round(chunks.length / (r.ms / 1000))).join(", ")} chunks/s`]);
  }

  // 3. Open a 5,000-part session: cold (fresh page load) and in-app (from home).
  const big = await seedSession(page, 5000);
  const newest = `Answer ${big.last} with`;
  // Each cold open gives two times: the newest message on screen (the kept snapshot of the session, the
  // glance, when there is one) and the app's own paint of it.
  const cold: number[] = [];
  const busy: number[] = [];
  const reload: number[] = [];
  const warm: number[] = [];
  const stopped: number[] = [];
  const blank: number[] = [];
  const isolatedBlank: number[] = [];
  const app = { cold: [] as number[], busy: [] as number[], reload: [] as number[], stopped: [] as number[] };
  // The floor: a page with no script at all (one article holding the same text) opened in a new tab the same
  // way. What it takes (a renderer process, the navigation's commit, parsing, the first frame) no app code can save.
  // And the same page cross-origin isolated as WebContainer's page is (isolated/: COOP same-origin + COEP
  // require-corp): Chromium then commits it in a new process of its own, started once the response's headers are known.
  const blankServer = createServer((req, res) => {
    const isolated = req.url?.includes("isolated=") === true;
    res.writeHead(200, {
      "content-type": "text/html; charset=utf-8",
      ...(isolated ? { "Cross-Origin-Opener-Policy": "same-origin", "Cross-Origin-Embedder-Policy": "require-corp" } : {}),
    });
    res.end(`<!doctype html><html lang="en"><title>blank</title><article>${newest}</article></html>`);
  });
  await new Promise<void>((r) => blankServer.listen(0, "127.0.0.1", r));
  const blankURL = `http://127.0.0.1:${(blankServer.address() as AddressInfo).port}/`;
  // Watches from the document's start (in every tab), so a paint before the page's load event is not missed,
  // and says so on the console. Nothing of the harness runs in the page until then: waiting with
  // waitForFunction after the load event had Playwright evaluate its own script (~50 ms of the main thread,
  // traced) in the middle of the open it was timing.
  await page.context().addInitScript(
    ({ text, mark, appMark }) => {
      let shown = false;
      const look = () => {
        for (const a of document.querySelectorAll("article"))
          if (a.textContent?.includes(text)) {
            const glance = a.closest("#tabcode-glance") !== null;
            if (!shown) console.log(`${mark}${performance.now()}`);
            shown = true;
            if (!glance) {
              console.log(`${appMark}${performance.now()}`);
              return;
            }
          }
        requestAnimationFrame(look);
      };
      requestAnimationFrame(look);
    },
    { text: newest, mark: COLD_PAINT, appMark: APP_PAINT },
  );
  const coldPaint = async (tab: Page, url: string, appRow?: number[]): Promise<number> => {
    const at = (mark: string) => tab.waitForEvent("console", { predicate: (m) => m.text().startsWith(mark), timeout: 60_000 }).then((m) => Number(m.text().slice(mark.length)));
    const painted = at(COLD_PAINT);
    const byApp = appRow ? at(APP_PAINT) : undefined;
    await tab.goto(url, { waitUntil: "commit" });
    const ms = await painted;
    if (appRow && byApp) appRow.push(await byApp);
    return ms;
  };
  await page.goto(`/#/s/${big.id}`);
  for (let i = 0; i < 3; i++) {
    await page.waitForLoadState("networkidle");
    // A fresh page load: the session's address opened in a new tab (a new page, its own clock), this one left
    // as it is. Right after this tab's own load and open, its start-up work (the warm-up of the agent loop,
    // the tokenizer and the model and sandbox Workers, loaded when idle after the first paint) still runs and
    // takes the CPU from the new tab on 2 cores: measured once that way, and once after this tab has been
    // left alone for 3 s, as when a person opens a second tab.
    const early = await page.context().newPage();
    busy.push(await coldPaint(early, `/?busy=${i}#/s/${big.id}`, app.busy));
    await early.close();
    await page.goto(`/?settle=${i}#/s/${big.id}`);
    await page.waitForLoadState("networkidle");
    await page.waitForTimeout(3_000);
    const floor = await page.context().newPage();
    blank.push(await coldPaint(floor, `${blankURL}?blank=${i}`));
    await floor.close();
    const isolatedFloor = await page.context().newPage();
    isolatedBlank.push(await coldPaint(isolatedFloor, `${blankURL}?isolated=${i}`));
    await isolatedFloor.close();
    await page.waitForTimeout(1_000);
    const tab = await page.context().newPage();
    cold.push(await coldPaint(tab, `/?cold=${i}#/s/${big.id}`, app.cold));
    await tab.close();
    // The same with the service worker stopped, as Chromium does ~30 s after the last tabcode page closes
    // (the first open of the day): the page load races the network against starting it.
    await page.waitForTimeout(1_000);
    await stopServiceWorkers(page);
    const stoppedTab = await page.context().newPage();
    stopped.push(await coldPaint(stoppedTab, `/?stopped=${i}#/s/${big.id}`, app.stopped));
    await stoppedTab.close();
    // The same address loaded again in the tab that shows the session: the old page's teardown is on the new page's clock.
    reload.push(await coldPaint(page, `/?reload=${i}#/s/${big.id}`, app.reload));
    await page.goto("/");
    await page.getByRole("navigation", { name: "Sessions" }).waitFor();
    // In-app means a settled app: the start-up warm-up (agent loop, adapter, tools, loaded when idle after the
    // first paint) has run; a switch racing a fresh page load is what the cold row measures.
    await page.waitForLoadState("networkidle");
    await page.waitForTimeout(1_000);
    const start = await page.evaluate((id) => {
      const t = performance.now();
      window.location.hash = `#/s/${id}`;
      return t;
    }, big.id);
    warm.push((await paintedAt(page, newest)) - start);
  }
  const glance = await page.evaluate((id) => (localStorage.getItem(`tabcode:glance:${id}`) ?? "").length, big.id);
  rows.push(["open a 5,000-part session, cold: page load in a new tab (the app's other tab idle) → newest message on screen", summary(cold)]);
  rows.push(["… the same open → newest message painted by the app itself (the glance removed)", summary(app.cold)]);
  rows.push(["open a 5,000-part session, cold: page load in a new tab, the service worker stopped → newest message on screen", summary(stopped)]);
  rows.push(["… the same open → painted by the app itself", summary(app.stopped)]);
  rows.push(["the floor: a page with no script in a new tab → its text painted", summary(blank)]);
  rows.push(["the floor, cross-origin isolated as WebContainer's page (/isolated/) is (COOP + COEP headers)", summary(isolatedBlank)]);
  rows.push(["open a 5,000-part session, cold: page load in a new tab while the other tab still starts up → on screen", summary(busy)]);
  rows.push(["… the same open → painted by the app itself", summary(app.busy)]);
  rows.push(["open a 5,000-part session, cold: loaded again in its own tab → newest message on screen", summary(reload)]);
  rows.push(["… the same open → painted by the app itself", summary(app.reload)]);
  rows.push(["the glance kept for the next cold open (the last screen of the session, localStorage)", `${(glance / 1024).toFixed(1)} KiB of JSON`]);
  rows.push(["open a 5,000-part session, in-app: click → newest message painted", summary(warm)]);
  rows.push(["articles in the DOM (virtualised)", String(await page.locator("article").count())]);
  blankServer.close();
  printRows("streaming and long sessions", rows);
});
