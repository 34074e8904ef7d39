import type { Page } from "@playwright/test";
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
  // It opens at its top (its title on screen), and every description has room: none squeezed to a word per line.
  await expect(sheet.getByRole("heading", { name: "Keyboard shortcuts" })).toBeInViewport();
  const narrowest = await sheet.locator("td:nth-child(2)").evaluateAll((cells) => Math.min(...cells.map((c) => c.getBoundingClientRect().width)));
  expect(narrowest).toBeGreaterThan(200);
  await page.keyboard.press("Tab");
  await expect(sheet.getByRole("button", { name: "Close" })).toBeFocused();
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

  // The help menu opens the same cheat sheet; ↓ on its button opens it too, its first item focused.
  await page.getByRole("button", { name: "Help" }).focus();
  await page.keyboard.press("ArrowDown");
  await expect(page.getByRole("menu")).toBeVisible();
  await expect(page.getByRole("menuitem").first()).toBeFocused();
  await page.getByRole("menuitem", { name: "Keyboard shortcuts" }).click();
  await expect(sheet).toBeVisible();
  await sheet.getByRole("button", { name: "Close" }).click();
});

test("slash commands: /compact summarises, /undo and /redo revert and bring back the last turn, /model opens the model picker", async ({ page, mock }) => {
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
  await expect(page.getByRole("combobox", { name: "Model for this session" })).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(page.getByRole("button", { name: /^Model: gpt-4o-mini/ })).toBeFocused();
  await box.focus();

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

/** Tabs through the page from the top and names every control focus lands on (role: name), until focus comes back round. */
async function tabWalk(page: Page, max = 120): Promise<string[]> {
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  const seen: string[] = [];
  for (let i = 0; i < max; i++) {
    await page.keyboard.press("Tab");
    const name = await page.evaluate(() => {
      const el = document.activeElement;
      if (!el || el === document.body) return "";
      const labels = el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement ? el.labels : null;
      const label = el.getAttribute("aria-label") ?? labels?.[0]?.textContent ?? el.textContent ?? "";
      return `${el.getAttribute("role") ?? el.tagName.toLowerCase()}: ${label.trim().replace(/\s+/g, " ")}`;
    });
    if (seen.length > 0 && name === seen[0]) break;
    seen.push(name);
  }
  return seen;
}

test("keyboard only: Tab reaches every main control; @ files, chips, the model picker and Send are used without a mouse", async ({ page, mock }) => {
  mock.setScript([{ text: "Read it." }]);
  await openApp(page);
  await configure(page, mock, "openai-compatible");
  const id = await newSession(page);
  await page.evaluate(async (id) => {
    const t = (globalThis as unknown as { __tabcode: { sandbox: { sandboxFor(id: string): Promise<{ fs: { writeFile(p: string, d: string): Promise<void> } }> } } }).__tabcode;
    await (await t.sandbox.sandboxFor(id)).fs.writeFile("/workspace/src/app.ts", "export {};\n");
  }, id);

  const reached = await tabWalk(page);
  for (const control of [/^button: New session$/, /^input: Search sessions$/, /^button: Settings$/, /^button: Help$/, /^button: Share$/, /^textarea: Message$/, /^button: Model: gpt-4o-mini/, /^select: Agent$/, /^input: Upload files$/, /^input: Upload folder$/, /^button: Download zip$/, /^button: Context X-ray$/, /^separator: Resize sessions panel$/]) {
    expect(reached.some((r) => control.test(r)), `${control} in ${JSON.stringify(reached)}`).toBe(true);
  }

  // Composer: Shift+Esc focuses it; @ lists files, ↓/Enter picks one; the chip's remove button is one Shift+Tab away.
  await page.keyboard.press("Shift+Escape");
  const box = page.getByRole("textbox", { name: "Message" });
  await expect(box).toBeFocused();
  await page.keyboard.type("look at @app");
  await expect(page.getByRole("listbox", { name: "Workspace files" }).getByRole("option", { selected: true })).toHaveText("src/app.ts");
  await page.keyboard.press("Enter");
  const chips = page.getByRole("list", { name: "Attachments" });
  await expect(chips.getByRole("listitem")).toHaveCount(1);
  await page.keyboard.press("Shift+Tab");
  await expect(chips.getByRole("button", { name: "Remove src/app.ts" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(chips).toBeHidden();
  await expect(box).toBeFocused();
  await expect(box).toHaveValue("look at ");
  await page.keyboard.type("@app");
  // The list opens once the workspace walk answers; Enter before that would be a newline, not a pick.
  await expect(page.getByRole("listbox", { name: "Workspace files" }).getByRole("option", { selected: true })).toHaveText("src/app.ts");
  await page.keyboard.press("Enter");
  await expect(chips.getByRole("listitem")).toHaveCount(1);

  // The model picker: Tab to it, Enter opens the combobox, type, ↓, Enter picks; Escape would close.
  await page.keyboard.press("Tab");
  const picker = page.getByRole("button", { name: /^Model: gpt-4o-mini/ });
  await expect(picker).toBeFocused();
  await page.keyboard.press("Enter");
  const combo = page.getByRole("combobox", { name: "Model for this session" });
  await expect(combo).toBeFocused();
  await page.keyboard.type("4.1");
  const options = page.getByRole("listbox", { name: "Models" }).getByRole("option");
  await expect(options.first()).toHaveAttribute("aria-selected", "true");
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("ArrowUp");
  const chosen = (await page.getByRole("listbox", { name: "Models" }).getByRole("option", { selected: true }).locator(".slash-name").textContent()) ?? "";
  expect(chosen).toMatch(/4\.1/);
  await page.keyboard.press("Enter");
  await expect(page.getByRole("button", { name: `Model: ${chosen}. Switch model for this session` })).toBeFocused();
  await expect(page.getByRole("main").getByText(chosen, { exact: true }).first()).toBeVisible();

  // Back to the box (Shift+Esc) and Enter sends, with the attachment, to the chosen model.
  await page.keyboard.press("Shift+Escape");
  await expect(box).toBeFocused();
  await expect(box).toHaveValue(/look at/);
  await page.keyboard.press("Enter");
  await expect(page.getByRole("article", { name: "Your message" })).toHaveCount(1);
  await waitIdle(page, id);
  const body = mock.modelRequests().at(-1)?.body as { model: string; messages: { role: string; content: unknown }[] };
  expect(body.model).toBe(chosen);
  expect(JSON.stringify(body.messages.filter((m) => m.role === "user").at(-1)?.content)).toContain("src/app.ts");

  // Settings' notification setting is a checkbox Space toggles (a fake permission prompt answers).
  await page.evaluate(() => {
    Object.assign(window, { Notification: { permission: "default", requestPermission: async () => "denied" } });
  });
  await page.getByRole("button", { name: "Settings" }).focus();
  await page.keyboard.press("Enter");
  const notify = page.getByRole("dialog", { name: "Settings" }).getByRole("checkbox", { name: "Notify me when a run finishes or needs approval" });
  await notify.focus();
  await page.keyboard.press("Space");
  await expect(page.getByRole("dialog", { name: "Settings" }).getByRole("status").filter({ hasText: "blocked" })).toBeVisible();
  await expect(notify).not.toBeChecked();
  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog", { name: "Settings" })).toBeHidden();
});

test("Replay by keyboard: Space on a focused control acts on that control only, focus never drops to the page, Play at the end replays from the start", async ({ page, mock }) => {
  await page.setViewportSize({ width: 1400, height: 900 });
  await openApp(page);
  await configure(page, mock, "openai-compatible");
  const id = await newSession(page);
  mock.setScript([{ text: "Looking.", toolCalls: [{ name: "bash", args: { command: "ls", description: "list the files" } }] }, { text: "All listed." }]);
  await send(page, "list the files");
  await waitIdle(page, id);
  await page.getByRole("link", { name: "Replay" }).click();
  const controls = page.getByRole("toolbar", { name: "Replay controls" });
  const status = controls.getByRole("status");
  const pause = controls.getByRole("button", { name: "Pause" });
  await expect(status).toContainText(/Step 1 of \d+/);
  const total = Number((await status.textContent())?.match(/of (\d+)/)?.[1]);
  expect(total).toBeGreaterThan(3);

  // Space on a focused Next step steps (it used to start playback too).
  const next = controls.getByRole("button", { name: "Next step" });
  await next.focus();
  for (let i = 2; i <= total; i++) {
    await page.keyboard.press("Space");
    await expect(status).toContainText(`Step ${i} of ${total}`);
    await expect(pause).toHaveCount(0);
  }
  // At the last step it cannot act, says why, and keeps the focus (it went to <body>).
  await expect(next).toBeFocused();
  await expect(next).toHaveAttribute("aria-disabled", "true");
  await expect(next).toHaveAccessibleDescription("At the last step");
  await page.keyboard.press("Space");
  await expect(status).toContainText(`Step ${total} of ${total}`);

  // Space on a tool card of the replayed conversation opens the card, and only that.
  const head = page.getByRole("group", { name: /^Tool bash/ }).getByRole("button", { expanded: false });
  await head.focus();
  await page.keyboard.press("Space");
  await expect(page.getByRole("group", { name: /^Tool bash/ }).getByRole("button", { expanded: true })).toBeFocused();
  await expect(pause).toHaveCount(0);

  // At the end Play is "Replay from the start": it plays again from step 1.
  const again = controls.getByRole("button", { name: "Replay from the start" });
  await again.focus();
  await page.keyboard.press("Space");
  await expect(pause).toBeFocused();
  await page.keyboard.press("Space");
  await expect(controls.getByRole("button", { name: "Play", exact: true })).toBeFocused();
  expect(Number((await status.textContent())?.match(/Step (\d+)/)?.[1])).toBeLessThan(total);

  // Restart and Previous step keep the focus at the first step too.
  const restart = controls.getByRole("button", { name: "Restart" });
  await restart.focus();
  await page.keyboard.press("Enter");
  await expect(status).toContainText(`Step 1 of ${total}`);
  await expect(restart).toBeFocused();
  await expect(restart).toHaveAccessibleDescription("At the first step");
  await page.keyboard.press("ArrowRight");
  await expect(status).toContainText(`Step 2 of ${total}`);
  const previous = controls.getByRole("button", { name: "Previous step" });
  await previous.focus();
  await page.keyboard.press("Space");
  await expect(status).toContainText(`Step 1 of ${total}`);
  await expect(previous).toBeFocused();
  await expect(pause).toHaveCount(0);

  // Space outside any control plays and pauses.
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.keyboard.press("Space");
  await expect(pause).toBeVisible();
  await page.keyboard.press("Space");
  await expect(controls.getByRole("button", { name: "Play", exact: true })).toBeVisible();
});
