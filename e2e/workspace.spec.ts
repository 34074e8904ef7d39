import { configure, newSession, openApp, send, storedMessages, waitIdle } from "./app";
import { expect, test } from "./fixtures";

async function openFile(page: import("@playwright/test").Page, name: string) {
  await page.getByRole("region", { name: "Workspace" }).getByRole("button", { name, exact: true }).click();
  const viewer = page.getByRole("dialog", { name: `File ${name}` });
  await expect(viewer).toBeVisible();
  return viewer;
}

test("the model reads, edits and runs commands on real files; the tree shows it; reload keeps it; revert and unrevert", async ({ page, mock }) => {
  await openApp(page);
  await configure(page, mock, "openai-compatible");
  const id = await newSession(page);
  const ws = page.getByRole("region", { name: "Workspace" });

  // "Automatic" is the local sandbox: nothing third-party is contacted (the network fence fails the test otherwise).
  await expect(ws.getByRole("status").first()).toContainText("Local sandbox — chosen automatically; it runs in this tab. WebContainer (Node.js, loaded from stackblitz.com) starts only if you choose it in Settings");

  await ws.getByLabel("Upload files").setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("first upload\n") });
  await expect(ws.getByRole("status").filter({ hasText: "Uploaded notes.txt." })).toHaveText("Uploaded notes.txt.");
  // A second file of the same name replaces the first: said, not done unseen.
  await ws.getByLabel("Upload files").setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("hello world\nsecond line\n") });
  await expect(ws.getByRole("status").filter({ hasText: "Uploaded notes.txt." })).toContainText("Replaced the file already there with the same name: notes.txt.");
  await expect(ws.getByRole("button", { name: "notes.txt", exact: true })).toBeVisible();

  mock.setScript([
    { toolCalls: [{ name: "read", args: { filePath: "/workspace/notes.txt" } }] },
    { toolCalls: [{ name: "edit", args: { filePath: "/workspace/notes.txt", oldString: "hello world", newString: "hello tabcode" } }] },
    { toolCalls: [{ name: "bash", args: { command: "ls && grep -n hello notes.txt | wc -l && echo made > made.txt", description: "list, count, create" } }] },
    { text: "Edited notes.txt and created made.txt." },
  ]);
  await send(page, "Change the greeting");
  await expect(page.getByRole("article").filter({ hasText: "Edited notes.txt and created made.txt." })).toBeVisible();
  await waitIdle(page, id);

  // Tool cards: read, edit (with a diff), bash (with its output).
  await expect(page.getByRole("group", { name: "Tool read: done" })).toBeVisible();
  const edit = page.getByRole("group", { name: "Tool edit: done" });
  // The edit's diff shows while the card is closed: the added line is a row of its own.
  await expect(edit.getByRole("region", { name: /^Diff of / }).getByRole("row").filter({ hasText: "hello tabcode" }).first()).toBeVisible();
  const bash = page.getByRole("group", { name: "Tool bash: done" });
  await bash.getByRole("button").first().click();
  await expect(bash).toContainText("notes.txt");
  const req = mock.modelRequests()[3];
  expect(req?.rawBody).toMatch(/notes\.txt.*\\n1\\n/s);

  // The tree shows the change.
  await expect(ws.getByRole("button", { name: "made.txt", exact: true })).toBeVisible();
  let viewer = await openFile(page, "notes.txt");
  await expect(viewer).toContainText("hello tabcode");
  await viewer.getByRole("button", { name: "Close" }).click();

  // A patch part lists both files, including the one bash made.
  const stored = await storedMessages(page, id);
  expect(stored.flatMap((m) => m.parts).filter((p) => p.type === "patch")).toHaveLength(2);

  // Reload keeps the workspace.
  await page.reload();
  viewer = await openFile(page, "notes.txt");
  await expect(viewer).toContainText("hello tabcode");
  await viewer.getByRole("button", { name: "Close" }).click();

  // Revert the turn: files restored, messages hidden.
  await page.getByRole("article", { name: "Your message" }).hover();
  await page.getByRole("button", { name: "Revert this turn" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Your last message and its answer were reverted, and the files restored." })).toBeVisible();
  await expect(page.getByRole("article")).toHaveCount(0);
  // The button it was pressed on is gone with its message: the keyboard is on Unrevert.
  await expect(page.getByRole("button", { name: "Unrevert" })).toBeFocused();
  await expect(ws.getByRole("button", { name: "made.txt", exact: true })).toHaveCount(0);
  viewer = await openFile(page, "notes.txt");
  await expect(viewer).toContainText("hello world");
  await viewer.getByRole("button", { name: "Close" }).click();

  // Unrevert brings both back (and the keyboard to the message box).
  await page.getByRole("button", { name: "Unrevert" }).click();
  await expect(page.getByRole("article").filter({ hasText: "Edited notes.txt" })).toBeVisible();
  await expect(page.getByRole("textbox", { name: "Message" })).toBeFocused();
  await expect(ws.getByRole("button", { name: "made.txt", exact: true })).toBeVisible();
  viewer = await openFile(page, "notes.txt");
  await expect(viewer).toContainText("hello tabcode");

  // The user changes the model's file after the turn; a revert of the turn undoes that too: said, by name,
  // with a way to keep the user's version.
  await viewer.getByRole("button", { name: "Edit" }).click();
  await viewer.getByRole("textbox", { name: "Contents of notes.txt" }).fill("hello tabcode\nmy own line\n");
  await viewer.getByRole("button", { name: "Save" }).click();
  await expect(viewer.getByRole("status")).toHaveText("Saved notes.txt.");
  await viewer.getByRole("button", { name: "Close" }).click();
  await page.getByRole("article", { name: "Your message" }).hover();
  await page.getByRole("button", { name: "Revert this turn" }).click();
  const banner = page.getByRole("status").filter({ hasText: "Your last message and its answer were reverted" });
  await expect(banner).toContainText("Your own later changes to notes.txt were undone with it.");
  await banner.getByRole("button", { name: "Keep my changes" }).click();
  await expect(banner).toContainText("Your own later changes to notes.txt were kept.");
  await expect(banner.getByRole("button", { name: "Keep my changes" })).toHaveCount(0);
  viewer = await openFile(page, "notes.txt");
  await expect(viewer).toContainText("my own line");
  await viewer.getByRole("button", { name: "Close" }).click();
  // The rest of the revert stands.
  await expect(ws.getByRole("button", { name: "made.txt", exact: true })).toHaveCount(0);
});

