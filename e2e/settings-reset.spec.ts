import { openApp } from "./app";
import { expect, test } from "./fixtures";

test("one invalid stored setting is reset alone, and the user is told which", async ({ page }) => {
  await openApp(page);
  await page.evaluate(async () => {
    const t = (globalThis as unknown as { __tabcode: { db: { table(n: string): { put(row: unknown): Promise<unknown> } } } }).__tabcode;
    await t.db.table("settings").put({
      key: "settings",
      value: { provider: "openai-compatible", baseURL: "http://127.0.0.1:9/v1", apiKey: "sk-kept-after-reset", modelID: "my-model", maxSteps: -3 },
    });
  });
  await page.reload();
  await expect(page.getByText(/Some saved settings were invalid and were reset to their defaults: Max steps\. Everything else was kept\./)).toBeVisible();
  await page.getByRole("button", { name: "Settings" }).click();
  const dialog = page.getByRole("dialog", { name: "Settings" });
  await expect(dialog.getByLabel("API key", { exact: true })).toHaveValue("sk-kept-after-reset");
  await expect(dialog.getByLabel("Model", { exact: true })).toHaveValue("my-model");
});
