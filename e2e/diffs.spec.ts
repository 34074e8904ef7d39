/**
 * Real diffs: edit cards show a unified or side-by-side diff (line numbers, changed words, no patch
 * headers), the "Changed N files" strip opens a file's diff, and "Changes of this turn" lists every
 * file the turn changed. A share link carries no files: there the turn's changes are shown from the
 * edits the conversation recorded, and a file a command changed says so. Axe (light and dark) and screenshots at desktop and phone sizes.
 */
import { configure, newSession, openApp, send, waitIdle } from "./app";
import { expect, test } from "./fixtures";
import { SIZES, seedFile, seriousAxe, shoot } from "./views";

const SUM = "export function sum(x: number, y: number) {\n  return x + y;\n}\nconst keep = 1;\n";

for (const size of SIZES) {
  test(`diffs of an edit, of a step and of a turn — ${size.name}`, async ({ page, mock, freshContext }) => {
    test.setTimeout(90_000);
    await openApp(page);
    await configure(page, mock, "openai-compatible");
    const id = await newSession(page);
    await page.setViewportSize({ width: size.width, height: size.height });
    await seedFile(page, id, "/workspace/src/sum.ts", SUM);
    mock.setScript([
      { toolCalls: [{ name: "read", args: { filePath: "/workspace/src/sum.ts" } }] },
      { toolCalls: [{ name: "edit", args: { filePath: "/workspace/src/sum.ts", oldString: "x: number, y: number) {\n  return x + y;", newString: "x: number, y: number, z = 0) {\n  return x + y + z;" } }] },
      { toolCalls: [{ name: "write", args: { filePath: "/workspace/notes.md", content: "# Notes\n\nsum takes z.\n" } }] },
      { toolCalls: [{ name: "bash", args: { command: "echo done > log.txt", description: "Write a log" } }] },
      { text: "Added z." },
    ]);
    await send(page, "Give sum a third argument and write a note");
    await waitIdle(page, id);

    // The edit card shows its diff while closed: numbered lines, the changed words marked, no headers.
    const card = page.getByRole("group", { name: "Tool edit: done" });
    const diff = card.getByRole("region", { name: "Diff of src/sum.ts" });
    await expect(diff).toBeVisible();
    await expect(diff).not.toContainText("Index:");
    await expect(diff).not.toContainText("=====");
    await expect(diff.locator("mark").filter({ hasText: "z = 0" })).toHaveCount(1);
    await expect(diff.getByRole("row").filter({ hasText: "return x + y + z;" })).toContainText("2");
    const layout = card.getByRole("group", { name: "Diff layout of src/sum.ts" });
    if (size.width >= 900) {
      await layout.getByRole("button", { name: "Side by side" }).click();
      await expect(layout.getByRole("button", { name: "Side by side" })).toHaveAttribute("aria-pressed", "true");
      // Side by side: the old and new line on one row.
      await expect(diff.getByRole("row").filter({ hasText: "return x + y;" }).filter({ hasText: "return x + y + z;" })).toHaveCount(1);
      await shoot(page, `diff-card-split-${size.name}`);
    } else {
      // No room for two columns: unified, and the toggle says why.
      await expect(layout.getByRole("button", { name: "Side by side" })).toBeDisabled();
      await expect(layout.getByRole("button", { name: "Unified" })).toHaveAttribute("aria-pressed", "true");
      await card.scrollIntoViewIfNeeded();
      await shoot(page, `diff-card-${size.name}`);
    }
    expect(await seriousAxe(page, ".tool-card")).toEqual([]);

    // The strip of the first step opens that file's diff.
    await page.getByRole("button", { name: "Show the diff of src/sum.ts" }).click();
    const step = page.getByRole("dialog", { name: "Changes of this step" });
    await expect(step.getByRole("region", { name: "Diff of src/sum.ts" })).toContainText("return x + y + z;");
    await expect(step.getByRole("navigation", { name: "Changed files" }).getByRole("button")).toHaveCount(1);
    await shoot(page, `diff-step-${size.name}`);
    expect(await seriousAxe(page, "dialog")).toEqual([]);
    await step.getByRole("button", { name: "Close" }).click();
    await expect(step).toBeHidden();

    // The turn's changes: both files, the new one marked as new.
    await page.getByRole("button", { name: "Changes of this turn" }).first().click();
    const turn = page.getByRole("dialog", { name: "Changes of this turn" });
    const files = turn.getByRole("navigation", { name: "Changed files" });
    await expect(files.getByRole("button")).toHaveText(["src/sum.ts", "notes.md", "log.txt"]);
    await files.getByRole("button", { name: "notes.md" }).click();
    await expect(files.getByRole("button", { name: "notes.md" })).toHaveAttribute("aria-current", "true");
    await expect(turn).toContainText("New file.");
    await expect(turn.getByRole("region", { name: "Diff of notes.md" })).toContainText("sum takes z.");
    await shoot(page, `diff-turn-${size.name}`);
    expect(await seriousAxe(page, "dialog")).toEqual([]);
    await page.emulateMedia({ colorScheme: "dark" });
    await files.getByRole("button", { name: "src/sum.ts" }).click();
    await expect(turn.getByRole("region", { name: "Diff of src/sum.ts" })).toBeVisible();
    await shoot(page, `diff-turn-${size.name}-dark`);
    expect(await seriousAxe(page, "dialog")).toEqual([]);
    await page.keyboard.press("Escape");
    await expect(turn).toBeHidden();
    await card.scrollIntoViewIfNeeded();
    await shoot(page, `diff-card-${size.name}-dark`);
    expect(await seriousAxe(page, ".tool-card")).toEqual([]);
    if (size.width < 900) return;

    // Shared: no workspace, so the turn's changes come from the recorded edits; the command's file says why it has none.
    await page.emulateMedia({ colorScheme: "light" });
    await page.getByRole("button", { name: "Share" }).click();
    const share = page.getByRole("dialog", { name: "Share this session" });
    await share.getByRole("button", { name: "Create link" }).click();
    const url = await share.getByRole("textbox", { name: "Share link" }).inputValue();
    const fresh = await freshContext();
    const other = await fresh.newPage();
    await other.setViewportSize({ width: size.width, height: size.height });
    await other.goto(url);
    await expect(other.getByText("Shared session · read-only")).toBeVisible();
    await other.getByRole("button", { name: "Changes of this turn" }).first().click();
    const shared = other.getByRole("dialog", { name: "Changes of this turn" });
    const sharedFiles = shared.getByRole("navigation", { name: "Changed files" });
    await expect(sharedFiles.getByRole("button")).toHaveText(["src/sum.ts", "notes.md", "log.txt"]);
    await expect(shared).toContainText("A shared session carries no files: shown from the edit recorded in the conversation.");
    await expect(shared.getByRole("region", { name: "Diff of src/sum.ts" }).locator("mark").filter({ hasText: "z = 0" })).toHaveCount(1);
    await sharedFiles.getByRole("button", { name: "notes.md" }).click();
    await expect(shared.getByRole("region", { name: "Diff of notes.md" })).toContainText("sum takes z.");
    await sharedFiles.getByRole("button", { name: "log.txt" }).click();
    await expect(shared.getByRole("alert")).toHaveText("A shared session carries no files, and no edit in the conversation records this file's lines: a command changed it.");
    await shoot(other, "diff-turn-shared-desktop");
    await fresh.close();
  });
}