test("a runaway command is stopped by the sandbox's limits and the page stays responsive", async ({ page, mock }) => {
  await openApp(page);
  await configure(page, mock, "openai-compatible");
  const id = await newSession(page);
  mock.setScript([{ toolCalls: [{ name: "bash", args: { command: "while true; do :; done", description: "spin forever" } }] }, { text: "The loop was stopped." }]);
  await send(page, "spin");
  // The UI keeps answering while the worker spins.
  await page.getByRole("button", { name: "Settings" }).click();
  await expect(page.getByRole("dialog", { name: "Settings" })).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(page.getByRole("article").filter({ hasText: "The loop was stopped." })).toBeVisible({ timeout: 20_000 });
  await waitIdle(page, id);
  const bash = page.getByRole("group", { name: /Tool bash/ });
  await bash.getByRole("button").first().click();
  await expect(bash).toContainText(/limit|exit code 12[46]|stopped|timed out/i);
});

test("files follow branches: an edited message starts from the files before it, and switching branches switches the files", async ({ page, mock }) => {
  await openApp(page);
  await configure(page, mock, "openai-compatible");
  const id = await newSession(page);
  const ws = page.getByRole("region", { name: "Workspace" });
  const content = async (expected: string) => {
    const viewer = await openFile(page, "app.txt");
    await expect(viewer).toContainText(expected, { timeout: 15_000 });
    await viewer.getByRole("button", { name: "Close" }).click();
  };

  mock.setScript([{ toolCalls: [{ name: "bash", args: { command: "echo first > app.txt", description: "write" } }] }, { text: "Wrote first." }]);
  await send(page, "Write first");
  await waitIdle(page, id);
  await expect(page.getByRole("article").filter({ hasText: "Wrote first." })).toBeVisible({ timeout: 30_000 });
  mock.setScript([{ toolCalls: [{ name: "bash", args: { command: "echo second A > app.txt && echo a > only-a.txt", description: "write" } }] }, { text: "Wrote A." }]);
  await send(page, "Write A");
  await waitIdle(page, id);
  await expect(page.getByRole("article").filter({ hasText: "Wrote A." })).toBeVisible({ timeout: 30_000 });
  await content("second A");

  // Edit "Write A": the new branch starts from the files as "Write first" left them.
  const msg = page.getByRole("article", { name: "Your message" }).filter({ hasText: "Write A" });
  await msg.hover();
  await msg.getByRole("button", { name: "Edit this message" }).click();
  await page.getByRole("textbox", { name: "Edited message" }).fill("Write B");
  mock.setScript([{ toolCalls: [{ name: "bash", args: { command: "cat app.txt && echo second B > app.txt", description: "look and write" } }] }, { text: "Wrote B." }]);
  await page.getByRole("button", { name: "Send as a new branch" }).click();
  await waitIdle(page, id);
  await expect(page.getByRole("article").filter({ hasText: "Wrote B." })).toBeVisible({ timeout: 30_000 });
  const bash = page.getByRole("group", { name: "Tool bash: done" }).last();
  await bash.getByRole("button").first().click();
  await expect(bash).toContainText("first");
  await expect(ws.getByRole("button", { name: "only-a.txt", exact: true })).toHaveCount(0);
  await content("second B");

  // Back to the first branch: its files come back.
  const branches = page.getByRole("navigation", { name: "Branches of this message" });
  await branches.getByRole("button", { name: "Previous branch" }).click();
  await expect(branches).toContainText("1/2");
  await content("second A");
  await expect(ws.getByRole("button", { name: "only-a.txt", exact: true })).toBeVisible({ timeout: 15_000 });
});

