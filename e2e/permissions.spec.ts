import { configure, newSession, openApp, send, storedMessages, waitIdle } from "./app";
import { expect, test } from "./fixtures";

async function writeFile(page: import("@playwright/test").Page, sessionID: string, path: string, text: string) {
  await page.evaluate(
    async ({ sessionID, path, text }) => {
      const t = (globalThis as unknown as { __tabcode: { sandbox: { sandboxFor(id: string): Promise<{ fs: { writeFile(p: string, d: string): Promise<void> } }> } } }).__tabcode;
      const sb = await t.sandbox.sandboxFor(sessionID);
      await sb.fs.writeFile(path, text);
    },
    { sessionID, path, text },
  );
}

test("bash asks: once, always (arity prefix), reject with feedback; a denied rm never runs", async ({ page, mock }) => {
  await openApp(page);
  await configure(page, mock, "openai-compatible", {
    permissions: [
      { permission: "bash", pattern: "*", action: "ask" },
      { permission: "bash", pattern: "rm *", action: "deny" },
    ],
  });
  const id = await newSession(page);
  await writeFile(page, id, "/workspace/keep.txt", "precious\n");
  mock.setScript([
    { toolCalls: [{ name: "bash", args: { command: "ls", description: "list files" } }] },
    { toolCalls: [{ name: "bash", args: { command: "git status --short", description: "status" } }] },
    { toolCalls: [{ name: "bash", args: { command: "git status", description: "status again" } }] },
    { toolCalls: [{ name: "bash", args: { command: "cat keep.txt", description: "show file" } }] },
    { toolCalls: [{ name: "bash", args: { command: "echo bye && rm -f keep.txt", description: "remove" } }] },
    { text: "All done." },
  ]);
  await send(page, "do things");

  const dialog = page.getByRole("dialog", { name: "Permission needed" });
  await expect(dialog).toContainText("ls");
  // The tool is named once; focus is on the dialog itself, not in the feedback field (a phone's keyboard
  // would cover the buttons) nor on a button. Esc leaves the question open, however often it is pressed.
  await expect(dialog.getByText("Allow bash?", { exact: true })).toBeVisible();
  await expect(dialog).toBeFocused();
  for (let i = 0; i < 3; i++) await page.keyboard.press("Escape");
  await expect(dialog).toBeVisible();
  await dialog.getByRole("button", { name: "Allow once" }).click();

  await expect(dialog).toContainText("git status --short");
  await expect(dialog).toBeFocused();
  // What Always allow covers is in view, and is the button's description.
  const always = dialog.getByRole("button", { name: "Always allow" });
  await expect(dialog.getByText("Always allow covers “git status *” for the rest of this session.")).toBeVisible();
  await expect(always).toHaveAccessibleDescription("Always allow covers “git status *” for the rest of this session.");
  await always.click();
  // "git status" is now allowed by the stored prefix "git status *": no question. Next comes cat.
  await expect(dialog).toContainText("cat keep.txt");
  await dialog.getByRole("textbox", { name: /Feedback for the model/ }).fill("use the read tool instead");
  await dialog.getByRole("button", { name: "Reject with feedback" }).click();

  await expect(page.getByRole("article").filter({ hasText: "All done." })).toBeVisible();
  await waitIdle(page, id);
  // Many steps, one question: one Regenerate, under the last step.
  await expect(page.getByRole("button", { name: "Regenerate" })).toHaveCount(1);
  await expect(page.getByRole("article").filter({ hasText: "All done." }).getByRole("button", { name: "Regenerate" })).toHaveCount(1);

  const tools = (await storedMessages(page, id)).flatMap((m) => m.parts).filter((p) => p.type === "tool");
  expect(tools.map((t) => t.status)).toEqual(["completed", "completed", "completed", "error", "error"]);
  const rawSent = mock.modelRequests().map((r) => r.rawBody).join("\n");
  expect(rawSent).toContain("use the read tool instead");
  expect(rawSent).toMatch(/forbids this call/);
  const exists = await page.evaluate(async (id) => {
    const t = (globalThis as unknown as { __tabcode: { sandbox: { sandboxFor(id: string): Promise<{ fs: { exists(p: string): Promise<boolean> } }> } } }).__tabcode;
    return (await t.sandbox.sandboxFor(id)).fs.exists("/workspace/keep.txt");
  }, id);
  expect(exists).toBe(true);

  // Every decision is logged with what decided it.
  await page.getByRole("button", { name: "Permissions" }).click();
  const log = page.getByRole("dialog", { name: "Permissions of this session" });
  await expect(log.getByRole("row")).toHaveCount(6);
  await expect(log).toContainText("rm -f keep.txt");
  await expect(log).toContainText("with feedback");
});

