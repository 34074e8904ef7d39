/** The demo's guided tour: steps in order, each anchored to (and highlighting) its element; Escape, restart, focus; phone sheet. */
import type { Locator, Page } from "@playwright/test";
import { expect, test } from "./fixtures";

const TITLES = ["Parts", "Tool states", "Context meter", "Context X-ray", "Compaction boundary", "Fork, revert, replay"];

async function startDemo(page: Page): Promise<string> {
  await page.goto("/");
  await page.getByRole("button", { name: "Start the demo" }).click();
  await expect(page).toHaveURL(/#\/s\/ses_/);
  const id = new URL(page.url()).hash.replace("#/s/", "");
  // The demo streams at reading pace: wait for its whole run, so every step's moment has come.
  await expect
    .poll(() => page.evaluate((id) => (globalThis as unknown as { __tabcode: { sessions: { isBusy(id: string): boolean } } }).__tabcode.sessions.isBusy(id), id), { timeout: 75_000 })
    .toBe(false);
  return id;
}

/**
 * The popover touches its highlighted element: right below, above or beside it, without covering it (or over its
 * lower part when there is no room anywhere, unless `uncovered` says there is).
 */
async function expectAnchored(page: Page, tour: Locator, uncovered = false) {
  const target = page.locator(".tour-target");
  await expect(target).toHaveCount(1);
  await expect(async () => {
    const t = await target.boundingBox();
    const p = await tour.boundingBox();
    const vp = page.viewportSize();
    if (!t || !p || !vp) throw new Error("no boxes");
    expect(p.x).toBeGreaterThanOrEqual(0);
    expect(p.y).toBeGreaterThanOrEqual(0);
    expect(p.x + p.width).toBeLessThanOrEqual(vp.width);
    expect(p.y + p.height).toBeLessThanOrEqual(vp.height);
    const below = Math.abs(p.y - (t.y + t.height) - 10) <= 2;
    const above = Math.abs(p.y + p.height - (t.y - 10)) <= 2;
    // Beside: at most 40 px over the element's edge (a message's padding).
    const right = p.x <= t.x + t.width + 12 && p.x >= t.x + t.width - 40;
    const left = p.x + p.width >= t.x - 12 && p.x + p.width <= t.x + 40;
    const over = p.y >= t.y && p.y <= t.y + t.height;
    expect(below || above || right || left || (!uncovered && over), `popover ${JSON.stringify(p)} next to ${JSON.stringify(t)}`).toBe(true);
    // What it explains stays visible: the popover and the element do not overlap.
    const across = Math.min(p.x + p.width, t.x + t.width) - Math.max(p.x, t.x);
    const overlap = across > 40 && p.y < t.y + t.height && t.y < p.y + p.height;
    if (uncovered) expect(overlap, `popover ${JSON.stringify(p)} covers ${JSON.stringify(t)}`).toBe(false);
  }).toPass({ timeout: 5_000 });
}

test.describe("desktop (1400×900)", () => {
  test.use({ viewport: { width: 1400, height: 900 } });

  test("steps come in order, each next to its highlighted element, repositioned on resize; Escape closes and the help menu restarts it with focus", async ({ page }) => {
    test.setTimeout(120_000);
    await startDemo(page);
    const tour = page.getByRole("complementary", { name: "Guided tour" });
    // Every moment has come by the end of the demo, yet the tour starts at step 1 and goes in order.
    for (const [i, title] of TITLES.entries()) {
      await expect(tour).toContainText(`${title} · step ${i + 1} of ${TITLES.length}`);
      // At 1400×900 there is room for every step beside its element: none covers what it explains.
      await expectAnchored(page, tour, true);
      if (i === 0 || title === "Compaction boundary") await page.screenshot({ path: test.info().outputPath(`tour-step-${i + 1}-1400.png`) });
      if (title === "Tool states") await expect(page.locator(".tour-target")).toHaveClass(/tool-card/);
      if (title === "Context meter") await expect(page.locator(".tour-target")).toHaveClass(/context-meter/);
      if (title === "Compaction boundary") await expect(page.locator(".tour-target")).toHaveClass(/summary/);
      if (i === 2) {
        await page.setViewportSize({ width: 1100, height: 760 });
        await expectAnchored(page, tour);
        await page.setViewportSize({ width: 1400, height: 900 });
        await expectAnchored(page, tour, true);
      }
      if (i < TITLES.length - 1) await tour.getByRole("button", { name: "Got it" }).click();
    }
    // Escape (focus in the tour) closes it without stopping anything; the highlight goes too.
    await tour.getByRole("button", { name: "Got it" }).focus();
    await page.keyboard.press("Escape");
    await expect(tour).toBeHidden();
    await expect(page.locator(".tour-target")).toHaveCount(0);

    // Restart from the help menu: step 1 again, focus on it; Escape returns focus to the help button.
    const help = page.getByRole("button", { name: "Help" });
    await help.click();
    await page.getByRole("menuitem", { name: "Restart the tour" }).click();
    await expect(tour).toContainText("Parts · step 1 of");
    await expect(tour.getByRole("button", { name: "Got it" })).toBeFocused();
    await page.keyboard.press("Escape");
    await expect(tour).toBeHidden();
    await expect(help).toBeFocused();
  });
});

test("Escape while the demo runs closes the tour and keeps the run going; a second Escape stops it", async ({ page }) => {
  test.setTimeout(120_000);
  await page.goto("/");
  await page.getByRole("button", { name: "Start the demo" }).click();
  await expect(page).toHaveURL(/#\/s\/ses_/);
  const id = new URL(page.url()).hash.replace("#/s/", "");
  const busy = () => page.evaluate((id) => (globalThis as unknown as { __tabcode: { sessions: { isBusy(id: string): boolean } } }).__tabcode.sessions.isBusy(id), id);
  const tour = page.getByRole("complementary", { name: "Guided tour" });
  await expect(tour).toContainText("Parts · step 1 of");
  expect(await busy()).toBe(true);
  // Focus in the composer, where Esc would stop a run: the tour the user sees goes first.
  await page.getByRole("textbox", { name: "Message" }).focus();
  await page.keyboard.press("Escape");
  await expect(tour).toBeHidden();
  expect(await busy()).toBe(true);
  await page.keyboard.press("Escape");
  await expect.poll(busy).toBe(false);
});

test.describe("phone (390×844)", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("the tour is a bottom sheet across the screen, its element still highlighted", async ({ page }) => {
    test.setTimeout(120_000);
    await startDemo(page);
    const tour = page.getByRole("complementary", { name: "Guided tour" });
    await expect(tour).toContainText("Parts · step 1 of");
    const b = await tour.boundingBox();
    expect(b).toMatchObject({ x: 0, width: 390 });
    expect(Math.round((b?.y ?? 0) + (b?.height ?? 0))).toBe(844);
    // The composer stays usable above the sheet, not under it.
    const composer = await page.getByRole("textbox", { name: "Message" }).boundingBox();
    expect((composer?.y ?? 0) + (composer?.height ?? 0)).toBeLessThanOrEqual((b?.y ?? 0) + 1);
    await expect(page.locator(".tour-target")).toHaveCount(1);
    await tour.getByRole("button", { name: "Got it" }).click();
    await expect(tour).toContainText("Tool states · step 2 of");
    await expect(page.locator(".tour-target")).toHaveClass(/tool-card/);
    await tour.getByRole("button", { name: "End tour" }).click();
    await expect(tour).toBeHidden();
    // The space it took is given back.
    expect(await page.evaluate(() => document.documentElement.style.getPropertyValue("--tour-sheet-h"))).toBe("");
  });
});
