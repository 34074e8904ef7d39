import { readFileSync } from "node:fs";
import { configure, newSession, openApp, send, storedMessages, waitIdle } from "./app";
import { expect, test } from "./fixtures";

const KEY = "sk-test-e2e-key-123456";

async function conversation(page: import("@playwright/test").Page, mock: import("./fixtures").MockOpenAI) {
  mock.setScript([{ text: "First answer about apples." }, { text: "Second answer about bananas." }]);
  await openApp(page);
  await configure(page, mock, "openai-compatible");
  const id = await newSession(page);
  await send(page, "Tell me about apples");
  await expect(page.getByRole("article").filter({ hasText: "First answer about apples." })).toBeVisible();
  await waitIdle(page, id);
  await send(page, "And bananas?");
  await expect(page.getByRole("article").filter({ hasText: "Second answer about bananas." })).toBeVisible();
  await waitIdle(page, id);
  return id;
}

test("fork from an answer that used tools takes the whole answer, its last words included", async ({ page, mock }) => {
  mock.setScript([{ toolCalls: [{ name: "bash", args: { command: "echo first > a.txt", description: "write" } }] }, { text: "Wrote first." }]);
  await openApp(page);
  await configure(page, mock, "openai-compatible");
  const id = await newSession(page);
  await send(page, "Write a file");
  await expect(page.getByRole("article").filter({ hasText: "Wrote first." })).toBeVisible();
  await waitIdle(page, id);
  // The answer's header (and its Fork) is on its first step, the tool call.
  const first = page.getByRole("article", { name: "Assistant message" }).filter({ has: page.getByRole("group", { name: /Tool bash/ }) });
  await first.hover();
  await first.getByRole("button", { name: "Fork from this message" }).click();
  await expect(page).not.toHaveURL(new RegExp(id));
  await expect(page.getByRole("heading", { level: 1 })).toContainText("(fork #1)");
  await expect(page.getByRole("article").filter({ hasText: "Wrote first." })).toBeVisible();
});

test("fork from an assistant message, then continue both sessions", async ({ page, mock }) => {
  const original = await conversation(page, mock);
  const answer = page.getByRole("article", { name: "Assistant message" }).filter({ hasText: "apples" });
  await answer.hover();
  await answer.getByRole("button", { name: "Fork from this message" }).click();
  await expect(page).not.toHaveURL(new RegExp(original));
  const forked = new URL(page.url()).hash.replace("#/s/", "");
  await expect(page.getByRole("heading", { level: 1 })).toContainText("(fork #1)");
  await expect(page.getByRole("article")).toHaveCount(2);
  await expect(page.getByText("Forked from")).toBeVisible();

  mock.setScript([{ text: "Fork continues with cherries." }]);
  await send(page, "What about cherries?");
  await expect(page.getByRole("article").filter({ hasText: "Fork continues with cherries." })).toBeVisible();
  await waitIdle(page, forked);

  await page.getByRole("link", { name: "the original session" }).click();
  await expect(page).toHaveURL(new RegExp(original));
  mock.setScript([{ text: "Original continues with dates." }]);
  await send(page, "And dates?");
  await expect(page.getByRole("article").filter({ hasText: "Original continues with dates." })).toBeVisible();
  await waitIdle(page, original);
  expect((await storedMessages(page, original)).length).toBe(6);
  expect((await storedMessages(page, forked)).length).toBe(4);
});