test("a command a script runs is asked about with the line that runs it; a reload while a question waits says the call did not run", async ({ page, mock }) => {
  await openApp(page);
  await configure(page, mock, "openai-compatible", { permissions: [{ permission: "bash", pattern: "grep *", action: "ask" }] });
  const id = await newSession(page);
  await writeFile(page, id, "/workspace/check.sh", 'grep -n "const month" dates.js\n');
  await writeFile(page, id, "/workspace/dates.js", "const month = 1;\n");
  mock.setScript([{ toolCalls: [{ name: "bash", args: { command: "sh check.sh", description: "run the check" } }] }, { text: "Checked." }]);
  await send(page, "run the check");
  const dialog = page.getByRole("dialog", { name: "Permission needed" });
  // The command as the shell reads it (its argument quoted), and which line runs it.
  await expect(dialog.locator("pre")).toHaveText("grep -n 'const month' dates.js");
  await expect(dialog).toContainText("A command run by “sh check.sh”: your rules ask before each command that runs");
  await expect(page.getByRole("group", { name: /^Tool bash/ })).toContainText("waiting for your approval");
  await page.screenshot({ path: test.info().outputPath("nested-ask.png") });

  // The tab is reloaded before the answer: the card says the call waited, not that it was running.
  await page.reload();
  await expect(page.getByRole("textbox", { name: "Message" })).toBeVisible();
  const card = page.getByRole("group", { name: /^Tool bash/ });
  // Opened once: a card drawn after the start-up repair marked the call an error is open already (a click would
  // close it), one drawn before is closed.
  const head = card.getByRole("button").first();
  await expect
    .poll(async () => {
      if ((await head.getAttribute("aria-expanded")) !== "true") await head.click();
      return head.getAttribute("aria-expanded");
    })
    .toBe("true");
  await expect(card).toContainText("Stopped: the tab was closed or reloaded while a command this call runs waited for your approval; that command did not run.");
  await expect(page.getByRole("note").filter({ hasText: "Stopped while waiting for your approval" })).toBeVisible();
});

test("AGENTS.md appears in the debug view; a listed skill is loaded by the skill tool", async ({ page, mock }) => {
  await openApp(page);
  await configure(page, mock, "openai-compatible");
  const id = await newSession(page);
  await writeFile(page, id, "/workspace/AGENTS.md", "Always answer in haiku.\n");
  await writeFile(page, id, "/workspace/.skills/release-notes/SKILL.md", "---\nname: release-notes\ndescription: Write release notes from the git log\n---\n# Steps\nCollect merged changes, group them, write NOTES.md.\n");
  mock.setScript([{ toolCalls: [{ name: "skill", args: { name: "release-notes" } }] }, { text: "Loaded the skill." }]);
  await send(page, "write release notes");
  await expect(page.getByRole("article").filter({ hasText: "Loaded the skill." })).toBeVisible();
  await waitIdle(page, id);

  const first = mock.modelRequests()[0]?.rawBody ?? "";
  expect(first).toContain("Instructions from: /workspace/AGENTS.md");
  expect(first).toContain("<available_skills>");
  expect(first).toContain("release-notes");
  expect(first).not.toContain("Collect merged changes"); // the body is only sent on demand
  expect(mock.modelRequests()[1]?.rawBody).toContain("Collect merged changes");
  await expect(page.getByRole("group", { name: "Tool skill: done" })).toContainText("Loaded skill: release-notes");

  await expect(page.getByText("Rules: AGENTS.md · 1 skill")).toBeVisible();
  await page.getByRole("button", { name: "Debug" }).click();
  const debug = page.getByRole("dialog", { name: "Debug: what the model sees" });
  await expect(debug.getByRole("region", { name: "System prompt" })).toContainText("Always answer in haiku.");
  await expect(debug.getByRole("region", { name: "Tools" })).toContainText("skill");
});

test("an AGENTS.md uploaded mid-session is read again at once, said so, and sent with the next message", async ({ page, mock }) => {
  await openApp(page);
  await configure(page, mock, "openai-compatible");
  const id = await newSession(page);
  mock.setScript([{ text: "First answer." }, { text: "Second answer." }]);
  await send(page, "hello");
  await expect(page.getByRole("article").filter({ hasText: "First answer." })).toBeVisible();
  await waitIdle(page, id);
  await expect(page.getByText("No rules files · 0 skills")).toBeVisible();
  await page.getByRole("region", { name: "Workspace" }).getByLabel("Upload files").setInputFiles({ name: "AGENTS.md", mimeType: "text/markdown", buffer: Buffer.from("Always answer in haiku.\n") });
  await expect(page.getByRole("status").filter({ hasText: "AGENTS.md changed: rules read again for the next message." })).toBeVisible();
  await expect(page.getByText("Rules: AGENTS.md · 0 skills")).toBeVisible();
  await send(page, "again");
  await expect(page.getByRole("article").filter({ hasText: "Second answer." })).toBeVisible();
  expect(mock.modelRequests().at(-1)?.rawBody).toContain("Always answer in haiku.");
});

test("plan agent: read-only, edits outside plan files are denied, the agent is recorded", async ({ page, mock }) => {
  await openApp(page);
  await configure(page, mock, "openai-compatible");
  const id = await newSession(page);
  mock.setScript([
    { toolCalls: [{ name: "write", args: { filePath: "/workspace/src/app.ts", content: "x" } }] },
    { toolCalls: [{ name: "write", args: { filePath: "/workspace/.tabcode/plans/refactor.md", content: "# Plan" } }] },
    { text: "Here is a plan." },
  ]);
  const box = page.getByRole("textbox", { name: "Message" });
  await box.focus();
  await page.keyboard.press("Control+Period");
  await expect(page.getByRole("combobox", { name: "Agent" })).toHaveValue("plan");
  await send(page, "plan the refactor");
  await expect(page.getByRole("article").filter({ hasText: "Here is a plan." })).toBeVisible();
  await waitIdle(page, id);
  expect(mock.modelRequests()[0]?.rawBody).toMatch(/plan mode/i);
  const stored = await storedMessages(page, id);
  const tools = stored.flatMap((m) => m.parts).filter((p) => p.type === "tool");
  expect(tools.map((t) => t.status)).toEqual(["error", "completed"]);
  const agents = await page.evaluate(async (id) => {
    const t = (globalThis as unknown as { __tabcode: { store: { messages(id: string): Promise<{ info: { agent?: string } }[]> } } }).__tabcode;
    return (await t.store.messages(id)).map((m) => m.info.agent);
  }, id);
  expect(new Set(agents)).toEqual(new Set(["plan"]));
});
