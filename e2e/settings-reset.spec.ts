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

test("number fields keep what you type: no jump to a clamped value on the way to a number; out of range is brought into range on leaving the field", async ({ page }) => {
  await openApp(page);
  await page.getByRole("button", { name: "Settings" }).click();
  const dialog = page.getByRole("dialog", { name: "Settings" });
  await dialog.getByLabel("Provider").selectOption({ label: "OpenAI-compatible" });
  await dialog.getByText("Sandbox and context").click();
  const threshold = dialog.getByLabel("Compaction threshold (% of the usable window)");
  await threshold.selectText();
  await threshold.pressSequentially("70");
  await expect(threshold).toHaveValue("70");
  const window = dialog.getByLabel("Context window", { exact: true });
  await window.fill("");
  await expect(window).toHaveValue("");
  await window.pressSequentially("32000");
  await expect(window).toHaveValue("32000");
  const steps = dialog.getByLabel("Max steps per turn");
  await steps.fill("");
  await steps.blur();
  await expect(steps).not.toHaveValue("");
  await steps.fill("900");
  await steps.blur();
  await expect(steps).toHaveValue("500");
  await threshold.fill("5");
  await threshold.blur();
  await expect(threshold).toHaveValue("10");
  await dialog.getByRole("button", { name: "Save" }).click();
  const saved = await page.evaluate(async () => {
    const t = (globalThis as unknown as { __tabcode: { db: { table(n: string): { get(k: string): Promise<{ value: { maxSteps: number; compaction: { threshold: number } } }> } } } }).__tabcode;
    return (await t.db.table("settings").get("settings")).value;
  });
  expect(saved.maxSteps).toBe(500);
  expect(saved.compaction.threshold).toBeCloseTo(0.1);
});

test("Esc or Cancel with unsaved settings asks first; Keep editing keeps them, Discard closes; unchanged settings close at once", async ({ page }) => {
  await openApp(page);
  const open = async () => {
    await page.getByRole("button", { name: "Settings" }).click();
    const d = page.getByRole("dialog", { name: "Settings" });
    await expect(d).toBeVisible();
    return d;
  };
  let dialog = await open();
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  dialog = await open();
  await dialog.getByLabel("Provider").selectOption({ label: "OpenAI-compatible" });
  await dialog.getByLabel("API key", { exact: true }).fill("sk-typed-not-saved");
  await page.keyboard.press("Escape");
  const guard = dialog.getByRole("alertdialog", { name: "You have unsaved changes to the settings." });
  await expect(guard).toBeVisible();
  await expect(guard.getByRole("button", { name: "Keep editing" })).toBeFocused();
  // A second Esc does not throw the changes away either (Chromium closes a dialog on a repeated Esc by itself).
  await page.keyboard.press("Escape");
  await expect(dialog).toBeVisible();
  await expect(guard).toBeVisible();
  await guard.getByRole("button", { name: "Keep editing" }).click();
  await expect(dialog.getByLabel("API key", { exact: true })).toHaveValue("sk-typed-not-saved");
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await guard.getByRole("button", { name: "Discard changes" }).click();
  await expect(dialog).toBeHidden();
  dialog = await open();
  // Nothing was saved: still the demo (which asks for no key), and no key kept for the other provider.
  await expect(dialog.getByLabel("Provider")).toHaveValue("demo");
  await expect(dialog.getByLabel("API key", { exact: true })).toHaveCount(0);
  await dialog.getByLabel("Provider").selectOption({ label: "OpenAI-compatible" });
  await expect(dialog.getByLabel("API key", { exact: true })).toHaveValue("");
});
