/** A run that ends (or asks) while the person looks elsewhere: the tab title badge and the Notification API. */
import type { Page } from "@playwright/test";
import { configure, newSession, openApp, send, waitIdle } from "./app";
import { expect, test } from "./fixtures";

interface Shown {
  title: string;
  body?: string;
}

/** A stand-in Notification API: records permission requests and shown notifications; `click(i)` fires one's onclick. */
async function fakeNotifications(page: Page) {
  await page.addInitScript(() => {
    const shown: { title: string; body?: string; n: { onclick: (() => void) | null } }[] = [];
    class FakeNotification {
      static permission: NotificationPermission = "default";
      static requests = 0;
      static async requestPermission(): Promise<NotificationPermission> {
        FakeNotification.requests++;
        FakeNotification.permission = "granted";
        return "granted";
      }
      onclick: (() => void) | null = null;
      constructor(title: string, opts?: { body?: string }) {
        shown.push({ title, body: opts?.body, n: this });
      }
      close() {}
    }
    Object.assign(window, { Notification: FakeNotification, __shown: shown });
  });
}

const shown = (page: Page) => page.evaluate(() => (window as unknown as { __shown: Shown[] }).__shown.map(({ title, body }) => ({ title, body })));
const requests = (page: Page) => page.evaluate(() => (window as unknown as { Notification: { requests: number } }).Notification.requests);

/** Makes the page look hidden and unfocused (as when the person switched tabs). */
async function hide(page: Page) {
  await page.evaluate(() => {
    Object.defineProperty(document, "visibilityState", { configurable: true, get: () => "hidden" });
    document.hasFocus = () => false;
    document.dispatchEvent(new Event("visibilitychange"));
  });
}

async function show(page: Page) {
  await page.evaluate(() => {
    Object.defineProperty(document, "visibilityState", { configurable: true, get: () => "visible" });
    document.hasFocus = () => true;
    document.dispatchEvent(new Event("visibilitychange"));
  });
}

test("a run that finishes while another session is open badges the tab title until that session is opened", async ({ page, mock }) => {
  // ~4 s of streaming: the run must still be going when the other session opens, also on a loaded machine.
  mock.setScript([{ text: Array.from({ length: 27 }, (_, i) => `w${i}`).join(" "), chunkDelayMs: 150 }]);
  await openApp(page);
  await configure(page, mock, "openai-compatible");
  const first = await newSession(page);
  await send(page, "work on it");
  await expect(page).toHaveTitle(/^● Working… · /);
  await newSession(page);
  await waitIdle(page, first);
  await expect(page).toHaveTitle(/^\(1\) ✓ .* — tabcode$/);
  await page.goto(`/#/s/${first}`);
  await expect(page).toHaveTitle(/^[^(]/);
  await expect(page).not.toHaveTitle(/✓/);
});

test("notifications: permission asked only from the setting's click; a run that ends in a hidden tab notifies, and the click opens its session", async ({ page, mock }) => {
  await fakeNotifications(page);
  // ~4 s of streaming: the tab must be hidden before the run ends, also on a loaded machine.
  mock.setScript([{ text: Array.from({ length: 20 }, (_, i) => `done${i}`).join(" "), chunkDelayMs: 200 }]);
  await openApp(page);
  expect(await requests(page)).toBe(0);
  await configure(page, mock, "openai-compatible");
  await page.getByRole("button", { name: "Settings" }).click();
  const dialog = page.getByRole("dialog", { name: "Settings" });
  const box = dialog.getByRole("checkbox", { name: "Notify me when a run finishes or needs approval" });
  await expect(box).not.toBeChecked();
  await box.check();
  await expect(box).toBeChecked();
  expect(await requests(page)).toBe(1);
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();

  const id = await newSession(page);
  await send(page, "finish while I am away");
  await hide(page);
  await waitIdle(page, id);
  await expect.poll(() => shown(page)).toEqual([{ title: expect.stringMatching(/^Run finished — /), body: "The agent has answered." }]);
  await expect(page).toHaveTitle(/^\(1\) ✓ /);

  // Back in another session; the notification's click opens the one that finished.
  await show(page);
  await newSession(page);
  await page.evaluate(() => (window as unknown as { __shown: { n: { onclick: (() => void) | null } }[] }).__shown[0]?.n.onclick?.());
  await expect(page).toHaveURL(new RegExp(`#/s/${id}$`));
  await expect(page).not.toHaveTitle(/^\(/);
});

test("a session that waits for an approval while hidden shows the ⚠ badge and notifies", async ({ page, mock }) => {
  await fakeNotifications(page);
  mock.setScript([{ toolCalls: [{ name: "bash", args: { command: "rm -rf build", description: "Remove build" } }] }, { text: "ok" }]);
  await openApp(page);
  await configure(page, mock, "openai-compatible", { permissions: [{ permission: "bash", pattern: "*", action: "ask" }] });
  await page.evaluate(() => localStorage.setItem("tabcode.notify", "on"));
  await page.evaluate(() => (window as unknown as { Notification: { permission: string } }).Notification.permission = "granted");
  const id = await newSession(page);
  await hide(page);
  await send(page, "clean up");
  await expect(page).toHaveTitle(/^\(1\) ⚠ /, { timeout: 15_000 });
  // The badge is set at once; the notification follows when the session's title has been read.
  await expect.poll(async () => (await shown(page))[0]?.title).toMatch(/^Approval needed — /);
  await show(page);
  await expect(page).not.toHaveTitle(/^\(/);
  await page.getByRole("dialog", { name: "Permission needed" }).getByRole("button", { name: "Reject", exact: true }).click();
  await waitIdle(page, id);
});
