import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sqlToFile } from "../src/testing/sqlite-node";
import { configure, openApp, send, waitIdle } from "./app";
import type { Page } from "@playwright/test";
import { expect, type MockOpenAI, test } from "./fixtures";

const FIXTURES = "src/core/import/__fixtures__";

/** Replays the open (imported) session one step with the X-ray, exits, then sends `prompt` and returns the request body the mock got. */
async function replayThenContinue(page: Page, mock: MockOpenAI, sessionID: string, answer: string, prompt: string): Promise<string> {
  await page.getByRole("link", { name: "Replay" }).click();
  const controls = page.getByRole("toolbar", { name: "Replay controls" });
  await expect(controls.getByRole("status")).toContainText(/Step 1 of \d+/);
  await controls.getByRole("button", { name: "Next step" }).click();
  await expect(page.getByRole("complementary", { name: "What the model saw" })).toBeVisible();
  await page.getByRole("button", { name: "Exit replay" }).click();
  mock.setScript([{ text: answer }]);
  await send(page, prompt);
  await expect(page.getByRole("article").filter({ hasText: answer })).toBeVisible({ timeout: 60_000 });
  await waitIdle(page, sessionID);
  return mock.modelRequests().at(-1)?.rawBody ?? "";
}

test("import a Claude Code folder and an opencode.db: picker, import, open, search, replay, continue", async ({ page, mock }) => {
  test.setTimeout(180_000);
  const dbPath = await sqlToFile(readFileSync(`${FIXTURES}/opencode-1.2.sql`, "utf8"));
  await openApp(page);
  await configure(page, mock, "openai-compatible");
  const nav = page.getByRole("navigation", { name: "Sessions" });

  // A folder, through the folder picker.
  await nav.getByRole("button", { name: "Import history" }).click();
  let dialog = page.getByRole("dialog", { name: "Import history" });
  await dialog.getByLabel("Choose a folder").setInputFiles(`${FIXTURES}/claude-code`);
  await expect(dialog.getByRole("status")).toContainText("2 imported");
  await expect(dialog.getByText("1 record could not be imported")).toBeVisible();
  await dialog.getByRole("button", { name: "Close" }).click();
  await expect(nav.getByText("Add --done to list")).toBeVisible();
  // The subagent's transcript is listed right under the session that called it, and links back to it.
  const items = nav.locator(".session-item");
  const parentAt = await items.evaluateAll((els) => els.findIndex((e) => e.textContent?.includes("Add --done to list")));
  const child = items.nth(parentAt + 1);
  await expect(child).toHaveClass(/child/);
  await expect(child.getByRole("img", { name: "subagent session of the session above" })).toBeVisible();
  await child.getByRole("button").first().click();
  await expect(page.getByText("Subagent session of")).toBeVisible();
  await page.screenshot({ path: test.info().outputPath("subagent-1400.png") });
  await page.getByRole("link", { name: "Add --done to list" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Add --done to list");
  // The Task call that ran it (before the session's summary) links to it too.
  await page.getByRole("button", { name: "Show what the summary replaced" }).click();
  const task = page.getByRole("group", { name: /^Tool Task/ });
  await expect(task.getByText("Ran in its own session:")).toBeVisible();
  await task.screenshot({ path: test.info().outputPath("task-link.png") });
  await task.getByRole("link").click();
  await expect(page.getByText("Subagent session of")).toBeVisible();
  await page.getByRole("link", { name: "Add --done to list" }).click();

  // A database, dropped on the dialog's drop zone: the picker lists its sessions first.
  await nav.getByRole("button", { name: "Import history" }).click();
  dialog = page.getByRole("dialog", { name: "Import history" });
  const bytes = [...readFileSync(dbPath)];
  const drop = await page.evaluateHandle((b) => {
    const dt = new DataTransfer();
    dt.items.add(new File([new Uint8Array(b)], "opencode.db"));
    return dt;
  }, bytes);
  await dialog.getByText("Drop files or folders here").dispatchEvent("drop", { dataTransfer: drop });
  await expect(dialog.getByRole("row")).toHaveCount(3);
  await expect(dialog.getByRole("row").filter({ hasText: "Fix the flaky forecast test" })).toContainText("weather-app");
  await expect(dialog.getByRole("checkbox", { name: "Select all" })).toBeChecked();
  await dialog.getByRole("checkbox", { name: "Select all" }).uncheck();
  await dialog.getByRole("checkbox", { name: "Import “Fix the flaky forecast test”" }).check();
  await dialog.getByRole("checkbox", { name: /Import “Find where the forecast/ }).check();
  await dialog.getByRole("button", { name: "Import 2 sessions" }).click();
  await expect(dialog.getByRole("status")).toContainText("2 imported");
  await dialog.getByText(/records? could not be imported/).click();
  await expect(dialog.getByRole("listitem").filter({ hasText: "part row prt_b5e4d3c2b008BadJson00001" })).toBeVisible();
  await dialog.getByRole("button", { name: "Open imported session" }).click();
  await expect(dialog).toBeHidden();

  // Open it: the imported conversation with its tool calls.
  await nav.getByText("Fix the flaky forecast test").click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Fix the flaky forecast test");
  await expect(page.getByRole("article", { name: "Summary" })).toContainText("60 s memo cache");
  await page.getByRole("button", { name: "Show what the summary replaced" }).click();
  await expect(page.getByRole("article").filter({ hasText: "I reset the cache in beforeEach" })).toBeVisible();
  // The recorded test run failed (exit 1): its card says so.
  await expect(page.getByRole("group", { name: "Tool bash: finished with exit code 1" })).toBeVisible();
  await expect(page.getByRole("group", { name: "Tool edit: failed" })).toContainText("oldString not found");
  const id = new URL(page.url()).hash.replace("#/s/", "").split("/")[0] ?? "";

  // Search finds imported text.
  const search = page.getByRole("searchbox", { name: "Search sessions" });
  await search.fill("memoised forecast");
  const results = page.getByRole("region", { name: "Search results" });
  await expect(results.getByRole("button")).not.toHaveCount(0);
  await search.fill("");

  // Replay with the X-ray, then continue it with the user's own model (the scripted mock).
  const sent = await replayThenContinue(page, mock, id, "Continuing the imported session: the cache is reset now.", "Is the cache fix enough?");
  expect(sent).toContain("Summary: the flaky forecast test was caused by the 60 s memo cache");
  expect(sent).toContain("Is the cache fix enough?");
});

test("folders picked whole (OpenCode storage, Claude Code projects) and an opencode.db with its -wal: picker, import, open, search, replay, continue", async ({ page, mock }) => {
  test.setTimeout(180_000);
  // ~/.claude/projects/<project dir>/…: the layout a user picks.
  const projects = join(mkdtempSync(join(tmpdir(), "tabcode-claude-")), "projects");
  cpSync(`${FIXTURES}/claude-code`, join(projects, "-home-dev-todo-cli"), { recursive: true });
  await openApp(page);
  await configure(page, mock, "openai-compatible");
  const nav = page.getByRole("navigation", { name: "Sessions" });

  // The OpenCode storage folder (pre-1.2), through the folder picker.
  await nav.getByRole("button", { name: "Import history" }).click();
  let dialog = page.getByRole("dialog", { name: "Import history" });
  await dialog.getByLabel("Choose a folder").setInputFiles(`${FIXTURES}/opencode-storage/storage`);
  await expect(dialog.getByRole("status")).toContainText("1 imported");
  await expect(dialog.getByText("1 record could not be imported")).toBeVisible();
  await dialog.getByRole("button", { name: "Close" }).click();

  // A Claude Code projects folder.
  await nav.getByRole("button", { name: "Import history" }).click();
  dialog = page.getByRole("dialog", { name: "Import history" });
  await dialog.getByLabel("Choose a folder").setInputFiles(projects);
  await expect(dialog.getByRole("status")).toContainText("2 imported");
  await dialog.getByRole("button", { name: "Close" }).click();

  // opencode.db dropped with its -wal: the session only in the log is listed too, and the picker says the log was applied.
  await nav.getByRole("button", { name: "Import history" }).click();
  dialog = page.getByRole("dialog", { name: "Import history" });
  const files = ["opencode.db", "opencode.db-wal"].map((name) => ({ name, bytes: [...readFileSync(`${FIXTURES}/opencode-wal/${name}`)] }));
  const drop = await page.evaluateHandle((fs) => {
    const dt = new DataTransfer();
    for (const f of fs) dt.items.add(new File([new Uint8Array(f.bytes)], f.name));
    return dt;
  }, files);
  await dialog.getByText("Drop files or folders here").dispatchEvent("drop", { dataTransfer: drop });
  await expect(dialog.getByText(/Read together with its -wal file/)).toBeVisible();
  await expect(dialog.getByRole("row")).toHaveCount(4);
  await dialog.getByRole("button", { name: "Import 3 sessions" }).click();
  await expect(dialog.getByRole("status")).toContainText("3 imported");
  await dialog.getByRole("button", { name: "Close" }).click();
  await nav.getByText("Add a retry to the forecast fetch").click();
  await expect(page.getByRole("article").filter({ hasText: "walrecovered" })).toBeVisible();

  // Open the storage-tree session.
  await nav.getByText("Explain the build script").click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Explain the build script");
  await expect(page.getByRole("group", { name: "Tool read: done" })).toBeVisible();
  const id = new URL(page.url()).hash.replace("#/s/", "").split("/")[0] ?? "";

  // Search finds it (an imported block of the search index).
  const search = page.getByRole("searchbox", { name: "Search sessions" });
  await search.fill("runs vite");
  const results = page.getByRole("region", { name: "Search results" });
  await expect(results.getByRole("button").filter({ hasText: "It runs vite build." })).toHaveCount(1);
  await search.fill("");

  // Replay, then continue against the scripted mock.
  const sent = await replayThenContinue(page, mock, id, "The build script only runs vite build, nothing else.", "Does it do anything else?");
  expect(sent).toContain("It runs vite build.");
  expect(sent).toContain("Does it do anything else?");
});

test("Import more: after a result the dialog goes back to picking, focus on the first picker, and imports another folder", async ({ page }) => {
  await openApp(page);
  const nav = page.getByRole("navigation", { name: "Sessions" });
  await nav.getByRole("button", { name: "Import history" }).click();
  const dialog = page.getByRole("dialog", { name: "Import history" });
  await dialog.getByLabel("Choose a folder").setInputFiles(`${FIXTURES}/claude-code`);
  await expect(dialog.getByRole("status")).toContainText("2 imported");
  await page.screenshot({ path: test.info().outputPath("import-result-1400.png") });

  await dialog.getByRole("button", { name: "Import more" }).click();
  await expect(dialog.getByText("Drop files or folders here")).toBeVisible();
  await expect(dialog.getByLabel("Choose files")).toBeFocused();
  // The earlier result is gone: the next one counts only the next files.
  await expect(dialog.getByRole("status")).toHaveCount(0);
  await expect(dialog.getByRole("button", { name: "Import more" })).toHaveCount(0);
  await dialog.getByLabel("Choose a folder").setInputFiles(`${FIXTURES}/opencode-storage/storage`);
  await expect(dialog.getByRole("status")).toContainText("1 imported");
  await expect(dialog.getByRole("status")).not.toContainText("2 imported");
  await dialog.getByRole("button", { name: "Close" }).click();
  await expect(dialog).toBeHidden();
  await expect(nav.getByText("Add --done to list")).toBeVisible();
});

/**
 * A Claude Code transcript file of about `mb` MB: `sessions` conversations one after another, each of
 * exchanges with a tool call, as Claude Code writes them (one line per record).
 */
function largeTranscript(mb: number, sessions: number): string {
  const lines: string[] = [];
  let bytes = 0;
  const filler = "The forecast cache keeps each answer for sixty seconds, so the test reads a stale value. ".repeat(6);
  for (let n = 0; bytes < mb * 1_048_576; n++) {
    const sessionId = `big-${n % sessions}`;
    const at = new Date(Date.UTC(2025, 10, 4, 10, 0, 0) + n * 1000).toISOString();
    const records = [
      { type: "user", sessionId, uuid: `u${n}`, parentUuid: n >= sessions ? `a${n - sessions}` : null, timestamp: at, message: { role: "user", content: `Question ${n}: ${filler}` } },
      { type: "assistant", sessionId, uuid: `a${n}`, parentUuid: `u${n}`, timestamp: at, message: { id: `m${n}`, role: "assistant", model: "claude-sonnet-4-5", content: [{ type: "text", text: `Answer ${n}: ${filler}` }, { type: "tool_use", id: `t${n}`, name: "Read", input: { file_path: `/src/f${n}.ts` } }], stop_reason: "tool_use", usage: { input_tokens: 10, output_tokens: 5 } } },
    ];
    for (const r of records) {
      const line = JSON.stringify(r);
      lines.push(line);
      bytes += line.length + 1;
    }
  }
  return `${lines.join("\n")}\n`;
}

test("a large Claude Code transcript is read off the page: it keeps painting, the progress moves and Cancel stops the import", async ({ page }) => {
  test.setTimeout(180_000);
  const dir = mkdtempSync(join(tmpdir(), "tabcode-large-"));
  const path = join(dir, "large-session.jsonl");
  writeFileSync(path, largeTranscript(30, 60));
  await openApp(page);
  // Frames painted and main-thread tasks over 50 ms, counted in the page.
  await page.evaluate(() => {
    const w = window as unknown as { frames_: number; longTasks: { start: number; ms: number }[] };
    w.frames_ = 0;
    w.longTasks = [];
    const tick = () => {
      w.frames_++;
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.longTasks.push({ start: e.startTime, ms: e.duration });
    }).observe({ type: "longtask" });
  });
  const sample = () => page.evaluate(() => ({ frames: (window as unknown as { frames_: number }).frames_, now: performance.now() }));

  await page.getByRole("navigation", { name: "Sessions" }).getByRole("button", { name: "Import history" }).click();
  const dialog = page.getByRole("dialog", { name: "Import history" });
  await dialog.getByLabel("Choose files").setInputFiles(path);
  const status = dialog.getByRole("status");
  await expect(status).toContainText("MB read");
  const from = await sample();
  // A second into the parse the page has painted most of its frames and the progress has moved (bytes read or sessions written).
  await page.waitForTimeout(1000);
  const to = await sample();
  const frames = to.frames - from.frames;
  expect(frames, `frames painted in ${Math.round(to.now - from.now)} ms`).toBeGreaterThan(30);
  await expect(status).not.toContainText("0 of 0 sessions found so far (0 parts); 0 of");
  const longest = await page.evaluate((since) => Math.max(0, ...(window as unknown as { longTasks: { start: number; ms: number }[] }).longTasks.filter((t) => t.start + t.ms >= since).map((t) => t.ms)), from.now);
  test.info().annotations.push({ type: "import", description: `${frames} frames in ${Math.round(to.now - from.now)} ms, longest task ${Math.round(longest)} ms` });
  expect(longest).toBeLessThan(200);

  // Cancel, mid-import: the sessions written so far stay, the rest is not imported.
  await dialog.getByRole("button", { name: "Cancel import" }).click();
  await expect(status).toContainText("Import cancelled");
  const imported = Number(/(\d+) imported/.exec((await status.textContent()) ?? "")?.[1]);
  expect(imported).toBeLessThan(60);
  await dialog.getByRole("button", { name: "Close" }).click();
  const stored = await page.evaluate(async () => (await (globalThis as unknown as { __tabcode: { store: { listSessions(): Promise<unknown[]> } } }).__tabcode.store.listSessions()).length);
  expect(stored).toBe(imported);
});
