import { configure, newSession, openApp, send, waitIdle } from "./app";
import { expect, test } from "./fixtures";

/** The stored goal of a session (through the services seam). */
async function storedGoal(page: import("@playwright/test").Page, id: string) {
  return page.evaluate(async (sid) => {
    const t = (globalThis as unknown as { __tabcode: { store: { getSession(id: string): Promise<{ goal?: { state: string; continues: number } } | undefined> } } }).__tabcode;
    return (await t.store.getSession(sid))?.goal;
  }, id);
}

test("/goal with a budget keeps working across turns and stops within the budget", async ({ page, mock }) => {
  // Each goal turn works: a tool step, then a text step. 1,000 in + 100 out = 1,100 tokens a step: 1.1k, 2.2k
  // (turn one), 3.3k (turn two's tool step), and a fourth would reach 4.4k > 3.5k: it stops under its budget.
  const usage = { input: 1000, output: 100 };
  mock.setScript(
    Array.from({ length: 3 }, (_, i) => [
      { toolCalls: [{ name: "todowrite", args: { todos: [{ id: "1", content: `release ${i + 1}`, status: "in_progress", priority: "high" }] } }], usage },
      { text: `Step ${i + 1} of the work.`, usage, chunkDelayMs: 30 },
    ]).flat(),
  );
  await openApp(page);
  await configure(page, mock, "openai-compatible");
  const id = await newSession(page);
  await send(page, "/goal write the changelog until every release has an entry budget 3500 tokens");

  const bar = page.getByRole("region", { name: "Goal" });
  await expect(bar).toContainText("write the changelog");
  await expect(bar).toContainText("until every release has an entry");
  await expect(bar).toContainText("Goal stopped: no room in the budget for another step", { timeout: 20_000 });
  await expect(bar.getByRole("progressbar", { name: "Goal budget used" })).toHaveAttribute("aria-valuetext", "3.3k of 3.5k tokens");
  await waitIdle(page, id);
  expect(mock.modelRequests()).toHaveLength(3);
  // The objective is the session's pinned goal too: one meaning of "goal".
  await expect(page.getByRole("region", { name: /Pinned/ })).toContainText("write the changelog");
  expect(await storedGoal(page, id)).toMatchObject({ state: "spent", continues: 1 });

  // The goal and the continue messages are system events, never "You".
  await expect(page.getByRole("article", { name: "System event" }).filter({ hasText: "Goal set: write the changelog" })).toBeVisible();
  await expect(page.getByRole("article", { name: "System event" }).filter({ hasText: "continue toward the goal" })).toHaveCount(1);
  await expect(page.getByRole("article", { name: "Your message" })).toHaveCount(0);
  // What the model was sent: the goal, its stop condition and budget, then how much was used.
  const [first, , third] = mock.modelRequests();
  expect(first?.rawBody).toContain("Stop when: every release has an entry.");
  expect(first?.rawBody).toContain("goal_done");
  expect(third?.rawBody).toContain("Used so far: 2,200 tokens of 3,500 tokens.");

  for (const [w, h] of [
    [1400, 900],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width: w, height: h });
    await expect(bar).toBeInViewport();
    await page.screenshot({ path: test.info().outputPath(`goal-bar-${w}.png`) });
  }
  await bar.getByRole("button", { name: "Dismiss the goal" }).click();
  await expect(bar).toBeHidden();
});

