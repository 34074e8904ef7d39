import { storedMessages, waitIdle } from "./app";
import { expect, test } from "./fixtures";

test("with no settings at all: the demo streams, edits a file, runs a command, compacts and finishes — offline", async ({ page, context }) => {
  test.setTimeout(90_000);
  await page.goto("/");
  // Nothing beyond the page itself: once the app is cached (first visit), the network goes away.
  await expect.poll(() => page.evaluate(() => Boolean(navigator.serviceWorker?.controller)), { timeout: 15_000 }).toBe(true);
  await context.setOffline(true);
  await page.reload();
  await page.getByRole("button", { name: "Start the demo" }).click();
  await expect(page).toHaveURL(/#\/s\/ses_/);
  const id = new URL(page.url()).hash.replace("#/s/", "");

  await expect(page.getByRole("complementary", { name: "Todo list" })).toBeVisible({ timeout: 20_000 });
  await expect(page.getByRole("region", { name: "Tool edit: done" })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole("region", { name: /Tool bash: done/ }).first()).toBeVisible({ timeout: 30_000 });
  await waitIdle(page, id);
  await expect(page.getByRole("article", { name: "Summary" })).toBeVisible();

  const stored = await storedMessages(page, id);
  const tools = stored.flatMap((m) => m.parts).filter((p) => p.type === "tool");
  expect(tools.map((t) => t.tool)).toEqual(expect.arrayContaining(["todowrite", "read", "edit", "bash"]));
  expect(tools.every((t) => t.status === "completed")).toBe(true);
  expect(stored.at(-1)?.role).toBe("assistant");
  expect(stored.at(-1)?.parts.some((p) => p.type === "text")).toBe(true);
  const bash = await page.evaluate(async (id) => {
    const t = (globalThis as unknown as { __tabcode: { sandbox: { sandboxFor(id: string): Promise<{ fs: { readText(p: string): Promise<string> } }> } } }).__tabcode;
    return (await t.sandbox.sandboxFor(id)).fs.readText("/workspace/src/dates.js");
  }, id);
  expect(bash).toContain("getMonth() + 1");
  await context.setOffline(false);
});
