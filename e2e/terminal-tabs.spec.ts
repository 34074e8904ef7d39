/**
 * The Terminal of one session in two tabs: a command running in tab A shows in tab B as running in another tab
 * (not as stopped by a reload), with a Stop that reaches it; a turn sent in B waits for it; B's entry turns to the
 * command's real end when A writes it; B cannot revert while it runs; a command whose tab closed shows as stopped by a reload. Each tab's sandbox
 * sees the files the other tab's commands wrote.
 */
import type { BrowserContext, Page } from "@playwright/test";
import { configure, newSession, openApp, send, waitIdle } from "./app";
import { expect, type MockOpenAI, test } from "./fixtures";

async function openTerminal(page: Page) {
  const toggle = page.getByRole("button", { name: "Terminal" });
  if ((await toggle.getAttribute("aria-expanded")) !== "true") await toggle.click();
  await expect(toggle).toHaveAttribute("aria-expanded", "true");
  return page.getByRole("log", { name: "Terminal output" });
}

async function run(page: Page, command: string) {
  const input = page.getByRole("textbox", { name: "Command to run in the sandbox" });
  await input.fill(command);
  await input.press("Enter");
}

/** Two pages of one session, A's opened first, each with its Terminal open (bash allowed). */
async function twoTabs(context: BrowserContext, mock: MockOpenAI) {
  const a = await context.newPage();
  await a.setViewportSize({ width: 1400, height: 900 });
  await openApp(a);
  await configure(a, mock, "openai-compatible", { permissions: [{ permission: "bash", pattern: "*", action: "allow" }] });
  const id = await newSession(a);
  const logA = await openTerminal(a);
  const b = await context.newPage();
  await b.setViewportSize({ width: 1400, height: 900 });
  await b.goto(`/#/s/${id}`);
  await expect(b.getByRole("textbox", { name: "Message" })).toBeVisible();
  const logB = await openTerminal(b);
  return { a, b, id, logA, logB };
}

test("a command running in one tab: running in another tab there, a turn there waits for it, Stop reaches it, and a closed tab's says stopped by a reload", async ({ context, mock }) => {
  test.setTimeout(120_000);
  const { a, b, id, logA, logB } = await twoTabs(context, mock);

  // A runs a command; B, opened before it started, follows it as running in another tab.
  await run(a, "sleep 6; echo finished-in-a > a-done.txt; echo finished-in-a");
  await expect(logA.locator(".terminal-you").last().locator(".terminal-status")).toHaveText("running…");
  const entryB = logB.locator(".terminal-you").last();
  await expect(entryB.locator(".terminal-status")).toHaveText("running in another tab…");
  await expect(b.getByRole("status").filter({ hasText: "A command of yours is running in this session in another tab" })).toBeVisible();
  await expect(b.getByRole("button", { name: "Run", exact: true })).toHaveCount(0);
  await expect(b.getByRole("button", { name: "Stop the command running in another tab" })).toBeVisible();
  await expect(b.getByRole("button", { name: "Clear your commands" })).toHaveCount(0);

  // A turn sent in B waits for A's command before its first step, saying so; then it goes on.
  // The model's command reads what A's command writes at its end: it can only say it if it ran after that end.
  mock.setScript([{ toolCalls: [{ name: "bash", args: { command: "cat a-done.txt", description: "read" } }] }, { text: "Went on after your command." }]);
  await send(b, "go on when it ends");
  await expect(b.getByRole("status").filter({ hasText: "Waiting for your command in the Terminal to end" })).toContainText("(sleep 6; echo finished-in-a > a-done.txt; echo finished-in-a)");
  // The model's command has not run (its call waits with the step).
  await expect(logB.locator(".terminal-model .terminal-status")).not.toHaveText("exit 0");
  // A writes the command's end: B's entry shows it, and the turn goes on.
  await expect(entryB.locator(".terminal-status")).toHaveText("exit 0", { timeout: 15_000 });
  await expect(entryB).toContainText("finished-in-a");
  await waitIdle(b, id);
  await expect(b.getByRole("article").filter({ hasText: "Went on after your command." })).toBeVisible();
  const modelRead = logB.locator(".terminal-model").last();
  await expect(modelRead).toContainText("cat a-done.txt");
  await expect(modelRead).toContainText("finished-in-a");
  await expect(b.getByRole("button", { name: "Run", exact: true })).toBeVisible();

  // While A's command runs, B may not revert the turn (the command would read or overwrite files half-way): B says why.
  await run(a, "sleep 30");
  await expect(entryB.locator(".terminal-status")).toHaveText("running in another tab…");
  await b.getByRole("article", { name: "Your message" }).last().hover();
  await b.getByRole("button", { name: "Revert this turn" }).click();
  await expect(b.getByText("Could not revert: a command of yours is still running in the terminal in another tab (sleep 30)")).toBeVisible();
  await expect(b.getByRole("button", { name: "Unrevert" })).toHaveCount(0);

  // Stop in B stops A's command.
  await b.getByRole("button", { name: "Stop the command running in another tab" }).click();
  await expect(logA.locator(".terminal-you").last().locator(".terminal-status")).toHaveText("stopped");
  await expect(entryB.locator(".terminal-status")).toHaveText("stopped");

  // A tab that goes while its command runs: stopped by a reload, in B.
  await run(a, "sleep 30");
  await expect(entryB.locator(".terminal-status")).toHaveText("running in another tab…");
  // Keyboard focus on B's Stop when A goes: the button gives way to Run, and the focus stays in the form, in the box.
  await b.getByRole("button", { name: "Stop the command running in another tab" }).focus();
  await a.close();
  await expect(entryB.locator(".terminal-status")).toHaveText("stopped by a reload");
  await expect(b.getByRole("button", { name: "Run", exact: true })).toBeVisible();
  expect(await b.evaluate(() => document.activeElement?.getAttribute("aria-label"))).toBe("Command to run in the sandbox");
  // And B can run its own now.
  await run(b, "echo b-runs");
  await expect(logB.locator(".terminal-you").last()).toContainText("exit 0");
});

test("files a command wrote in one tab are there for the other tab's commands, and its edit starts from them", async ({ context, mock }) => {
  test.setTimeout(90_000);
  const { a, b, logA, logB } = await twoTabs(context, mock);
  // B's sandbox has loaded the workspace before A writes.
  await run(b, "ls; echo listed-in-b");
  await expect(logB.locator(".terminal-you").filter({ hasText: "listed-in-b" }).locator(".terminal-status")).toHaveText("exit 0");

  await run(a, "echo from-a > made-in-a.txt && echo written-in-a");
  await expect(logA.locator(".terminal-you").filter({ hasText: "written-in-a" }).locator(".terminal-status")).toHaveText("exit 0");

  // The logs are shared: each tab's own entry is told by its marker.
  await run(b, "cat made-in-a.txt && echo from-b >> made-in-a.txt && echo read-in-b");
  const readB = logB.locator(".terminal-you").filter({ hasText: "read-in-b" });
  await expect(readB.locator(".terminal-status")).toHaveText("exit 0");
  await expect(readB).toContainText("from-a");

  await run(a, "cat made-in-a.txt && echo read-in-a");
  const readA = logA.locator(".terminal-you").filter({ hasText: "read-in-a" });
  await expect(readA.locator(".terminal-status")).toHaveText("exit 0");
  await expect(readA).toContainText(/from-a\s+from-b/);
});
