/** The session list with thousands of sessions (an imported history): each date group shows its first 100, then "Show more". */
import { openApp } from "./app";
import { expect, test } from "./fixtures";

test("a long session list shows its first 100 sessions per group and more on request; the open session is always listed", async ({ page }) => {
  await openApp(page);
  const ids = await page.evaluate(async () => {
    const t = (globalThis as unknown as { __tabcode: { sessions: { createSession(): Promise<{ id: string }> } } }).__tabcode;
    const out: string[] = [];
    for (let i = 0; i < 250; i++) out.push((await t.sessions.createSession()).id);
    return out;
  });
  const today = page.getByRole("navigation", { name: "Sessions" }).getByRole("region", { name: "Today" });
  const items = today.getByRole("listitem");
  await expect(items).toHaveCount(100);
  await today.getByRole("button", { name: "Show 150 more of 150 (Today)" }).click();
  await expect(items).toHaveCount(250);
  await expect(today.getByRole("button", { name: /^Show \d+ more/ })).toHaveCount(0);

  // After a reload the list is short again, but the session that is open (the oldest, far down) is listed.
  await page.goto(`/#/s/${ids[249]}`);
  await page.reload();
  await expect(items).toHaveCount(100);
  await page.goto(`/#/s/${ids[0]}`);
  await page.reload();
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(items).toHaveCount(250);
  await expect(today.getByRole("button", { name: /^Show \d+ more/ })).toHaveCount(0);
});
