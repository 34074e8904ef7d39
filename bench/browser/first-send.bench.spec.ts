/**
 * First send after a page load (built app, Chromium, the mock provider): the time from the click on
 * Send to the model request leaving the browser (Playwright's request start), for the first send
 * right after a fresh page load and for a later send in the same page, in a new session and in one that
 * already holds 2,000 parts (never counted: as after an import), and for a send after a pause: the service
 * worker stopped (Chromium stops it ~30 s after its last event; the model Worker's requests pass through it)
 * and the message typed for a second before Send. Three runs each; prints a table. The app is installed (its
 * service worker's first install, once per browser profile) before the runs, and one send after a page load
 * with the provider set up comes first, in a session of its own and on a row of its own: the first time the
 * model Worker's script runs (the demo model needs no Worker), so the browser has no compiled code cached for
 * it yet (a user meets it once per app update). The rows after it are a returning visit.
 */
import type { Page, Request } from "@playwright/test";
import { configure, openApp, stopServiceWorkers, waitIdle } from "../../e2e/app";
import { test } from "../../e2e/fixtures";
import { TITLE_REQUEST_MARKER } from "../../e2e/mock-openai/server";
import { WAKE_EVERY_MS } from "../../src/app/service-worker";
import { seedSession } from "./seed";
import { installedApp, printRows, summary } from "./table";

/** Clicks Send (`typing` ms after the text is in) and resolves with the ms from the click to the start of the model request that carries `text`. */
async function timedSend(page: Page, text: string, typing = 0): Promise<number> {
  await page.getByRole("textbox", { name: "Message" }).fill(text);
  if (typing > 0) await page.waitForTimeout(typing);
  const request = page.waitForRequest((r: Request) => r.method() === "POST" && (r.postData() ?? "").includes(text) && !(r.postData() ?? "").includes(TITLE_REQUEST_MARKER), { timeout: 30_000 });
  await page.evaluate(() => {
    const w = window as unknown as { __clickAt?: number };
    w.__clickAt = undefined;
    document.addEventListener(
      "click",
      () => {
        w.__clickAt = performance.timeOrigin + performance.now();
      },
      { capture: true, once: true },
    );
  });
  await page.getByRole("button", { name: "Send", exact: true }).click();
  const req = await request;
  await req.response();
  const clickAt = await page.evaluate(() => (window as unknown as { __clickAt?: number }).__clickAt ?? Number.NaN);
  return req.timing().startTime - clickAt;
}

test("first send after a page load", async ({ page, mock }) => {
  await openApp(page);
  const install = await installedApp(page);
  await configure(page, mock, "openai-compatible");
  const sid = await page.evaluate(async () => (await (globalThis as unknown as { __tabcode: { sessions: { createSession(): Promise<{ id: string }> } } }).__tabcode.sessions.createSession()).id);
  const rows: [string, string][] = [];
  const long = await seedSession(page, 2000);
  // The first page load that starts the model Worker (the provider is set up only now): on its own row.
  const installed = await page.evaluate(async () => (await (globalThis as unknown as { __tabcode: { sessions: { createSession(): Promise<{ id: string }> } } }).__tabcode.sessions.createSession()).id);
  mock.setScript([{ text: ["Hello", "."] }]);
  await page.goto(`/?install=1#/s/${installed}`);
  await page.getByRole("textbox", { name: "Message" }).waitFor();
  const afterInstall = await timedSend(page, "first send after the install");
  await waitIdle(page, installed);
  for (const [where, id] of [["a new session", sid], ["a 2,000-part session", long.id]] as const) {
    const first: number[] = [];
    const later: number[] = [];
    const paused: number[] = [];
    const counters: string[] = [];
    for (let run = 0; run < 3; run++) {
      mock.setScript([{ text: ["Hello", " there."] }, { text: ["Again", "."] }, { text: ["After", " a pause."] }]);
      await page.goto(`/?run=${run}#/s/${id}`);
      await page.getByRole("textbox", { name: "Message" }).waitFor();
      first.push(await timedSend(page, `first send ${run} ${where}`));
      await waitIdle(page, id);
      counters.push(await page.evaluate((id) => (globalThis as unknown as { __tabcode: { sessions: { lastRequest(id: string): { count?: string } | undefined } } }).__tabcode.sessions.lastRequest(id)?.count ?? "?", id));
      later.push(await timedSend(page, `later send ${run} ${where}`));
      await waitIdle(page, id);
      // A pause: the service worker stopped as after ~30 s without an event (and no wake-up message sent for longer than the page's own interval).
      await stopServiceWorkers(page);
      await page.waitForTimeout(WAKE_EVERY_MS + 500);
      paused.push(await timedSend(page, `send after a pause ${run} ${where}`, 1_000));
      await waitIdle(page, id);
    }
    rows.push([`${where}: first send after a page load → request leaves (3 runs)`, summary(first)]);
    rows.push([`${where}: later send in the same page (3 runs)`, summary(later)]);
    rows.push([`${where}: send after a pause (service worker stopped), typed for 1 s (3 runs)`, summary(paused)]);
    rows.push([`${where}: token count used by the first send`, counters.join(", ")]);
  }
  rows.push(["the first send after a page load once the app is installed and a provider set up (its Workers' code not cached yet: once per app update; before the rows above)", `${afterInstall.toFixed(0)} ms`]);
  rows.push(["first visit: the app cached for offline use (registration → the service worker controls the page; once per browser profile, before the rows above)", `${install.ms} ms; ${install.files} files, ${(install.bytes / 1024 / 1024).toFixed(1)} MB`]);
  printRows("first send", rows);
});
