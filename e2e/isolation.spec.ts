/**
 * Cross-origin isolation only where it is needed: the app's page is a plain one (it opens faster), and
 * choosing WebContainer moves the app to isolated/, a cross-origin isolated page, online and offline.
 */
import type { Page } from "@playwright/test";
import { cacheApp, configure, newSession, openApp, send, stopServiceWorkers, waitIdle } from "./app";
import { expect, test } from "./fixtures";

const isolated = (page: Page) => page.evaluate(() => globalThis.crossOriginIsolated);

/** Settings → Sandbox, as a user would; saving a new choice loads the page again, where it belongs. */
async function chooseSandbox(page: Page, value: "auto" | "webcontainer", lands: RegExp): Promise<void> {
  await page.getByRole("button", { name: "Settings" }).click();
  const dialog = page.getByRole("dialog", { name: "Settings" });
  await dialog.getByText("Sandbox and context").click();
  await dialog.getByLabel("Sandbox", { exact: true }).selectOption(value);
  const loaded = page.waitForEvent("load");
  await dialog.getByRole("button", { name: "Save" }).click();
  await loaded;
  await expect(page).toHaveURL(lands);
  await expect(page.getByRole("navigation", { name: "Sessions" })).toBeVisible();
}

test("choosing WebContainer loads the app again on its cross-origin isolated page (also from a new tab, and offline); Automatic brings it back to the plain page", async ({
  page,
  context,
  blockedRequests,
}) => {
  test.setTimeout(60_000);
  await openApp(page);
  expect(await isolated(page)).toBe(false);
  const id = await newSession(page);
  const status = page.getByRole("region", { name: "Workspace" }).getByRole("status").first();
  await expect(status).toContainText("Local sandbox — chosen automatically");
  await cacheApp(page);

  await chooseSandbox(page, "webcontainer", new RegExp(`/isolated/#/s/${id}$`));
  expect(await isolated(page)).toBe(true);
  expect(await page.evaluate(() => typeof SharedArrayBuffer)).toBe("function");
  // There, WebContainer is tried (StackBlitz, which the tests' network fence blocks), not refused for want of isolation.
  await expect(status).toContainText("WebContainer unavailable: could not reach StackBlitz");

  // A new tab at the plain address moves before the app loads, keeping the route.
  const tab = await context.newPage();
  await tab.goto(`/#/s/${id}`);
  await expect(tab).toHaveURL(new RegExp(`/isolated/#/s/${id}$`));
  await expect(tab.getByRole("navigation", { name: "Sessions" })).toBeVisible();
  expect(await isolated(tab)).toBe(true);
  await tab.close();

  // With the flag gone (storage cleared), the settings still move a new tab there, and set it again.
  await page.evaluate(() => localStorage.removeItem("tabcode:isolate"));
  const again = await context.newPage();
  await again.goto(`/#/s/${id}`);
  await expect(again).toHaveURL(new RegExp(`/isolated/#/s/${id}$`));
  await expect(again.getByRole("navigation", { name: "Sessions" })).toBeVisible();
  expect(await isolated(again)).toBe(true);
  expect(await again.evaluate(() => localStorage.getItem("tabcode:isolate"))).toBe("1");
  await again.close();

  // Offline, the service worker serves the isolated page with its headers: stopped (a page load races the
  // network against starting it) and running.
  await context.setOffline(true);
  await stopServiceWorkers(page);
  await page.reload();
  await expect(page.getByRole("navigation", { name: "Sessions" })).toBeVisible();
  expect(await isolated(page)).toBe(true);
  await page.reload();
  await expect(page.getByRole("navigation", { name: "Sessions" })).toBeVisible();
  expect(await page.evaluate(() => Boolean(navigator.serviceWorker.controller))).toBe(true);
  expect(await isolated(page)).toBe(true);
  await context.setOffline(false);

  // Back on Automatic: the tab is on the plain page again, and a new tab stays there.
  await chooseSandbox(page, "auto", new RegExp(`^[^#]*/#/s/${id}$`));
  expect(new URL(page.url()).pathname).toBe("/");
  expect(await isolated(page)).toBe(false);
  const plain = await context.newPage();
  await plain.goto(`/#/s/${id}`);
  await expect(plain.getByRole("navigation", { name: "Sessions" })).toBeVisible();
  expect(new URL(plain.url()).pathname).toBe("/");
  expect(await isolated(plain)).toBe(false);
  await plain.close();

  // What choosing WebContainer contacted (and the fence blocked) was StackBlitz alone.
  expect(blockedRequests.length).toBeGreaterThan(0);
  expect(blockedRequests.filter((u) => new URL(u).hostname !== "stackblitz.com")).toEqual([]);
  blockedRequests.length = 0;
});

test("a first visit to the isolated page's address: served isolated; on Automatic the app moves to the plain page, keeping the route", async ({ page }) => {
  const response = await page.goto("/isolated/#/");
  expect(response?.headers()["cross-origin-opener-policy"]).toBe("same-origin");
  expect(response?.headers()["cross-origin-embedder-policy"]).toBe("require-corp");
  await expect(page).toHaveURL(/^http:\/\/[^/]+\/#\/$/);
  await expect(page.getByRole("heading", { name: "A coding agent in your browser tab" })).toBeVisible();
  expect(await isolated(page)).toBe(false);
});

test("while a run is working, a new sandbox choice is saved but waits for the next reload: the run is not cut off", async ({ page, mock }) => {
  // ~6 s of streaming: the choice is saved while the run is still working (checked below), also on a loaded machine.
  const words = Array.from({ length: 24 }, (_, i) => `w${i}`).join(" ");
  mock.setScript([{ text: words, chunkDelayMs: 250 }]);
  await openApp(page);
  await configure(page, mock, "openai-compatible");
  const id = await newSession(page);
  await send(page, "work on it");
  await expect(page).toHaveTitle(/^● Working… · /);
  await page.evaluate(() => Object.assign(window, { __samePage: true }));
  await page.getByRole("button", { name: "Settings" }).click();
  const dialog = page.getByRole("dialog", { name: "Settings" });
  await dialog.getByText("Sandbox and context").click();
  await dialog.getByLabel("Sandbox", { exact: true }).selectOption("local");
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(dialog).toBeHidden();
  // Saved while the run works: the run goes on to its end on the sandbox it started with.
  expect(await page.evaluate((id) => (globalThis as unknown as { __tabcode: { sessions: { isBusy(id: string): boolean } } }).__tabcode.sessions.isBusy(id), id)).toBe(true);
  await waitIdle(page, id);
  await expect(page.getByRole("article").filter({ hasText: words })).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { __samePage?: boolean }).__samePage)).toBe(true);
  expect(await page.evaluate(() => (globalThis as unknown as { __tabcode: { settings: { get(): { sandbox: string } } } }).__tabcode.settings.get().sandbox)).toBe("local");
});
