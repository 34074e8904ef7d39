/**
 * Automated accessibility scan (axe-core) of every main screen and dialog at 1400×900, 1024×768 and
 * 390×844, light and dark: no serious or critical violation. Prints every finding (any impact).
 */
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { openApp } from "./app";
import { expect, test } from "./fixtures";

interface Finding {
  screen: string;
  id: string;
  impact: string;
  nodes: string[];
}

async function scan(page: Page, screen: string, out: Finding[]): Promise<void> {
  // Let transitions and lazy chunks (highlighting) settle.
  await page.waitForTimeout(300);
  const r = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]).analyze();
  for (const v of r.violations) out.push({ screen, id: v.id, impact: v.impact ?? "minor", nodes: v.nodes.slice(0, 3).map((n) => n.target.join(" ")) });
}

const VIEWS = [
  { name: "desktop", width: 1400, height: 900, dark: false },
  { name: "tablet", width: 1024, height: 768, dark: false },
  { name: "phone", width: 390, height: 844, dark: false },
  { name: "desktop-dark", width: 1400, height: 900, dark: true },
  { name: "phone-dark", width: 390, height: 844, dark: true },
] as const;

for (const v of VIEWS) {
  test(`axe: no serious or critical violation — ${v.name} (${v.width}×${v.height})`, async ({ page }) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width: v.width, height: v.height });
    await page.emulateMedia({ colorScheme: v.dark ? "dark" : "light" });
    const narrow = v.width < 900;
    const found: Finding[] = [];
    if (narrow) await page.goto("/");
    else await openApp(page);
    await expect(page.getByRole("heading", { name: "A coding agent in your browser tab" })).toBeVisible();
    await scan(page, "start page", found);

    await page.getByRole("button", { name: "Open sample: fix the date bug" }).click();
    await expect(page.getByRole("article", { name: "Summary" })).toBeVisible();
    await scan(page, "session", found);

    const openSessions = async () => {
      if (narrow && !(await page.getByRole("navigation", { name: "Sessions" }).isVisible())) await page.getByRole("button", { name: "Show sessions" }).click();
    };
    await openSessions();
    if (narrow) await scan(page, "sessions drawer", found);
    await page.getByRole("button", { name: "Settings" }).click();
    await expect(page.getByRole("dialog", { name: "Settings" })).toBeVisible();
    await scan(page, "settings dialog", found);
    await page.keyboard.press("Escape");
    await expect(page.getByRole("dialog", { name: "Settings" })).toBeHidden();

    await openSessions();
    const nav = page.getByRole("navigation", { name: "Sessions" });
    await nav.getByRole("button", { name: /^Delete / }).first().click();
    await expect(page.getByRole("dialog", { name: "Delete this session?" })).toBeVisible();
    await scan(page, "delete dialog", found);
    await page.getByRole("button", { name: "Cancel" }).click();
    await expect(page.getByRole("dialog", { name: "Delete this session?" })).toBeHidden();
    if (narrow) {
      await page.keyboard.press("Escape");
      await expect(page.getByRole("navigation", { name: "Sessions" })).toBeHidden();
    }

    if (narrow) {
      await page.getByRole("button", { name: "Show files and todos" }).click();
      await expect(page.getByRole("complementary", { name: "Files and todos" })).toBeVisible();
      await scan(page, "files drawer", found);
      await page.keyboard.press("Escape");
    }

    if (v.width < 1200) {
      await page.getByRole("button", { name: "More ▾" }).click();
      await scan(page, "more menu", found);
      await page.getByRole("menuitem", { name: "Context X-ray" }).click();
    } else await page.getByRole("button", { name: "Context X-ray" }).click();
    await expect(page.getByRole("dialog", { name: /Context X-ray/ })).toBeVisible();
    await scan(page, "X-ray dialog", found);
    await page.keyboard.press("Escape");

    await page.getByRole("heading", { level: 1 }).click();
    await page.keyboard.press("Shift+?");
    await expect(page.getByRole("dialog", { name: "Keyboard shortcuts" })).toBeVisible();
    await scan(page, "shortcuts dialog", found);
    await page.keyboard.press("Escape");

    await page.getByRole("textbox", { name: "Message" }).fill("/");
    await expect(page.getByRole("listbox", { name: "Commands" })).toBeVisible();
    await scan(page, "command palette", found);
    await page.getByRole("textbox", { name: "Message" }).fill("");

    for (const f of found) console.log(`axe ${v.name} | ${f.screen} | ${f.impact} | ${f.id} | ${f.nodes.join(", ")}`);
    console.log(`axe ${v.name}: ${found.length} finding(s), ${found.filter((f) => f.impact === "serious" || f.impact === "critical").length} serious/critical`);
    expect(found.filter((f) => f.impact === "serious" || f.impact === "critical")).toEqual([]);
  });
}
