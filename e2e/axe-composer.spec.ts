/**
 * axe-core on the composer's new UI (the @ file list, attachment chips and thumbnails, the image notice,
 * the model picker), the notification setting and the anchored tour, at 1400×900 and 390×844, light and
 * dark: no serious or critical violation. Saves screenshots of each state in test-results/composer-screens/.
 */
import { configure, newSession, openApp } from "./app";
import { expect, test } from "./fixtures";
import { type AxeFinding, axeBothSchemes } from "./views";

const PNG_B64 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

const VIEWS = [
  { name: "desktop", width: 1400, height: 900 },
  { name: "phone", width: 390, height: 844 },
] as const;

for (const v of VIEWS) {
  test(`axe on the composer, model picker, notification setting and tour — ${v.name} (${v.width}×${v.height})`, async ({ page, mock }) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width: v.width, height: v.height });
    await page.emulateMedia({ colorScheme: "light" });
    const found: AxeFinding[] = [];
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
    await axeBothSchemes(page, "mention list", found, `test-results/composer-screens/${v.name}-mention-list`);
    await page.keyboard.press("Enter");
    await box.evaluate((el, b64) => {
      const dt = new DataTransfer();
      dt.items.add(new File([Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))], "screenshot.png", { type: "image/png" }));
      el.dispatchEvent(new ClipboardEvent("paste", { clipboardData: dt, bubbles: true, cancelable: true }));
    }, PNG_B64);
    await expect(page.getByRole("note").filter({ hasText: "does not accept images" })).toBeVisible();
    await axeBothSchemes(page, "attachments", found, `test-results/composer-screens/${v.name}-attachments`);

    await page.getByRole("button", { name: /^Model: deepseek-chat/ }).click();
    await expect(page.getByRole("listbox", { name: "Models" })).toBeVisible();
    await axeBothSchemes(page, "model picker", found, `test-results/composer-screens/${v.name}-model-picker`);
    await page.keyboard.press("Escape");

    await drawer();
    await page.evaluate(() => Object.assign(window, { Notification: { permission: "denied", requestPermission: async () => "denied" } }));
    await page.getByRole("button", { name: "Settings" }).click();
    await page.getByRole("dialog", { name: "Settings" }).getByRole("checkbox", { name: /Notify me/ }).check({ force: true }).catch(() => undefined);
    await expect(page.getByRole("dialog", { name: "Settings" }).getByRole("status").filter({ hasText: "blocked" })).toBeVisible();
    await page.getByRole("dialog", { name: "Settings" }).getByRole("checkbox", { name: /Notify me/ }).scrollIntoViewIfNeeded();
    await axeBothSchemes(page, "notification setting", found, `test-results/composer-screens/${v.name}-notification-setting`);
    await page.keyboard.press("Escape");

    // The tour on a sample session (a demo session, already finished: every step's moment has come).
    await page.goto("/");
    await page.getByRole("button", { name: "Open sample: fix the date bug" }).click();
    const tour = page.getByRole("complementary", { name: "Guided tour" });
    await expect(tour).toBeVisible();
    await axeBothSchemes(page, "tour step 1", found, `test-results/composer-screens/${v.name}-tour-step-1`);
    await tour.getByRole("button", { name: "Got it" }).click();
    await tour.getByRole("button", { name: "Got it" }).click();
    await expect(tour).toContainText("Context meter");
    await axeBothSchemes(page, "tour step 3", found, `test-results/composer-screens/${v.name}-tour-step-3`);

    for (const f of found) console.log(`axe ${v.name} | ${f.screen} | ${f.impact} | ${f.id} | ${f.nodes.join(", ")}`);
    console.log(`axe composer ${v.name}: ${found.length} finding(s), ${found.filter((f) => f.impact === "serious" || f.impact === "critical").length} serious/critical`);
    expect(found.filter((f) => f.impact === "serious" || f.impact === "critical")).toEqual([]);
  });
}
