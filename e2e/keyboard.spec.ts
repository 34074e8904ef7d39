import { configure, newSession, openApp, send, waitIdle } from "./app";
import { expect, test } from "./fixtures";

test("Tab on the empty composer moves focus (no agent switch); Ctrl+. and /agent switch the agent and announce it", async ({ page }) => {
  await openApp(page);
  await newSession(page);
  const box = page.getByRole("textbox", { name: "Message" });
  const agent = page.getByRole("combobox", { name: "Agent" });
  await box.focus();
  await page.keyboard.press("Tab");
  await expect(box).not.toBeFocused();
  await expect(agent).toHaveValue("build");

  await box.focus();
  await page.keyboard.press("Control+Period");
  await expect(agent).toHaveValue("plan");
  await expect(page.getByRole("status").filter({ hasText: "Agent: Plan (read-only)" })).toHaveCount(1);
  await page.keyboard.press("Control+Period");
  await expect(agent).toHaveValue("build");

  // The palette offers commands as you type; Enter on "/agent plan" runs it and clears the box.
  await box.fill("/ag");
  await expect(page.getByRole("listbox", { name: "Commands" }).getByRole("option")).toHaveText([/\/agent/]);
  await box.fill("/agent plan");
  await page.keyboard.press("Enter");
  await expect(agent).toHaveValue("plan");
  await expect(box).toHaveValue("");
  await expect(page.getByRole("status").filter({ hasText: "Agent: Plan (read-only)" })).toHaveCount(1);
});

test("the ? cheat sheet, Ctrl+K search, new session and panel toggles by keyboard only", async ({ page }) => {
  await openApp(page);
  await newSession(page);
  await page.getByRole("heading", { level: 1 }).click();
  await page.keyboard.press("Shift+?");
  const sheet = page.getByRole("dialog", { name: "Keyboard shortcuts" });
  await expect(sheet).toBeVisible();
  await expect(sheet).toContainText("Ctrl/⌘ + K");
  await expect(sheet).toContainText("/compact");
  await page.keyboard.press("Escape");
  await expect(sheet).toBeHidden();

  await page.keyboard.press("Control+k");
  await expect(page.getByRole("searchbox", { name: "Search sessions" })).toBeFocused();

  const before = page.url();
  await page.keyboard.press("Control+Shift+O");
  await expect(page).not.toHaveURL(before);
  await expect(page).toHaveURL(/#\/s\/ses_/);
  await page.keyboard.press("Shift+Escape");
  await expect(page.getByRole("textbox", { name: "Message" })).toBeFocused();

  // Alt+↓ / Alt+↑ walk the session list.
  const newest = page.url();
  await page.keyboard.press("Alt+ArrowDown");
  await expect(page).toHaveURL(before);
  await page.keyboard.press("Alt+ArrowUp");
  await expect(page).toHaveURL(newest);

  await page.keyboard.press("Control+b");
  await expect(page.getByRole("navigation", { name: "Sessions" })).toBeHidden();
  await page.keyboard.press("Control+b");
  await expect(page.getByRole("navigation", { name: "Sessions" })).toBeVisible();
  await page.keyboard.press("Control+Alt+b");
  await expect(page.getByRole("complementary", { name: "Files and todos" })).toBeHidden();
  await page.keyboard.press("Control+Alt+b");
  await expect(page.getByRole("complementary", { name: "Files and todos" })).toBeVisible();

  // The help menu opens the same cheat sheet.
  await page.getByRole("button", { name: "Help" }).click();
  await page.getByRole("menuitem", { name: "Keyboard shortcuts" }).click();
  await expect(sheet).toBeVisible();
  await sheet.getByRole("button", { name: "Close" }).click();
});

test("slash commands: /compact summarises, /undo and /redo revert and bring back the last turn, /model opens Settings", async ({ page, mock }) => {
  await openApp(page);
  await configure(page, mock, "openai-compatible");
  const id = await newSession(page);
  mock.setScript([{ text: "First answer." }, { text: "Summary of the work so far." }]);
  await send(page, "hello");
  await waitIdle(page, id);
  const box = page.getByRole("textbox", { name: "Message" });

  await box.fill("/undo");
  await page.keyboard.press("Enter");
  await expect(page.getByRole("status").filter({ hasText: /reverted/ })).toBeVisible();
  await expect(page.getByRole("article", { name: "Your message" })).toHaveCount(0);
  await box.fill("/redo");
  await page.keyboard.press("Enter");
  await expect(page.getByRole("article", { name: "Your message" })).toHaveCount(1);

  await box.fill("/compact");
  await page.keyboard.press("Enter");
  await expect(page.getByRole("article", { name: "Summary" })).toBeVisible({ timeout: 20_000 });

  await box.fill("/model");
  await page.keyboard.press("Enter");
  await expect(page.getByRole("dialog", { name: "Settings" })).toBeVisible();
  await page.keyboard.press("Escape");

  await box.fill("/nope");
  await page.keyboard.press("Enter");
  await expect(page.getByRole("alert").filter({ hasText: "There is no /nope command" })).toBeVisible();
  await expect(box).toHaveValue("/nope");
});

test("forking from your own message puts its text in the fork's composer", async ({ page, mock }) => {
  await openApp(page);
  await configure(page, mock, "openai-compatible");
  const id = await newSession(page);
  mock.setScript([{ text: "Answer one." }]);
  await send(page, "please refactor the parser");
  await waitIdle(page, id);
  const mine = page.getByRole("article", { name: "Your message" });
  await mine.hover();
  await mine.getByRole("button", { name: "Fork from this message" }).click();
  await expect(page).not.toHaveURL(new RegExp(id));
  await expect(page.getByRole("textbox", { name: "Message" })).toHaveValue("please refactor the parser");
  await expect(page.getByRole("article", { name: "Your message" })).toHaveCount(0);
});