test("export JSON, delete, import: identical content; the export holds no API key", async ({ page, mock }) => {
  const id = await conversation(page, mock);
  const before = await storedMessages(page, id);
  await page.getByRole("button", { name: "Export", exact: true }).click();
  const [file] = await Promise.all([page.waitForEvent("download"), page.getByRole("menuitem", { name: "JSON", exact: true }).click()]);
  const path = await file.path();
  const text = readFileSync(path, "utf8");
  expect(text).not.toContain(KEY);
  expect(text).not.toContain("apiKey");
  expect(JSON.parse(text).format).toBe("tabcode-session");

  for (const kind of ["Markdown", "Markdown (conversation only)", "HTML"]) {
    await page.getByRole("button", { name: "Export", exact: true }).click();
    const [d] = await Promise.all([page.waitForEvent("download"), page.getByRole("menuitem", { name: kind, exact: true }).click()]);
    const body = readFileSync(await d.path(), "utf8");
    expect(body).toContain("bananas");
    expect(body).not.toContain(KEY);
    if (kind === "HTML") expect(body).not.toMatch(/<script/i);
  }

  const nav = page.getByRole("navigation", { name: "Sessions" });
  await nav.getByRole("button", { name: /^Delete / }).first().click();
  await page.getByRole("dialog", { name: "Delete this session?" }).getByRole("button", { name: "Delete" }).click();
  await expect(nav.locator(".session-link")).toHaveCount(0);

  await nav.getByLabel("Import").setInputFiles(path);
  await expect(page.getByRole("status").filter({ hasText: "Imported 1 session" })).toBeVisible();
  await expect(page).toHaveURL(new RegExp(id));
  await expect(page.getByRole("article")).toHaveCount(4);
  expect(await storedMessages(page, id)).toEqual(before);

  // Importing the same file again makes a copy instead of overwriting.
  await nav.getByLabel("Import").setInputFiles(path);
  await expect(page.getByRole("status").filter({ hasText: "as a copy" })).toBeVisible();
  await expect(nav.locator(".session-link")).toHaveCount(2);
  // Import history says the same of the copy it makes.
  await nav.getByRole("button", { name: "Import history" }).click();
  const history = page.getByRole("dialog", { name: "Import history" });
  await history.getByLabel("Choose files").setInputFiles({ name: "session.json", mimeType: "application/json", buffer: Buffer.from(text) });
  await expect(history.getByRole("status")).toHaveText("1 imported (1 as a copy: the original is already here).");
  await history.getByRole("button", { name: "Close" }).click();
});

