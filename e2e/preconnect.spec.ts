import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type Page } from "@playwright/test";
import { configure, newSession, openApp, waitIdle } from "./app";
import { expect, type MockOpenAI, test } from "./fixtures";

// Chromium ignores preconnect hints in incognito profiles, which is what Playwright's browser contexts are:
// this test opens a browser with a profile of its own, as a user's.
test("typing a message opens a connection to the provider (never for the demo model), and the request goes out on it", async ({ mock }, info) => {
  const { launchOptions, baseURL } = info.project.use;
  const profile = mkdtempSync(join(tmpdir(), "tabcode-preconnect-"));
  const context = await chromium.launchPersistentContext(profile, { ...launchOptions, baseURL, headless: true });
  try {
    await typeThenSend(context.pages()[0] ?? (await context.newPage()), mock);
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
});

async function typeThenSend(page: Page, mock: MockOpenAI): Promise<void> {
  const hints = page.locator('link[rel="preconnect"]');
  await openApp(page);
  const id = await newSession(page);
  const box = page.getByRole("textbox", { name: "Message" });
  // The demo model runs in the tab: typing for it contacts nobody.
  await box.fill("typed for the demo model");
  await page.waitForTimeout(500);
  expect(await hints.count()).toBe(0);

  await configure(page, mock, "openai-compatible");
  await page.reload();
  await box.waitFor();
  // Merely opening the app opened no connection to the provider; none is left over from before.
  await page.waitForTimeout(500);
  expect(await hints.count()).toBe(0);
  mock.closeIdleConnections();
  const before = mock.connections.length;

  const requestsBefore = mock.requests.length;
  await box.fill("a question typed before Send");
  // The hint is in the head, without credentials, and the browser has opened the connection before any request.
  await expect(hints).toHaveCount(1);
  expect(await hints.evaluate((l: HTMLLinkElement) => [new URL(l.href).origin, l.crossOrigin])).toEqual([mock.url, "anonymous"]);
  await expect.poll(() => mock.connections.length).toBeGreaterThan(before);
  const opened = mock.connections[before] ?? Number.NaN;
  // The socket came from the hint: nothing was asked of the provider before Send.
  expect(mock.requests).toHaveLength(requestsBefore);

  const clickedAt = Date.now();
  await page.getByRole("button", { name: "Send", exact: true }).click();
  await expect.poll(() => mock.modelRequests().length).toBe(1);
  await waitIdle(page, id);
  // The request (after its preflight, on the same connection) used the socket opened while typing.
  const request = mock.modelRequests()[0];
  expect(request?.rawBody).toContain("a question typed before Send");
  expect(request?.connectedAt).toBeGreaterThanOrEqual(opened);
  expect(request?.connectedAt).toBeLessThan(clickedAt);

  // A demo session runs the demo model whatever Settings say: typing in one contacts no provider either.
  const demo = await page.evaluate(async () => (await (globalThis as unknown as { __tabcode: { sessions: { createSession(o: unknown): Promise<{ id: string }> } } }).__tabcode.sessions.createSession({ title: "Demo", demo: true })).id);
  await page.goto(`/?demo=1#/s/${demo}`);
  await box.waitFor();
  await page.waitForTimeout(500);
  mock.closeIdleConnections();
  const quiet = mock.connections.length;
  await box.fill("typed in a demo session");
  await page.waitForTimeout(1_000);
  expect(await hints.count()).toBe(0);
  expect(mock.connections).toHaveLength(quiet);
}