test("after a reload an unfinished goal asks before resuming", async ({ page, mock }) => {
  mock.setScript([
    { toolCalls: [{ name: "todowrite", args: { todos: [{ id: "1", content: "tidy the docs", status: "in_progress", priority: "high" }] } }], usage: { input: 500, output: 50 } },
    { text: "Second part, slowly streamed so the page reloads in the middle of it.", usage: { input: 500, output: 50 }, chunkDelayMs: 400 },
    { text: "Resumed after the reload.", usage: { input: 500, output: 50 } },
    { text: "never finishes", hangAfterChunks: 1 },
  ]);
  await openApp(page);
  await configure(page, mock, "openai-compatible");
  const id = await newSession(page);
  await send(page, "/goal tidy the docs budget 1M tokens");
  await expect(page.getByRole("region", { name: "Goal" })).toContainText("Working on the goal");
  await expect.poll(() => mock.modelRequests().length, { timeout: 20_000 }).toBe(2);
  await page.reload();

  const bar = page.getByRole("region", { name: "Goal" });
  await expect(bar).toContainText("Goal paused");
  await expect(bar.getByRole("status")).toHaveText("Resume goal?");
  // Nothing is sent until the user says so.
  await page.waitForTimeout(500);
  expect(mock.modelRequests()).toHaveLength(2);
  await page.screenshot({ path: test.info().outputPath("goal-resume-1400.png") });

  await bar.getByRole("button", { name: "Resume" }).click();
  await expect(page.getByRole("article").filter({ hasText: "Resumed after the reload." })).toBeVisible({ timeout: 15_000 });
  await expect(bar).toContainText("Working on the goal");
  await bar.getByRole("button", { name: "Stop goal" }).click();
  await expect(bar).toContainText("Goal stopped");
  expect((await storedGoal(page, id))?.state).toBe("stopped");
});

test("a goal whose model only talks is paused after two answers without a tool call", async ({ page, mock }) => {
  mock.setScript(Array.from({ length: 6 }, () => ({ text: "There are no tests in this project.", usage: { input: 500, output: 50 } })));
  await openApp(page);
  await configure(page, mock, "openai-compatible");
  const id = await newSession(page);
  await send(page, "/goal make the tests pass until all tests pass budget $1");
  const bar = page.getByRole("region", { name: "Goal" });
  const toast = page.getByRole("region", { name: "Notifications" }).getByRole("status").filter({ hasText: "Goal paused: the model's last 2 answers called no tool" });
  await expect(toast).toBeVisible({ timeout: 20_000 });
  // Focus on its ✕ holds the toast while the layouts are looked at.
  await toast.getByRole("button", { name: "Dismiss" }).focus();
  await waitIdle(page, id);
  expect(mock.modelRequests()).toHaveLength(2);
  await expect(bar.getByRole("status")).toHaveText("Resume goal?");
  expect((await storedGoal(page, id))?.state).toBe("active");

  // On a phone the toast leaves the top bar's controls (☰, Share, More, Files) uncovered; on a wide screen it is top right.
  const overlaps = async (names: string[]) => {
    const t = await toast.boundingBox();
    const hit: string[] = [];
    for (const name of names) {
      const b = await page.getByRole("button", { name, exact: true }).boundingBox();
      if (t && b && t.x < b.x + b.width && b.x < t.x + t.width && t.y < b.y + b.height && b.y < t.y + t.height) hit.push(name);
    }
    return hit;
  };
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByRole("button", { name: "More ▾" })).toBeVisible();
  await expect(toast).toBeInViewport({ ratio: 1 });
  expect(await overlaps(["Show sessions", "Share", "More ▾", "Show files and todos"])).toEqual([]);
  await page.screenshot({ path: test.info().outputPath("goal-paused-toast-390.png") });
  await page.setViewportSize({ width: 1400, height: 900 });
  await expect(toast).toBeInViewport({ ratio: 1 });
  await page.screenshot({ path: test.info().outputPath("goal-paused-toast-1400.png") });
  await toast.getByRole("button", { name: "Dismiss" }).click();
  await expect(toast).toBeHidden();
});

test("Settings: the summary model is a field of its own, saved with the rest", async ({ page, mock }) => {
  await openApp(page);
  await configure(page, mock, "openai-compatible");
  await page.getByRole("button", { name: "Settings" }).click();
  const dialog = page.getByRole("dialog", { name: "Settings" });
  const field = dialog.getByLabel("Summary model", { exact: true });
  await expect(field).toHaveValue("");
  await expect(field).toHaveAttribute("placeholder", "Same as the session (gpt-4o-mini)");
  for (const [w, h] of [
    [1400, 900],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width: w, height: h });
    await field.fill("gpt-4o-mini-2024-07-18");
    await field.scrollIntoViewIfNeeded();
    await page.screenshot({ path: test.info().outputPath(`settings-summary-model-${w}.png`) });
  }
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(dialog).toBeHidden();
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.reload();
  await page.getByRole("button", { name: "Settings" }).click();
  await expect(page.getByRole("dialog", { name: "Settings" }).getByLabel("Summary model", { exact: true })).toHaveValue("gpt-4o-mini-2024-07-18");
});
