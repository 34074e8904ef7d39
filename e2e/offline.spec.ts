import { newSession, openApp, send, waitIdle } from "./app";
import { expect, test } from "./fixtures";

test("after one visit the app opens offline, lists sessions and shows their messages", async ({ page, context }) => {
  await openApp(page);
  // The service worker takes control during the first visit.
  await expect.poll(() => page.evaluate(() => Boolean(navigator.serviceWorker?.controller)), { timeout: 15_000 }).toBe(true);
  const id = await newSession(page);
  await send(page, "hello from before going offline");
  await waitIdle(page, id);
  await expect(page.getByRole("article").filter({ hasText: "This is tabcode's demo model" })).toBeVisible();

  await context.setOffline(true);
  await page.reload();
  await expect(page.getByRole("navigation", { name: "Sessions" })).toBeVisible();
  await expect(page.getByRole("article", { name: "Your message" }).filter({ hasText: "hello from before going offline" })).toBeVisible();
  await expect(page.getByRole("article").filter({ hasText: "This is tabcode's demo model" })).toBeVisible();
  expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);
  // Debian's Chromium 150 reports navigator.onLine = true in a document loaded while the network is
  // emulated off (the page itself came from the service worker); toggling the emulation once makes
  // the browser say what is true, as a real network drop does.
  if (await page.evaluate(() => navigator.onLine)) {
    await context.setOffline(false);
    await context.setOffline(true);
  }
  await expect(page.getByRole("status").filter({ hasText: "You are offline" })).toContainText("runs locally");
  // The demo model needs no network, so a session still works offline.
  await send(page, "still works offline?");
  await expect(page.getByRole("article", { name: "Your message" }).filter({ hasText: "still works offline?" })).toBeVisible();
  await waitIdle(page, id);
  await context.setOffline(false);
});
