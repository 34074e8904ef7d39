import type { Locator, Page } from "@playwright/test";
import { configure, newSession, openApp, send, waitIdle } from "./app";
import { expect, test } from "./fixtures";

/** Shows an info toast the way the loop does (a `session.notice` on the bus) and returns it. */
async function showToast(page: Page, sessionID: string, message: string): Promise<Locator> {
  await page.evaluate(
    ({ sessionID, message }) => {
      const t = (globalThis as unknown as { __tabcode: { bus: { publish(ev: unknown): void } } }).__tabcode;
      t.bus.publish({ type: "session.notice", sessionID, message });
    },
    { sessionID, message },
  );
  const toast = page.getByRole("region", { name: "Notifications" }).getByRole("status").filter({ hasText: message });
  await expect(toast).toBeVisible();
  return toast;
}

/** Holds a toast (focus on its ✕ pauses its timer) without moving the mouse. */
async function hold(toast: Locator): Promise<void> {
  await toast.getByRole("button", { name: "Dismiss" }).focus();
}

/** The names of the controls under `scope` whose middle a click would land on a toast instead. */
async function covered(scope: Locator): Promise<string[]> {
  return scope.evaluateAll((roots) => {
    const out: string[] = [];
    for (const b of roots.flatMap((root) => [...root.querySelectorAll<HTMLElement>("button, summary, input, select, textarea, a[href], [role=button]")])) {
      const r = b.getBoundingClientRect();
      if (r.width === 0 || r.height === 0 || r.bottom <= 0 || r.top >= innerHeight) continue;
      const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      if (hit?.closest(".notices")) out.push(b.getAttribute("aria-label") ?? b.textContent?.trim() ?? b.tagName);
    }
    return out;
  });
}

test("a toast covers no control: the header's buttons stay clickable at 1400 and 390 px, and an open phone drawer's controls too", async ({ page, mock }) => {
  await openApp(page);
  await configure(page, mock, "openai-compatible");
  const id = await newSession(page);
  // The top bar: the session's header, and on a phone the ☰ bar above it.
  const header = page.locator("main .main-bar, main .session-header");
  const notifications = page.getByRole("region", { name: "Notifications" });

  for (const [w, h] of [
    [1400, 900],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width: w, height: h });
    const toast = await showToast(page, id, `A notice at ${w} px that is long enough to wrap onto a second line on a phone.`);
    await hold(toast);
    await expect(toast).toBeInViewport({ ratio: 1 });
    // Playwright's trial click fails when another element would receive the click.
    const buttons = header.getByRole("button");
    const tried: string[] = [];
    for (const b of await buttons.all()) {
      if (!(await b.isVisible()) || !(await b.isEnabled())) continue;
      await b.click({ trial: true, timeout: 2000 });
      tried.push((await b.getAttribute("aria-label")) ?? ((await b.textContent()) ?? "").trim());
    }
    expect(tried).toEqual(expect.arrayContaining(w === 1400 ? ["Share", "Hide files and todos"] : ["Show sessions", "Share", "More ▾", "Show files and todos"]));
    // Nothing in the main area is under it: the header, the files panel beside the conversation, the composer.
    expect(await covered(page.locator("main.main"))).toEqual([]);
    // Below the header, inside the main column.
    const [t, hd] = [await toast.boundingBox(), await page.locator(".session-header").boundingBox()];
    expect(t && hd && t.y >= hd.y + hd.height).toBe(true);
    await toast.getByRole("button", { name: "Dismiss" }).click();
    await expect(toast).toBeHidden();
  }

  // A phone with a drawer open: the toast sits at the drawer's foot and the drawer's controls stay uncovered.
  for (const [open, drawerID] of [
    ["Show sessions", "sessions-panel"],
    ["Show files and todos", "files-panel"],
  ] as const) {
    await header.getByRole("button", { name: open, exact: true }).click();
    const drawer = page.locator(`#${drawerID}`);
    await expect(drawer).toBeVisible();
    const toast = await showToast(page, id, `Something a drawer's button did (${drawerID}).`);
    await hold(toast);
    await expect(toast).toBeInViewport({ ratio: 1 });
    expect(await covered(drawer)).toEqual([]);
    // Still announced and still dismissible over the modal drawer.
    await expect(notifications.getByRole("status")).toHaveCount(1);
    await toast.getByRole("button", { name: "Dismiss" }).click();
    await expect(toast).toBeHidden();
    await page.keyboard.press("Escape");
    await expect(drawer).toBeHidden();
  }
});

test("a toast stays below the banners under the header: a revert's Unrevert stays clickable", async ({ page, mock }) => {
  await openApp(page);
  await configure(page, mock, "openai-compatible");
  const id = await newSession(page);
  mock.setScript([{ text: ["Done."] }]);
  await send(page, "make a change");
  await waitIdle(page, id);
  await page.getByRole("article", { name: "Your message" }).hover();
  await page.getByRole("button", { name: "Revert this turn" }).click();
  const unrevert = page.getByRole("button", { name: "Unrevert" });
  await expect(unrevert).toBeVisible();
  const toast = await showToast(page, id, "Could not unrevert: a command of yours is still running in the terminal: wait for it to end, or stop it, and try again");
  await hold(toast);
  await unrevert.click({ trial: true, timeout: 2000 });
  expect(await covered(page.locator("main.main"))).toEqual([]);
  const [t, banner] = [await toast.boundingBox(), await page.locator(".banner.revert").boundingBox()];
  expect(t && banner && t.y >= banner.y + banner.height).toBe(true);
});
