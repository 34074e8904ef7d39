import { cacheApp, storedMessages, waitIdle } from "./app";
import { expect, test } from "./fixtures";

test("with no settings at all: the demo streams, edits a file, runs a command, compacts and finishes — offline", async ({ page, context }) => {
  test.setTimeout(90_000);
  await page.goto("/");
  // Nothing beyond the page itself: once the app is cached (first visit), the network goes away.
  await page.getByRole("navigation", { name: "Sessions" }).waitFor();
  await cacheApp(page, 15_000);
  await context.setOffline(true);
  await page.reload();
  await page.getByRole("button", { name: "Start the demo" }).click();
  await expect(page).toHaveURL(/#\/s\/ses_/);
  const id = new URL(page.url()).hash.replace("#/s/", "");

  // The guided tour points at the mechanisms as they happen.
  const tour = page.getByRole("complementary", { name: "Guided tour" });
  // The tour goes step by step, in order ("Got it" moves on once the step's moment has come).
  const tourTo = (title: string) =>
    expect(async () => {
      if (!((await tour.textContent()) ?? "").includes(title)) await tour.getByRole("button", { name: "Got it" }).click({ timeout: 2_000 });
      await expect(tour).toContainText(title, { timeout: 1_000 });
    }).toPass({ timeout: 30_000 });
  await tourTo("Tool states");
  await expect(page.getByRole("complementary", { name: "Todo list" })).toBeVisible({ timeout: 20_000 });
  await expect(page.getByRole("group", { name: "Tool edit: done" })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole("group", { name: /Tool bash: done/ }).first()).toBeVisible({ timeout: 30_000 });
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
  await tourTo("Fork, revert, replay");
  await tour.getByRole("button", { name: "Got it" }).click();

  // Replay the same session step by step, with what the model saw at each step.
  await page.getByRole("link", { name: "Replay" }).click();
  await expect(page.getByRole("heading", { name: /^Replay: / })).toBeVisible();
  const controls = page.getByRole("toolbar", { name: "Replay controls" });
  await expect(controls.getByRole("status")).toContainText(/Step 1 of \d+ · user message/);
  const total = Number((await controls.getByRole("status").textContent())?.match(/of (\d+)/)?.[1]);
  expect(total).toBeGreaterThan(15);
  await expect(page.getByRole("article")).toHaveCount(1);
  for (let i = 0; i < 3; i++) await controls.getByRole("button", { name: "Next step" }).click();
  await expect(controls.getByRole("status")).toContainText(`Step 4 of ${total}`);
  await expect(page.getByRole("complementary", { name: "What the model saw" })).toContainText("This step was sent");
  await controls.getByRole("combobox", { name: "Speed" }).selectOption("4");
  await controls.getByRole("button", { name: "Play" }).click();
  await expect(controls.getByRole("button", { name: "Pause" })).toBeVisible();
  await controls.getByRole("slider", { name: "Replay position" }).fill(String(total));
  await expect(controls.getByRole("status")).toContainText(`Step ${total} of ${total}`);
  await expect(page.getByRole("complementary", { name: "What the model saw" }).getByRole("listitem", { name: "Compaction boundary" })).toBeVisible();
  await page.getByRole("button", { name: "Exit replay" }).click();
  await expect(page.getByRole("textbox", { name: "Message" })).toBeVisible();
  await context.setOffline(false);
});

test("sample sessions open instantly from the empty state, and again without duplicates", async ({ page }) => {
  await page.goto("/");
  const samples = page.getByRole("region", { name: "Sample sessions" });
  await samples.getByRole("button", { name: "Open sample: fix the date bug" }).click();
  await expect(page).toHaveURL(/#\/s\/ses_/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Sample: fix the date bug");
  await expect(page.getByRole("article", { name: "Summary" })).toBeVisible();
  await expect(page.getByRole("region", { name: "Workspace" }).getByRole("button", { name: /^[▸▾] src\/$/ })).toBeVisible();
  const first = page.url();
  // Back to the start page the way a user goes: the brand is its link.
  await page.getByRole("link", { name: "tabcode start page" }).click();
  await expect(page).toHaveURL(/#\/$/);
  await page.getByRole("region", { name: "Sample sessions" }).getByRole("button", { name: "Open sample: fix the date bug" }).click();
  await expect(page).toHaveURL(first);
  await expect(page.getByRole("navigation", { name: "Sessions" }).locator(".session-link")).toHaveCount(1);
  // On a phone too (the bar above the session holds the brand).
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByRole("link", { name: "tabcode start page" }).filter({ visible: true }).click();
  await expect(page.getByRole("button", { name: "Start the Python demo" })).toBeVisible();
});
