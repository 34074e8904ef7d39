/**
 * Terminal pane: the model's shell commands and output, live; the person's own commands run in the
 * sandbox under the same permission rules (deny refuses in words, ask opens the permission dialog),
 * recorded per session (still there after a reload). Axe and screenshots at both sizes, dark too.
 */
import type { Page } from "@playwright/test";
import { configure, newSession, openApp, send, waitIdle } from "./app";
import { expect, test } from "./fixtures";
import { SIZES, seriousAxe, shoot } from "./views";

async function openTerminal(page: Page, narrow: boolean) {
  if (narrow) await page.getByRole("button", { name: "Show files and todos" }).click();
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

for (const size of SIZES) {
  test(`terminal: model commands live, your commands under the same rules — ${size.name}`, async ({ page, mock }) => {
    test.setTimeout(120_000);
    await openApp(page);
    await configure(page, mock, "openai-compatible", {
      permissions: [
        { permission: "bash", pattern: "*", action: "allow" },
        { permission: "bash", pattern: "rm *", action: "deny" },
        { permission: "bash", pattern: "printf *", action: "ask" },
      ],
    });
    const id = await newSession(page);
    await page.setViewportSize({ width: size.width, height: size.height });
    const narrow = size.width < 900;
    let log = await openTerminal(page, narrow);
    await expect(log).toContainText("No commands yet");
    if (narrow) await page.keyboard.press("Escape");

    // The model's command appears while it runs, its output streaming in.
    mock.setScript([{ toolCalls: [{ name: "bash", args: { command: "for i in 1 2 3; do echo tick$i; sleep 1; done", description: "count" } }] }, { text: "Counted." }]);
    await send(page, "count to three slowly");
    if (narrow) log = await openTerminal(page, narrow);
    await expect(log).toContainText("for i in 1 2 3");
    await expect(log.getByText("running…")).toBeVisible();
    await expect(log).toContainText("tick1");
    await waitIdle(page, id);
    await expect(log).toContainText("tick3");
    await expect(log).toContainText("exit 0");

    // Your own command runs in the same workspace.
    await run(page, "echo hello > note.txt && cat note.txt");
    const mine = log.locator(".terminal-you").last();
    await expect(mine).toContainText("echo hello > note.txt");
    await expect(mine).toContainText("hello");
    await expect(mine).toContainText("exit 0");
    // The log grew; the command line is still in sight, and was when the terminal opened.
    await expect(page.getByRole("textbox", { name: "Command to run in the sandbox" })).toBeInViewport();
    await expect(page.getByRole("region", { name: "Workspace" }).getByRole("button", { name: "note.txt", exact: true })).toBeVisible();

    // A deny rule refuses it in words; nothing is removed.
    await run(page, "rm note.txt");
    await expect(log).toContainText('Not run: bash "rm note.txt" is denied by the rule "rm *".');
    // An ask rule asks, in the permission dialog.
    await run(page, "printf asked");
    const ask = page.getByRole("dialog", { name: "Permission needed" });
    await expect(ask).toContainText("printf asked");
    await ask.getByRole("button", { name: "Allow once" }).click();
    await expect(log.locator(".terminal-you").last()).toContainText("exit 0");
    await expect(log.locator(".terminal-you").last().locator("pre")).toHaveText("asked");

    await shoot(page, `terminal-${size.name}`);
    expect(await seriousAxe(page, ".terminal-section")).toEqual([]);
    await page.emulateMedia({ colorScheme: "dark" });
    await shoot(page, `terminal-${size.name}-dark`);
    expect(await seriousAxe(page, ".terminal-section")).toEqual([]);
    await page.emulateMedia({ colorScheme: "light" });

    // Recorded: after a reload the commands (the model's and yours) are still there, in order.
    await page.reload();
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    const again = await openTerminal(page, narrow);
    await expect(again.locator(".terminal-cmd")).toHaveText([/for i in 1 2 3/, /echo hello > note.txt/, /rm note.txt/, /printf asked/]);
  });
}

test("while the agent works, your terminal command waits (it would land in the agent's step and its undo)", async ({ page, mock }) => {
  await openApp(page);
  await configure(page, mock, "openai-compatible", { permissions: [{ permission: "bash", pattern: "*", action: "allow" }] });
  const id = await newSession(page);
  await openTerminal(page, false);
  mock.setScript([{ text: Array.from({ length: 60 }, (_, i) => `word${i} `), chunkDelayMs: 60 }]);
  await send(page, "take your time");
  await expect(page.getByRole("article").filter({ hasText: "word1" })).toBeVisible();
  const input = page.getByRole("textbox", { name: "Command to run in the sandbox" });
  await input.fill("echo mine");
  await expect(page.getByRole("button", { name: "Run", exact: true })).toBeDisabled();
  await expect(page.getByRole("status").filter({ hasText: "The agent is working in this sandbox" })).toBeVisible();
  await input.press("Enter");
  await waitIdle(page, id);
  // Nothing ran meanwhile; now it can.
  const log = page.getByRole("log", { name: "Terminal output" });
  await expect(log.locator(".terminal-you")).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Run", exact: true })).toBeEnabled();
  await input.press("Enter");
  await expect(log.locator(".terminal-you").last()).toContainText("exit 0");
});
