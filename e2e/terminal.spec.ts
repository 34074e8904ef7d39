/**
 * Terminal pane: the model's shell commands and output, live; the person's own commands run in the
 * sandbox under the same permission rules (deny refuses in words, ask opens the permission dialog),
 * recorded per session (still there after a reload; a command cut short by it says so; gone with the
 * session). Stop and Ctrl+C say "stopped"; ↑/↓ recall; several lines run as typed; Copy per command; a long
 * output shows its end, with the whole as a download. Axe and screenshots at both sizes, dark too.
 */
import { readFileSync } from "node:fs";
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

const box = (page: Page) => page.getByRole("textbox", { name: "Command to run in the sandbox" });

async function run(page: Page, command: string) {
  const input = box(page);
  await input.fill(command);
  await input.press("Enter");
}

/** A new session with every command allowed, its terminal open (desktop). */
async function allowedSession(page: Page, mock: Parameters<typeof configure>[1]) {
  await page.setViewportSize({ width: 1400, height: 900 });
  await openApp(page);
  await configure(page, mock, "openai-compatible", { permissions: [{ permission: "bash", pattern: "*", action: "allow" }] });
  const id = await newSession(page);
  const log = await openTerminal(page, false);
  return { id, log, terminal: page.getByRole("region", { name: "Terminal" }) };
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
  mock.setScript([{ text: Array.from({ length: 100 }, (_, i) => `word${i} `), chunkDelayMs: 60 }]);
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

test("a turn sent while your terminal command runs says it waits for that command, until it ends or you stop it", async ({ page, mock }) => {
  test.setTimeout(60_000);
  const { id, log } = await allowedSession(page, mock);
  const waiting = page.getByRole("status").filter({ hasText: "Waiting for your command in the Terminal to end" });

  // The command ends by itself: the wait is said meanwhile, then the turn goes on and its tool sees the command's file.
  await run(page, "sleep 3; echo made > done.txt");
  await expect(log.locator(".terminal-you").last()).toContainText("running");
  mock.setScript([{ toolCalls: [{ name: "bash", args: { command: "cat done.txt", description: "read it" } }] }, { text: "Read the file." }]);
  await send(page, "read done.txt");
  await expect(waiting).toContainText("(sleep 3; echo made > done.txt) — stop it to go on");
  // The turn's own Stop stays there (beside the terminal's Stop of the command).
  await expect(page.getByRole("button", { name: "Stop", description: "Stop (Esc)" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Stop your command" })).toBeVisible();
  await expect(waiting).toHaveCount(0, { timeout: 10_000 });
  await waitIdle(page, id);
  await expect(page.getByRole("article").filter({ hasText: "Read the file." })).toBeVisible();
  await expect(log.locator(".terminal-model").last()).toContainText("made");

  // Stop your command: the wait ends at once and the turn answers.
  await run(page, "sleep 30");
  await expect(log.locator(".terminal-you").last()).toContainText("running");
  mock.setScript([{ text: "Answered after your stop." }]);
  await send(page, "go on");
  await expect(waiting).toContainText("(sleep 30)");
  await page.getByRole("button", { name: "Stop your command" }).click();
  await expect(waiting).toHaveCount(0);
  await waitIdle(page, id);
  await expect(page.getByRole("article").filter({ hasText: "Answered after your stop." })).toBeVisible();
  await expect(log.locator(".terminal-you").last()).toContainText("stopped");
});

test("Stop and Ctrl+C say stopped (no notes for the model, no exit 124); ↑/↓ recall; several lines run as typed; Copy; Clear offers Undo — the keyboard stays in the box", async ({ page, mock, context }) => {
  test.setTimeout(90_000);
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const { log, terminal } = await allowedSession(page, mock);
  const input = box(page);
  const mine = log.locator(".terminal-you").last();
  const status = mine.locator(".terminal-status");

  await run(page, "echo started; sleep 30");
  await expect(status).toHaveText("running…");
  await terminal.getByRole("button", { name: "Stop", exact: true }).click();
  await expect(status).toHaveText("stopped");
  await expect(status).not.toHaveClass(/failed/);
  await expect(mine).not.toContainText("bash_metadata");
  await expect(mine).not.toContainText("aborted");
  await expect(mine).not.toContainText("124");
  await expect(input).toBeFocused();

  // Ctrl+C with text selected in the box copies it, and the command runs on; with none it stops the command.
  await expect(input).toHaveAccessibleDescription(/Ctrl\+C stops a running one/);
  await run(page, "sleep 30");
  await expect(status).toHaveText("running…");
  await input.fill("echo copied");
  await input.press("Control+a");
  await input.press("Control+c");
  await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe("echo copied");
  await expect(status).toHaveText("running…");
  await input.press("End");
  await input.press("Control+c");
  await expect(status).toHaveText("stopped");
  await expect(input).toHaveValue("echo copied");

  // ↑ goes back through your commands, newest first; ↓ comes forward and back to what you were typing.
  await run(page, "echo one");
  await expect(status).toHaveText("exit 0");
  await run(page, "echo two");
  await expect(mine).toContainText("echo two");
  await expect(status).toHaveText("exit 0");
  await input.fill("ec");
  await input.press("ArrowUp");
  await expect(input).toHaveValue("echo two");
  await input.press("ArrowUp");
  await expect(input).toHaveValue("echo one");
  await input.press("ArrowDown");
  await expect(input).toHaveValue("echo two");
  await input.press("ArrowDown");
  await expect(input).toHaveValue("ec");

  // Shift+Enter adds a line (the box grows); a pasted script keeps its lines.
  await input.fill("echo x");
  const oneLine = (await input.boundingBox())?.height ?? 0;
  await input.press("Shift+Enter");
  await input.pressSequentially("echo y");
  expect((await input.boundingBox())?.height ?? 0).toBeGreaterThan(oneLine + 8);
  await input.press("Enter");
  await expect(mine.locator("pre")).toHaveText("x\ny");
  await expect(input).toHaveValue("");
  await input.focus();
  await page.keyboard.insertText('for w in a b; do\n  echo "[$w]"\ndone');
  await input.press("Enter");
  await expect(mine.locator("pre")).toHaveText("[a]\n[b]");
  // Recalled, a script of several lines: ↑ from its last line moves the caret, it recalls nothing.
  await input.press("ArrowUp");
  await expect(input).toHaveValue('for w in a b; do\n  echo "[$w]"\ndone');
  await input.press("ArrowUp");
  await expect(input).toHaveValue('for w in a b; do\n  echo "[$w]"\ndone');
  await input.fill("");

  // Copy: the command and its output.
  const copy = log.getByRole("button", { name: "Copy “echo one” and its output" });
  await copy.click();
  await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe("$ echo one\none");
  await expect(copy).toHaveText("Copy");

  await shoot(page, "terminal-desktop-keys");
  expect(await seriousAxe(page, ".terminal-section")).toEqual([]);

  // Clear: taken back by Undo; the keyboard stays in the box both times.
  const count = await log.locator(".terminal-you").count();
  await terminal.getByRole("button", { name: "Clear your commands" }).click();
  await expect(input).toBeFocused();
  await expect(log.locator(".terminal-you")).toHaveCount(0);
  await expect(terminal.getByRole("status").filter({ hasText: `Cleared ${count} commands.` })).toBeVisible();
  await terminal.getByRole("button", { name: "Undo clearing your commands" }).click();
  await expect(input).toBeFocused();
  await expect(log.locator(".terminal-you")).toHaveCount(count);
});

test("a long output shows its start and its end, the whole as a download (nothing written to the workspace); a command cut short by a reload says so", async ({ page, mock }) => {
  test.setTimeout(90_000);
  const { id, log } = await allowedSession(page, mock);
  const mine = log.locator(".terminal-you").last();
  await run(page, "seq 1 5000");
  await expect(mine.locator(".terminal-status")).toHaveText("exit 0");
  const out = (await mine.locator("pre").textContent()) ?? "";
  expect(out.startsWith("1\n2\n")).toBe(true);
  expect(out).toContain("\n200\n… 3,000 lines not shown …\n3201\n");
  expect(out.endsWith("\n5000")).toBe(true);
  expect(out).not.toMatch(/truncated|saved to|grep|offset/);
  const [file] = await Promise.all([page.waitForEvent("download"), mine.getByRole("button", { name: "Download the full output of “seq 1 5000”" }).click()]);
  const whole = readFileSync(await file.path(), "utf8").split("\n");
  expect(whole).toHaveLength(5000);
  expect(whole.at(-1)).toBe("5000");
  // No hidden file in the workspace, and the log in storage holds the cut, not the whole.
  const hidden = await page.evaluate(async (id) => {
    const t = (globalThis as unknown as { __tabcode: { sandbox: { sandboxFor(id: string): Promise<{ fs: { exists(p: string): Promise<boolean> } }> } } }).__tabcode;
    return (await t.sandbox.sandboxFor(id)).fs.exists("/workspace/.tabcode/tool-output");
  }, id);
  expect(hidden).toBe(false);
  const stored = (await page.evaluate((id) => localStorage.getItem(`tabcode.terminal.${id}`), id)) ?? "";
  expect(stored).toContain("5000");
  expect(stored).not.toContain("\\n2500\\n");
  await shoot(page, "terminal-desktop-long");
  await mine.locator(".terminal-omitted").scrollIntoViewIfNeeded();
  await shoot(page, "terminal-desktop-long-cut");

  // A command running when the page reloads is kept, as cut short.
  await run(page, "sleep 30");
  await expect(mine.locator(".terminal-status")).toHaveText("running…");
  await page.reload();
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  const again = await openTerminal(page, false);
  const cut = again.locator(".terminal-you").last();
  await expect(cut).toContainText("sleep 30");
  await expect(cut.locator(".terminal-status")).toHaveText("stopped by a reload");
  await expect(cut.locator(".terminal-status")).not.toHaveClass(/failed/);
  // The whole output was this page's only: the reloaded log shows the cut, with no download.
  const long = again.locator(".terminal-you").filter({ hasText: "seq 1 5000" });
  await expect(long).toContainText("… 3,000 lines not shown …");
  await expect(long.getByRole("button", { name: /Download/ })).toHaveCount(0);
});

test("a deleted session's terminal log stays while Undo is offered and goes when the delete is final; a start-up sweeps logs of sessions that no longer exist", async ({ page, mock }) => {
  test.setTimeout(60_000);
  const { id, log } = await allowedSession(page, mock);
  const key = `tabcode.terminal.${id}`;
  const stored = () => page.evaluate((key) => localStorage.getItem(key), key);
  await run(page, "echo secret-token-123");
  await expect(log.locator(".terminal-you").last()).toContainText("exit 0");
  expect(await stored()).toContain("secret-token-123");
  const nav = page.getByRole("navigation", { name: "Sessions" });
  const remove = async () => {
    await nav.getByRole("button", { name: /^Delete / }).first().click();
    await page.getByRole("dialog", { name: "Delete this session?" }).getByRole("button", { name: "Delete" }).click();
    return page.getByRole("status").filter({ hasText: "Deleted" });
  };
  await (await remove()).getByRole("button", { name: "Undo" }).click();
  await expect(page).toHaveURL(new RegExp(`#/s/${id}`));
  expect(await stored()).toContain("secret-token-123");
  await expect((await openTerminal(page, false)).locator(".terminal-you")).toContainText("echo secret-token-123");
  await (await remove()).getByRole("button", { name: "Dismiss" }).click();
  await expect.poll(stored).toBeNull();

  // Left by an older version: swept when the next page is idle after start-up.
  await page.evaluate(() => localStorage.setItem("tabcode.terminal.ses_orphan", JSON.stringify([{ id: "cmd_1", command: "export KEY=x", start: 1, status: "done", output: "" }])));
  await page.reload();
  await expect(page.getByRole("navigation", { name: "Sessions" })).toBeVisible();
  await expect.poll(() => page.evaluate(() => localStorage.getItem("tabcode.terminal.ses_orphan"))).toBeNull();
});

test.describe("touch phone (390×844)", () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

  test("after tapping Run the command box stays in sight as the output grows; 16 px box; controls at least 24 px", async ({ page, mock }) => {
    test.setTimeout(90_000);
    await page.goto("/");
    await page.waitForFunction(() => Boolean((globalThis as unknown as { __tabcode?: unknown }).__tabcode));
    await configure(page, mock, "openai-compatible", { permissions: [{ permission: "bash", pattern: "*", action: "allow" }] });
    const id = await page.evaluate(async () => (await (globalThis as unknown as { __tabcode: { sessions: { createSession(): Promise<{ id: string }> } } }).__tabcode.sessions.createSession()).id);
    await page.goto(`/#/s/${id}`);
    const log = await openTerminal(page, true);
    const input = box(page);
    const terminal = page.getByRole("region", { name: "Terminal" });
    const you = log.locator(".terminal-you");
    // iOS Safari does not focus a tapped button: the box, left without focus, is kept in sight as the log grows.
    await input.fill("for i in $(seq 1 60); do echo line $i; sleep 0.02; done");
    await input.blur();
    await terminal.getByRole("button", { name: "Run", exact: true }).evaluate((b: HTMLButtonElement) => b.click());
    await expect(you.last().locator(".terminal-status")).toHaveText("exit 0");
    await expect(input).toBeInViewport();
    // The log empty again (Clear, which gives the keyboard back to the box), a tap on Run, a long output.
    await terminal.getByRole("button", { name: "Clear your commands" }).tap();
    await expect(input).toBeFocused();
    await input.fill("seq 1 3000");
    await terminal.getByRole("button", { name: "Run", exact: true }).tap();
    await expect(you.last()).toContainText("lines not shown");
    await expect(input).toBeInViewport();
    expect(await input.evaluate((el) => Number.parseFloat(getComputedStyle(el).fontSize))).toBeGreaterThanOrEqual(16);
    const small = await page.locator(".terminal-section").locator("button, textarea").evaluateAll((els) =>
      els
        .map((e) => ({ e, r: e.getBoundingClientRect() }))
        .filter(({ r }) => r.width > 0 && r.height > 0 && r.height < 24)
        .map(({ e, r }) => `${e.tagName} "${(e.getAttribute("aria-label") || e.textContent || "").trim().slice(0, 40)}" ${Math.round(r.height)} px`),
    );
    expect(small).toEqual([]);
    await shoot(page, "terminal-phone-touch");
    expect(await seriousAxe(page, ".terminal-section")).toEqual([]);
  });
});
