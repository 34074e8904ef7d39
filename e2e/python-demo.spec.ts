import { send, storedMessages, waitIdle } from "./app";
import { expect, test } from "./fixtures";

const SHOTS = process.env.TABCODE_SCREENSHOTS;

test("the Python demo, from the start page with no key: tests fail, the fix passes, git commits — real Python in the tab", async ({ page }) => {
  test.setTimeout(240_000);
  await page.goto("/");
  await page.getByRole("button", { name: "Start the Python demo" }).click();
  await expect(page).toHaveURL(/#\/s\/ses_/);
  const id = new URL(page.url()).hash.replace("#/s/", "");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Demo: Python test, fix, commit");
  const answer = page.getByRole("article").filter({ hasText: "What you just watched" });
  await expect(answer).toBeVisible({ timeout: 200_000 });
  await waitIdle(page, id);
  await expect(answer).toContainText("now passes all three tests");
  await expect(answer).toContainText("Committed as Add temperature conversions with tests");

  const tools = (await storedMessages(page, id)).flatMap((m) => m.parts).filter((p) => p.type === "tool");
  expect(tools.map((t) => t.tool)).toEqual(["write", "write", "bash", "edit", "bash", "bash", "bash"]);
  expect(tools.every((t) => t.status === "completed")).toBe(true);
  const ws = page.getByRole("region", { name: "Workspace" });
  await expect(ws.getByRole("button", { name: "temperature.py", exact: true })).toBeVisible();
  await expect(ws.getByRole("button", { name: "test_temperature.py", exact: true })).toBeVisible();
  const log = await page.evaluate(async (sessionID) => {
    const t = (globalThis as unknown as { __tabcode: { sandbox: { sandboxFor(id: string): Promise<{ exec(c: string): Promise<{ stdout: string }> }> } } }).__tabcode;
    return (await t.sandbox.sandboxFor(sessionID)).exec("git log --oneline && python3 -m unittest 2>&1 | tail -1");
  }, id);
  expect(log.stdout).toMatch(/^[0-9a-f]{7} Add temperature conversions with tests\nOK\n$/);

  // "Run the tests" in this workspace runs the Python tests (there is no date check here) and reports what they printed.
  const end = page.getByRole("button", { name: "End tour" });
  if (await end.isVisible()) await end.click();
  await send(page, "Run the tests");
  const report = page.getByRole("article").filter({ hasText: "all 3 tests pass" });
  await expect(report).toBeVisible({ timeout: 60_000 });
  await waitIdle(page, id);
  const ran = (await storedMessages(page, id)).flatMap((m) => m.parts).filter((p) => p.type === "tool");
  expect(ran.slice(7).map((t) => [t.tool, t.status])).toEqual([["bash", "completed"]]);

  if (SHOTS) {
    await page.setViewportSize({ width: 1400, height: 900 });
    await page.screenshot({ path: `${SHOTS}/python-demo-1400.png` });
    await page.getByRole("group", { name: "Tool bash: done" }).first().getByRole("button").first().click();
    await page.getByRole("group", { name: "Tool bash: done" }).first().scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/python-demo-1400-failing.png` });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: `${SHOTS}/python-demo-390.png` });
    await page.goto("/");
    await page.screenshot({ path: `${SHOTS}/start-390.png`, fullPage: true });
    await page.setViewportSize({ width: 1400, height: 900 });
    await page.screenshot({ path: `${SHOTS}/start-1400.png`, fullPage: true });
  }
});

test("the Python sample opens from the start page", async ({ page }) => {
  await page.goto("/");
  await page.getByRole("region", { name: "Sample sessions" }).getByRole("button", { name: "Open sample: Python test, fix, commit" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Sample: Python test, fix, commit");
  await expect(page.getByRole("article").filter({ hasText: "What you just watched" })).toContainText("now passes all three tests");
});