test("imports an OpenCode export file and rejects a broken one with a specific reason", async ({ page }) => {
  await openApp(page);
  const nav = page.getByRole("navigation", { name: "Sessions" });
  await nav.getByLabel("Import").setInputFiles("e2e/fixtures/opencode-export.json");
  await expect(page.getByRole("status").filter({ hasText: "Imported 1 session" })).toBeVisible();
  await expect(page.getByRole("article").first()).toBeVisible();
  // Its workspace states stayed on the machine it ran on: the turn's changes come from the recorded edit.
  await page.getByRole("button", { name: "Changes of this turn" }).first().click();
  const changes = page.getByRole("dialog", { name: "Changes of this turn" });
  await expect(changes).toContainText("The files of this point are not in this browser (the session came from an export or a share): shown from the edit recorded in the conversation.");
  await expect(changes.getByRole("region", { name: /^Diff of / })).toContainText("return a + b;");
  await changes.getByRole("button", { name: "Close" }).click();

  await nav.getByLabel("Import").setInputFiles({ name: "broken.json", mimeType: "application/json", buffer: Buffer.from('{"info": {"id": 5}, "messages": [') });
  await expect(page.getByRole("alert").filter({ hasText: "Could not import broken.json" })).toBeVisible();
  // A file that is no export at all is told so, with what Import takes.
  await nav.getByLabel("Import").setInputFiles({ name: "package.json", mimeType: "application/json", buffer: Buffer.from('{"name": "my-app", "version": "1.0.0"}') });
  const notExport = page.getByRole("alert").filter({ hasText: "Could not import package.json" });
  await expect(notExport).toContainText("This file is not a tabcode or OpenCode session export. Import takes tabcode and OpenCode exports;");
  await expect(notExport).toContainText("use Import history.");

  // Another agent's transcript picked through Import file goes to Import history, which reads it.
  await nav.getByLabel("Import").setInputFiles([
    "src/core/import/__fixtures__/codex/rollout-2025-11-04T10-00-00-019a4e2c-1b2a-7c3d-9e8f-0a1b2c3d4e5f.jsonl",
    "src/core/import/__fixtures__/gemini/session-2025-09-12T14-00-b7e1c2d3.json",
  ]);
  const history = page.getByRole("dialog", { name: "Import history" });
  await expect(history.getByRole("status")).toContainText("2 imported");
  await history.getByRole("button", { name: "Close" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Could not import rollout" })).toHaveCount(0);
});

test("a share link opens the session read-only in a fresh browser, with Save a copy", async ({ page, mock, freshContext }) => {
  await conversation(page, mock);
  await page.getByRole("button", { name: "Share" }).click();
  const dialog = page.getByRole("dialog", { name: "Share this session" });
  await dialog.getByRole("button", { name: "Create link" }).click();
  const url = await dialog.getByRole("textbox", { name: "Share link" }).inputValue();
  expect(url).toContain("/#/share/");
  expect(url).not.toContain(KEY);
  // The link carries no files, and says so.
  await expect(dialog).toContainText("The workspace's files are not in the link");

  const fresh = await freshContext();
  const other = await fresh.newPage();
  await other.goto(url);
  await expect(other.getByText("Shared session · read-only")).toBeVisible();
  await expect(other.getByRole("article").filter({ hasText: "Second answer about bananas." })).toBeVisible();
  await expect(other.getByRole("textbox", { name: "Message" })).toHaveCount(0);
  // Replay is an address of its own (Back leaves it, not the link), and its X-ray counts with the model that
  // answered (gpt-4o-mini's 128k window), not with this browser's demo model.
  await other.getByRole("button", { name: "Replay" }).click();
  await expect(other).toHaveURL(/\/replay$/);
  const xray = other.getByRole("complementary", { name: "What the model saw" });
  await expect(xray).toContainText("window 128k");
  await expect(xray).not.toContainText("next request is");
  await other.goBack();
  await expect(other.getByText("Shared session · read-only")).toBeVisible();
  expect(other.url()).not.toContain("/replay");
  await expect(other.getByText("A share link carries the conversation, not the workspace's files")).toBeVisible();
  await other.getByRole("button", { name: "Save a copy" }).click();
  await expect(other).toHaveURL(/#\/s\/ses_/);
  await expect(other.getByRole("textbox", { name: "Message" })).toBeVisible();
  await expect(other.getByRole("navigation", { name: "Sessions" }).locator(".session-link")).toHaveCount(1);
  await fresh.close();
});

test("two tabs on one session never both run it: the other tab watches, and a message sent there is answered by the running tab", async ({ page, mock, context }) => {
  // Two pages and a 6 s answer: more than the default 30 s on a loaded 2-core machine.
  test.slow();
  await openApp(page);
  await configure(page, mock, "openai-compatible");
  const id = await newSession(page);
  const second = await context.newPage();
  await second.goto(`/#/s/${id}`);
  await expect(second.getByRole("textbox", { name: "Message" })).toBeVisible();

  // The first answer streams for about 6 s: long enough that the other tab's message is sent while it runs, even on a slow machine.
  mock.setScript([{ text: Array.from({ length: 150 }, (_, i) => `x${i}`).join(" "), chunkDelayMs: 40 }, { text: "Answered the second tab." }]);
  await send(page, "run here");
  await expect(page.getByRole("article").filter({ hasText: "x3 " })).toBeVisible();
  // The other tab shows the run live and says where it runs.
  await expect(second.getByRole("article").filter({ hasText: "run here" })).toBeVisible();
  await expect(second.getByText("Running in another tab")).toBeVisible();
  await expect(second.getByRole("textbox", { name: "Message" })).toHaveAttribute("placeholder", /running in another tab.*answered there/);
  // A message sent from the watching tab is queued, not dropped: the running tab answers it after its turn.
  await send(second, "and this from the other tab");
  await expect(second.getByText("1 queued")).toBeVisible();
  await expect(second.getByRole("article").filter({ hasText: "x149" })).toBeVisible({ timeout: 15_000 });
  for (const p of [page, second]) await expect(p.getByRole("article").filter({ hasText: "Answered the second tab." })).toBeVisible({ timeout: 15_000 });
  await waitIdle(page, id);
  await expect(second.getByText("Running in another tab")).toHaveCount(0);
  await expect(second.getByText("1 queued")).toHaveCount(0);
  // Two requests, one per turn, the second carrying both prompts: one run, never two at once.
  const chats = mock.modelRequests();
  expect(chats).toHaveLength(2);
  expect(JSON.stringify(chats[1]?.body)).toContain("run here");
  expect(JSON.stringify(chats[1]?.body)).toContain("and this from the other tab");
  expect((await storedMessages(page, id)).map((m) => m.role).join(",")).toBe("user,assistant,user,assistant");
});

test("editing an earlier message makes a branch; switching shows each branch with its own continuation", async ({ page, mock }) => {
  const id = await conversation(page, mock);
  const bananas = page.getByRole("article", { name: "Your message" }).filter({ hasText: "And bananas?" });
  await bananas.hover();
  const edit = bananas.getByRole("button", { name: "Edit this message" });
  await edit.click();
  // The box takes focus with the caret after the text (one tap on a phone); Esc cancels and gives focus back to Edit.
  const box = page.getByRole("textbox", { name: "Edited message" });
  await expect(box).toBeFocused();
  expect(await box.evaluate((el: HTMLTextAreaElement) => [el.selectionStart, el.selectionEnd, el.value.length])).toEqual([12, 12, 12]);
  await page.keyboard.press("Escape");
  await expect(box).toHaveCount(0);
  await expect(edit).toBeFocused();
  await edit.click();
  await box.fill("And cherries instead?");
  mock.setScript([{ text: "Answer about cherries." }]);
  await page.getByRole("button", { name: "Send as a new branch" }).click();
  // The edited message goes to its branch: the keyboard is in the message box, not lost to the page.
  await expect(page.getByRole("textbox", { name: "Message" })).toBeFocused();
  await expect(page.getByRole("article").filter({ hasText: "Answer about cherries." })).toBeVisible();
  await waitIdle(page, id);
  // The model saw the new branch only.
  const sent = mock.modelRequests().at(-1)?.rawBody ?? "";
  expect(sent).toContain("And cherries instead?");
  expect(sent).not.toContain("bananas");

  const branches = page.getByRole("navigation", { name: "Branches of this message" });
  await expect(branches).toContainText("2/2");
  await expect(page.getByRole("article").filter({ hasText: "Second answer about bananas." })).toHaveCount(0);
  await branches.getByRole("button", { name: "Previous branch" }).click();
  await expect(branches).toContainText("1/2");
  await expect(page.getByRole("article").filter({ hasText: "Second answer about bananas." })).toBeVisible();
  // The switch pressed went away with its message; the sibling's switch has the keyboard (Previous is disabled
  // at 1/2, so Next).
  await expect(branches.getByRole("button", { name: "Next branch" })).toBeFocused();
  await expect(page.getByRole("article").filter({ hasText: "Answer about cherries." })).toHaveCount(0);

  // Continue the first branch; the second keeps its own continuation.
  mock.setScript([{ text: "More about bananas." }]);
  await send(page, "Tell me more");
  await expect(page.getByRole("article").filter({ hasText: "More about bananas." })).toBeVisible();
  await waitIdle(page, id);
  await page.reload();
  await expect(page.getByRole("article").filter({ hasText: "More about bananas." })).toBeVisible();
  await branches.getByRole("button", { name: "Next branch" }).click();
  await expect(page.getByRole("article").filter({ hasText: "Answer about cherries." })).toBeVisible();
  await expect(page.getByRole("article").filter({ hasText: "More about bananas." })).toHaveCount(0);
});
