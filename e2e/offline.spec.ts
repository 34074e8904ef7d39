import { cacheApp, newSession, openApp, send, stopServiceWorkers, waitIdle } from "./app";
import { expect, test } from "./fixtures";

test("after one visit the app opens offline, lists sessions and shows their messages", async ({ page, context }) => {
  // Two answers, the app's first install (registered only once the page is quiet after the first answer) and a
  // reload: 21-26 s here on 2 cores, so the default 30 s left no room on a slower run (it once timed out in CI).
  test.setTimeout(60_000);
  await openApp(page);
  // Nothing is cached while the first answer streams (the service worker's install would compete with it).
  expect(await page.evaluate(() => navigator.serviceWorker.getRegistrations().then((r) => r.length))).toBe(0);
  const id = await newSession(page);
  await send(page, "hello from before going offline");
  await waitIdle(page, id);
  await expect(page.getByRole("article").filter({ hasText: "This is tabcode's demo model" })).toBeVisible();
  // Once that answer has ended and the page is idle, the service worker is installed and takes control.
  await expect.poll(() => page.evaluate(() => Boolean(navigator.serviceWorker?.controller)), { timeout: 20_000 }).toBe(true);

  await context.setOffline(true);
  await page.reload();
  await expect(page.getByRole("navigation", { name: "Sessions" })).toBeVisible();
  await expect(page.getByRole("article", { name: "Your message" }).filter({ hasText: "hello from before going offline" })).toBeVisible();
  await expect(page.getByRole("article").filter({ hasText: "This is tabcode's demo model" })).toBeVisible();
  // The plain page stays plain from the precache (isolation is for WebContainer's page: isolation.spec.ts).
  expect(await page.evaluate(() => crossOriginIsolated)).toBe(false);
  // Debian's Chromium 150 reports navigator.onLine = true in a document loaded while the network is
  // emulated off (the page itself came from the service worker); toggling the emulation once makes
  // the browser say what is true, as a real network drop does.
  if (await page.evaluate(() => navigator.onLine)) {
    await context.setOffline(false);
    await context.setOffline(true);
  }
  await expect(page.getByRole("status").filter({ hasText: "You are offline" })).toContainText("runs locally");
  // The built files came straight from the precache by the service worker's static route (its fetch handler
  // never ran for them), and every one the page asked for was there.
  const scripts = await page.evaluate(() =>
    (performance.getEntriesByType("resource") as (PerformanceResourceTiming & { workerFinalSourceType?: string })[])
      .filter((r) => new URL(r.name).pathname.startsWith("/assets/") && r.name.endsWith(".js"))
      .map((r) => r.workerFinalSourceType),
  );
  expect(scripts.length).toBeGreaterThan(10);
  expect(new Set(scripts)).toEqual(new Set(["cache"]));
  // Opened while the service worker is stopped (as after a while without a tabcode page), the page load races
  // the network against starting it: offline, the worker serves it.
  await stopServiceWorkers(page);
  await page.reload();
  await expect(page.getByRole("article").filter({ hasText: "This is tabcode's demo model" })).toBeVisible();
  expect(
    await page.evaluate(() => {
      const nav = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming & { workerMatchedSourceType?: string };
      return nav.workerMatchedSourceType;
    }),
  ).toBe("race-network-and-fetch-handler");
  // The demo model needs no network, so a session still works offline.
  await send(page, "still works offline?");
  await expect(page.getByRole("article", { name: "Your message" }).filter({ hasText: "still works offline?" })).toBeVisible();
  await waitIdle(page, id);
  await context.setOffline(false);
  // A built file the precache does not hold (an older page asking after an update) goes to the network.
  expect(await page.evaluate(() => fetch("/assets/not-in-the-precache-0000.js").then((r) => r.status))).toBe(404);
});

test("a file shared to the installed app reaches Import history, also when its service worker was stopped", async ({ page }) => {
  await openApp(page);
  await cacheApp(page);
  // The worker stops after a while without a tabcode page; the share sheet's page load must still reach it
  // (a page load while it is stopped races the network, but only for GETs: this one is a POST).
  await stopServiceWorkers(page);
  // What the system share sheet sends: the manifest's share target, a multipart POST of the files as a page load.
  await page.evaluate(() => {
    const form = document.createElement("form");
    form.method = "post";
    form.action = "share-target";
    form.enctype = "multipart/form-data";
    form.id = "share-sheet";
    const input = document.createElement("input");
    input.type = "file";
    input.name = "files";
    input.setAttribute("aria-label", "Shared files");
    form.append(input);
    document.body.append(form);
  });
  await page.getByLabel("Shared files").setInputFiles("src/core/import/__fixtures__/claude-code/session.jsonl");
  await page.evaluate(() => (document.getElementById("share-sheet") as HTMLFormElement).submit());
  const dialog = page.getByRole("dialog", { name: "Import history" });
  await expect(dialog.getByRole("status")).toContainText("1 imported");
  // The address no longer names the share, and the shared copy is gone from the cache.
  await expect(page).not.toHaveURL(/shared=/);
  expect(await page.evaluate(async () => (await (await caches.open("tabcode-shared-files")).keys()).length)).toBe(0);
});

test("typing a message wakes a stopped service worker, so the request does not wait for it to start", async ({ page }) => {
  await openApp(page);
  await cacheApp(page);
  await newSession(page);
  // The page's start-up loads have settled (the warm-up's files come through the worker too).
  await page.waitForLoadState("networkidle");
  await page.waitForTimeout(2_000);
  // Chromium stops the worker ~30 s after its last event, so a send after a pause would wait for it to start
  // (the model Worker's requests pass through it).
  await stopServiceWorkers(page);
  const cdp = await page.context().newCDPSession(page);
  let status = "unknown";
  cdp.on("ServiceWorker.workerVersionUpdated", (e) => {
    for (const v of e.versions) if (v.status === "activated") status = v.runningStatus;
  });
  await cdp.send("ServiceWorker.enable");
  await expect.poll(() => status).toBe("stopped");
  // Nothing else wakes it meanwhile.
  await page.waitForTimeout(1_000);
  expect(status).toBe("stopped");
  await page.getByRole("textbox", { name: "Message" }).pressSequentially("Hi");
  await expect.poll(() => status, { timeout: 5_000 }).toBe("running");
  await cdp.detach();
});