test("a tool's output: wrapped on a phone by default, Wrap off lines columns up and scrolls sideways, Copy copies it", async ({ page, context, mock }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await openApp(page);
  await configure(page, mock, "openai-compatible");
  const id = await newSession(page);
  await page.setViewportSize({ width: 390, height: 844 });
  const command = "printf 'name  size  path\\nalpha 12 /workspace/src/a/rather/long/path/to/module/alpha.ts\\n'";
  mock.setScript([{ toolCalls: [{ name: "bash", args: { command, description: "table" } }] }, { text: "Listed." }]);
  await send(page, "show a table");
  await waitIdle(page, id);
  const bash = page.getByRole("group", { name: "Tool bash: done" });
  await bash.getByRole("button", { name: /^bash table/ }).click();
  const wrap = bash.getByRole("button", { name: "Wrap" });
  await expect(wrap).toHaveAttribute("aria-pressed", "true");
  const output = bash.locator("pre").filter({ hasText: /^name {2}size/ });
  const overflows = () => output.evaluate((el) => el.scrollWidth > el.clientWidth + 1);
  expect(await overflows()).toBe(false);
  await wrap.click();
  await expect(wrap).toHaveAttribute("aria-pressed", "false");
  expect(await overflows()).toBe(true);
  await bash.getByRole("button", { name: "Copy the output of bash" }).click();
  await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toContain("alpha 12 /workspace/src/a/rather/long/path/to/module/alpha.ts");
});

test("a cut command output can be downloaded whole from its card", async ({ page, mock }) => {
  const { readFileSync } = await import("node:fs");
  await openApp(page);
  await configure(page, mock, "openai-compatible");
  const id = await newSession(page);
  mock.setScript([{ toolCalls: [{ name: "bash", args: { command: "seq 1 5000", description: "count to 5000" } }] }, { text: "Counted." }]);
  await send(page, "count");
  await waitIdle(page, id);
  const card = page.getByRole("group", { name: /Tool bash/ });
  await card.getByRole("button").first().click();
  await expect(card).toContainText("The full output was saved to");
  const [file] = await Promise.all([page.waitForEvent("download"), card.getByRole("button", { name: "Download the full output" }).click()]);
  const text = readFileSync(await file.path(), "utf8");
  // Every line, as the tool gave it to the model (its exit code last).
  expect(text.startsWith("1\n2\n3\n")).toBe(true);
  expect(text).toContain("\n2500\n2501\n");
  expect(text).toMatch(/\n4999\n5000\n\nExit code: 0$/);
});
