/**
 * axe-core on the composer's new UI (the @ file list, attachment chips and thumbnails, the image notice,
 * the model picker), the notification setting and the anchored tour, at 1400×900 and 390×844, light and
 * dark: no serious or critical violation. Saves screenshots of each state in test-results/composer-screens/.
 */
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { configure, newSession, openApp } from "./app";
import { expect, test } from "./fixtures";

const PNG_B64 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

interface Finding {
  screen: string;
  id: string;
  impact: string;
  nodes: string[];
}

async function scan(page: Page, view: string, screen: string, out: Finding[]): Promise<void> {
  await page.waitForTimeout(300);
  await page.screenshot({ path: `test-results/composer-screens/${view}-${screen.replace(/\W+/g, "-")}.png` });
  const r = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]).analyze();
  for (const v of r.violations) out.push({ screen, id: v.id, impact: v.impact ?? "minor", nodes: v.nodes.slice(0, 3).map((n) => n.target.join(" ")) });
}

const VIEWS = [
  { name: "desktop", width: 1400, height: 900, dark: false },
  { name: "phone", width: 390, height: 844, dark: false },
  { name: "desktop-dark", width: 1400, height: 900, dark: true },
  { name: "phone-dark", width: 390, height: 844, dark: true },
] as const;

for (const v of VIEWS) {
  test(`axe on the composer, model picker, notification setting and tour — ${v.name} (${v.width}×${v.height})`, async ({ page, mock }) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width: v.width, height: v.height });
    await page.emulateMedia({ colorScheme: v.dark ? "dark" : "light" });
    const found: Finding[] = [];
    const narrow = v.width < 900;
    const drawer = async () => {
      if (narrow && !(await page.getByRole("navigation", { name: "Sessions" }).isVisible())) await page.getByRole("button", { name: "Show sessions" }).click();
    };
    if (narrow) {
      await page.goto("/");
      await expect(page.getByRole("heading", { name: "A coding agent in your browser tab" })).toBeVisible();
    } else await openApp(page);
    await configure(page, mock, "openai-compatible", { modelID: "deepseek-chat" });
    await drawer();
    const id = await newSession(page);
    if (narrow && (await page.getByRole("navigation", { name: "Sessions" }).isVisible())) await page.keyboard.press("Escape");
    await page.evaluate(async (id) => {
      const t = (globalThis as unknown as { __tabcode: { sandbox: { sandboxFor(id: string): Promise<{ fs: { writeFile(p: string, d: string): Promise<void> } }> } } }).__tabcode;
      const sb = await t.sandbox.sandboxFor(id);
      for (const p of ["src/app.ts", "src/app.test.ts", "src/components/app-shell.tsx", "README.md"]) await sb.fs.writeFile(`/workspace/${p}`, "export {};\n");
    }, id);

    const box = page.getByRole("textbox", { name: "Message" });
    await box.focus();
    await box.pressSequentially("explain @app");
    await expect(page.getByRole("listbox", { name: "Workspace files" })).toBeVisible();
    await scan(page, v.name, "mention list", found);
    await page.keyboard.press("Enter");
    await box.evaluate((el, b64) => {
      const dt = new DataTransfer();
      dt.items.add(new File([Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))], "screenshot.png", { type: "image/png" }));
      el.dispatchEvent(new ClipboardEvent("paste", { clipboardData: dt, bubbles: true, cancelable: true }));
    }, PNG_B64);
    await expect(page.getByRole("note").filter({ hasText: "does not accept images" })).toBeVisible();
    await scan(page, v.name, "attachments", found);

    await page.getByRole("button", { name: /^Model: deepseek-chat/ }).click();
    await expect(page.getByRole("listbox", { name: "Models" })).toBeVisible();
    await scan(page, v.name, "model picker", found);
    await page.keyboard.press("Escape");

    await drawer();
    await page.evaluate(() => Object.assign(window, { Notification: { permission: "denied", requestPermission: async () => "denied" } }));
    await page.getByRole("button", { name: "Settings" }).click();
    await page.getByRole("dialog", { name: "Settings" }).getByRole("checkbox", { name: /Notify me/ }).check({ force: true }).catch(() => undefined);
    await expect(page.getByRole("dialog", { name: "Settings" }).getByRole("status").filter({ hasText: "blocked" })).toBeVisible();
    await page.getByRole("dialog", { name: "Settings" }).getByRole("checkbox", { name: /Notify me/ }).scrollIntoViewIfNeeded();
    await scan(page, v.name, "notification setting", found);
    await page.keyboard.press("Escape");

    // The tour on a sample session (a demo session, already finished: every step's moment has come).
    await page.goto("/");
    await page.getByRole("button", { name: "Open sample: fix the date bug" }).click();
    const tour = page.getByRole("complementary", { name: "Guided tour" });
    await expect(tour).toBeVisible();
    await scan(page, v.name, "tour step 1", found);
    await tour.getByRole("button", { name: "Got it" }).click();
    await tour.getByRole("button", { name: "Got it" }).click();
    await expect(tour).toContainText("Context meter");
    await scan(page, v.name, "tour step 3", found);

    for (const f of found) console.log(`axe ${v.name} | ${f.screen} | ${f.impact} | ${f.id} | ${f.nodes.join(", ")}`);
    console.log(`axe composer ${v.name}: ${found.length} finding(s), ${found.filter((f) => f.impact === "serious" || f.impact === "critical").length} serious/critical`);
    expect(found.filter((f) => f.impact === "serious" || f.impact === "critical")).toEqual([]);
  });
}
