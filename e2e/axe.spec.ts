/**
 * Automated accessibility scan (axe-core) of every main screen and dialog at 1400×900, 1024×768 and
 * 390×844, light and dark: no serious or critical violation. Prints every finding (any impact).
 */
import { openApp } from "./app";
import { expect, test } from "./fixtures";
import { type AxeFinding, axeBothSchemes } from "./views";

const VIEWS = [
  { name: "desktop", width: 1400, height: 900 },
  { name: "tablet", width: 1024, height: 768 },
  { name: "phone", width: 390, height: 844 },
] as const;

for (const v of VIEWS) {
  test(`axe: no serious or critical violation — ${v.name} (${v.width}×${v.height})`, async ({ page }) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width: v.width, height: v.height });
    await page.emulateMedia({ colorScheme: "light" });
    const narrow = v.width < 900;
    const found: AxeFinding[] = [];
    if (narrow) await page.goto("/");
    else await openApp(page);
    await expect(page.getByRole("heading", { name: "A coding agent in your browser tab" })).toBeVisible();
    await axeBothSchemes(page, "start page", found);

    await page.getByRole("button", { name: "Open sample: fix the date bug" }).click();
    await expect(page.getByRole("article", { name: "Summary" })).toBeVisible();
    await axeBothSchemes(page, "session", found);

    const openSessions = async () => {
      if (narrow && !(await page.getByRole("navigation", { name: "Sessions" }).isVisible())) await page.getByRole("button", { name: "Show sessions" }).click();
    };
    await openSessions();
    if (narrow) await axeBothSchemes(page, "sessions drawer", found);
    await page.getByRole("button", { name: "Settings" }).click();
    await expect(page.getByRole("dialog", { name: "Settings" })).toBeVisible();
    await axeBothSchemes(page, "settings dialog", found);
    await page.keyboard.press("Escape");
    await expect(page.getByRole("dialog", { name: "Settings" })).toBeHidden();

    await openSessions();
    const nav = page.getByRole("navigation", { name: "Sessions" });
    await nav.getByRole("button", { name: /^Delete / }).first().click();
    await expect(page.getByRole("dialog", { name: "Delete this session?" })).toBeVisible();
    await axeBothSchemes(page, "delete dialog", found);
    await page.getByRole("button", { name: "Cancel" }).click();
    await expect(page.getByRole("dialog", { name: "Delete this session?" })).toBeHidden();
    if (narrow) {
      await page.keyboard.press("Escape");
      await expect(page.getByRole("navigation", { name: "Sessions" })).toBeHidden();
    }

    if (narrow) {
      await page.getByRole("button", { name: "Show files and todos" }).click();
      await expect(page.getByRole("complementary", { name: "Files and todos" })).toBeVisible();
      await axeBothSchemes(page, "files drawer", found);
      await page.keyboard.press("Escape");
    }

    if (v.width < 1200) {
      await page.getByRole("button", { name: "More ▾" }).click();
      await axeBothSchemes(page, "more menu", found);
      await page.getByRole("menuitem", { name: "Context X-ray" }).click();
    } else await page.getByRole("button", { name: "Context X-ray" }).click();
    await expect(page.getByRole("dialog", { name: /Context X-ray/ })).toBeVisible();
    await axeBothSchemes(page, "X-ray dialog", found);
    await page.keyboard.press("Escape");

    await page.getByRole("heading", { level: 1 }).click();
    await page.keyboard.press("Shift+?");
    await expect(page.getByRole("dialog", { name: "Keyboard shortcuts" })).toBeVisible();
    await axeBothSchemes(page, "shortcuts dialog", found);
    await page.keyboard.press("Escape");

    await page.getByRole("textbox", { name: "Message" }).fill("/");
    await expect(page.getByRole("listbox", { name: "Commands" })).toBeVisible();
    await axeBothSchemes(page, "command palette", found);
    await page.getByRole("textbox", { name: "Message" }).fill("");

    for (const f of found) console.log(`axe ${v.name} | ${f.screen} | ${f.impact} | ${f.id} | ${f.nodes.join(", ")}`);
    console.log(`axe ${v.name}: ${found.length} finding(s), ${found.filter((f) => f.impact === "serious" || f.impact === "critical").length} serious/critical`);
    expect(found.filter((f) => f.impact === "serious" || f.impact === "critical")).toEqual([]);
  });
}
