import type { Page } from "@playwright/test";
import { configure, newSession, openApp, send, waitIdle } from "./app";
import { expect, test } from "./fixtures";

/** Every interactive control on the page has an accessible name (label, aria-label, text or title). */
async function unnamedControls(page: Page): Promise<string[]> {
  return page.locator("button, a[href], input:not([type=hidden]), select, textarea, [role=button], [role=menuitem], [role=slider]").evaluateAll((els) =>
    els
      .filter((el) => {
        const style = getComputedStyle(el);
        if (style.display === "none" || style.visibility === "hidden") return false;
        const input = el as HTMLInputElement;
        const labelled = (input.labels?.length ?? 0) > 0 && [...(input.labels ?? [])].some((l) => (l.textContent ?? "").trim().length > 0);
        const aria = el.getAttribute("aria-label")?.trim() || (el.getAttribute("aria-labelledby") ? document.getElementById(el.getAttribute("aria-labelledby") ?? "")?.textContent?.trim() : "");
        const text = el.tagName !== "INPUT" && el.tagName !== "SELECT" && el.tagName !== "TEXTAREA" ? (el.textContent ?? "").trim() : "";
        return !(labelled || aria || text || el.getAttribute("title")?.trim());
      })
      .map((el) => el.outerHTML.slice(0, 160)),
  );
}

test("every control has an accessible name: start page, a session, settings, X-ray, replay", async ({ page }) => {
  await openApp(page);
  expect(await unnamedControls(page)).toEqual([]);

  await page.getByRole("region", { name: "Sample sessions" }).getByRole("button", { name: "Open sample: fix the date bug" }).click();
  await expect(page.getByRole("article", { name: "Summary" })).toBeVisible();
  expect(await unnamedControls(page)).toEqual([]);

  await page.getByRole("button", { name: "Settings" }).click();
  const settings = page.getByRole("dialog", { name: "Settings" });
  for (const summary of await settings.locator("summary").all()) await summary.click();
  expect(await unnamedControls(page)).toEqual([]);
  await settings.getByRole("button", { name: "Cancel" }).click();

  await page.getByRole("button", { name: "Context X-ray" }).click();
  expect(await unnamedControls(page)).toEqual([]);
  await page.getByRole("dialog", { name: "Context X-ray" }).getByRole("button", { name: "Close" }).click();

  await page.getByRole("link", { name: "Replay" }).click();
  await expect(page.getByRole("toolbar", { name: "Replay controls" })).toBeVisible();
  expect(await unnamedControls(page)).toEqual([]);
});

test("a new session with the composer, permissions and debug dialogs has no unnamed control", async ({ page }) => {
  await openApp(page);
  await newSession(page);
  expect(await unnamedControls(page)).toEqual([]);
  await page.getByRole("button", { name: "Permissions" }).click();
  const perms = page.getByRole("dialog", { name: "Permissions of this session" });
  await perms.getByRole("button", { name: "Add rule" }).click();
  expect(await unnamedControls(page)).toEqual([]);
  await perms.getByRole("button", { name: "Cancel" }).click();
  // A rule was added and not saved: Cancel asks first.
  await perms.getByRole("alertdialog").getByRole("button", { name: "Discard changes" }).click();
  // Closing a dialog (its own button or Escape) gives focus back to the control that opened it.
  await expect(page.getByRole("button", { name: "Permissions" })).toBeFocused();
  await page.getByRole("button", { name: "Debug" }).click();
  const debug = page.getByRole("dialog", { name: "Debug: what the model sees" });
  await expect(debug.getByRole("region", { name: "Tools" })).toBeVisible();
  expect(await unnamedControls(page)).toEqual([]);
  await page.keyboard.press("Escape");
  await expect(debug).toBeHidden();
  await expect(page.getByRole("button", { name: "Debug" })).toBeFocused();
});

/** Controls on screen shorter than 24 px (WCAG 2.5.8), as "TAG "text" N px" (a hidden file field's label is its target). */
async function smallControls(page: Page): Promise<string[]> {
  return page.locator("button, summary, a[href], input:not(.visually-hidden), select").evaluateAll((els) =>
    els
      .map((e) => ({ e, r: e.getBoundingClientRect() }))
      .filter(({ r }) => r.width > 0 && r.height > 0 && r.height < 24)
      .map(({ e, r }) => `${e.tagName} "${(e.textContent || e.getAttribute("aria-label") || "").trim().slice(0, 30)}" ${Math.round(r.height)} px`),
  );
}

test.describe("touch phone (390×844)", () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

  test("every control of an answer with reasoning, code and a tool card is at least 24 px tall (WCAG 2.5.8)", async ({ page, mock }) => {
    await page.goto("/");
    await page.waitForFunction(() => Boolean((globalThis as unknown as { __tabcode?: unknown }).__tabcode));
    await configure(page, mock, "openai-compatible");
    const id = await page.evaluate(async () => (await (globalThis as unknown as { __tabcode: { sessions: { createSession(): Promise<{ id: string }> } } }).__tabcode.sessions.createSession()).id);
    await page.goto(`/#/s/${id}`);
    mock.setScript([{ reasoning: "thinking about it", text: "Here:\n\n```js\nconst a = 1;\n```\n", toolCalls: [{ name: "bash", args: { command: "echo hi", description: "say hi" } }] }, { text: "Done." }]);
    await send(page, "go");
    await waitIdle(page, id);
    await page.getByRole("group", { name: /Tool bash/ }).getByRole("button").first().click();
    expect(await smallControls(page)).toEqual([]);
    // The Files drawer (its "▸ Terminal" toggle) and Replay (its position slider).
    await page.getByRole("button", { name: "Show files and todos" }).click();
    await expect(page.getByRole("button", { name: "Terminal" })).toBeVisible();
    expect(await smallControls(page)).toEqual([]);
    await page.keyboard.press("Escape");
    await page.getByRole("button", { name: "More ▾" }).click();
    await page.getByRole("menuitem", { name: "Replay" }).click();
    await expect(page.getByRole("slider", { name: "Replay position" })).toBeVisible();
    expect(await smallControls(page)).toEqual([]);
  });
});
