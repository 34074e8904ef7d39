import { readFileSync } from "node:fs";
import { configure, newSession, openApp, send, waitIdle } from "./app";
import { expect, test } from "./fixtures";

const TAIL = "AbCdEfGhIjKlMnOpQrStUvWxYz0123456789";
const LEAKED = `sk-proj-${TAIL}`;

test("Export reviews secrets first: a key in a tool output is listed, and the file lacks it when removed", async ({ page, mock }) => {
  await openApp(page);
  await configure(page, mock, "openai-compatible");
  const id = await newSession(page);
  // The key is only in the command's output (the command line prints it in two pieces).
  mock.setScript([{ toolCalls: [{ name: "bash", args: { command: `printf '%s%s\\n' sk-proj- ${TAIL}`, description: "print the key" } }] }, { text: "The key is printed above." }]);
  await send(page, "print my key");
  await expect(page.getByRole("article").filter({ hasText: "The key is printed above." })).toBeVisible({ timeout: 30_000 });
  await waitIdle(page, id);

  await page.getByRole("button", { name: "Export", exact: true }).click();
  await page.getByRole("menuitem", { name: "JSON", exact: true }).click();
  const review = page.getByRole("dialog", { name: "Review before exporting" });
  const finding = review.getByRole("checkbox", { name: /Remove OpenAI-style API key sk-p… \(44 characters\) \(message \d+, tool bash output/ });
  await expect(finding).toBeChecked();
  const [json] = await Promise.all([page.waitForEvent("download"), review.getByRole("button", { name: "Export JSON" }).click()]);
  await expect(review).toBeHidden();
  const text = readFileSync(await json.path(), "utf8");
  expect(text).not.toContain(LEAKED);
  expect(text).toContain("[redacted OpenAI-style API key]");
  expect(text).toContain("The key is printed above.");

  // Unchecked, the value is the user's to keep: the Markdown export then holds it.
  await page.getByRole("button", { name: "Export", exact: true }).click();
  await page.getByRole("menuitem", { name: "Markdown", exact: true }).click();
  await review.getByRole("checkbox", { name: /Remove OpenAI-style API key/ }).uncheck();
  const [md] = await Promise.all([page.waitForEvent("download"), review.getByRole("button", { name: "Export Markdown" }).click()]);
  expect(readFileSync(await md.path(), "utf8")).toContain(LEAKED);

  // Cancel writes nothing.
  await page.getByRole("button", { name: "Export", exact: true }).click();
  await page.getByRole("menuitem", { name: "HTML", exact: true }).click();
  let downloaded = false;
  page.on("download", () => {
    downloaded = true;
  });
  await review.getByRole("button", { name: "Cancel" }).click();
  await expect(review).toBeHidden();
  expect(downloaded).toBe(false);
});

test("JSON with files reviews the workspace's secrets too; Export all reviews every session's, the Settings key included", async ({ page, mock }) => {
  const { unzipSync, strFromU8 } = await import("fflate");
  await openApp(page);
  // A key with no known prefix (a Mistral key has none): it counts because it is the one in Settings.
  const ownKey = "Zx81kQ2mP0aL7vR4tY6uB3nC9dE5fG1h";
  await configure(page, mock, "openai-compatible", { apiKey: ownKey });
  const id = await newSession(page);
  await page.evaluate(
    async ({ id, leaked }) => {
      const t = (globalThis as unknown as { __tabcode: { sandbox: { seedWorkspace(id: string, f: Record<string, string>): Promise<void> } } }).__tabcode;
      await t.sandbox.seedWorkspace(id, { ".env": `OPENAI_API_KEY=${leaked}\n`, "app.js": "console.log(1)\n" });
    },
    { id, leaked: LEAKED },
  );
  mock.setScript([{ text: "Noted." }]);
  await send(page, `my key is ${ownKey}`);
  await waitIdle(page, id);

  await page.getByRole("button", { name: "Export", exact: true }).click();
  await page.getByRole("menuitem", { name: "JSON with files" }).click();
  const review = page.getByRole("dialog", { name: "Review before exporting" });
  await expect(review.getByRole("checkbox", { name: /Remove OpenAI-style API key sk-p… \(44 characters\) \(workspace file .env/ })).toBeChecked();
  await expect(review.getByRole("checkbox", { name: /Remove your API key from Settings Zx81… \(32 characters\)/ })).toBeChecked();
  const [withFiles] = await Promise.all([page.waitForEvent("download"), review.getByRole("button", { name: "Export JSON with files" }).click()]);
  const text = readFileSync(await withFiles.path(), "utf8");
  expect(text).not.toContain(LEAKED);
  expect(text).not.toContain(ownKey);
  expect(text).toContain("app.js");

  await page.getByRole("navigation", { name: "Sessions" }).getByRole("button", { name: "Export all" }).click();
  await expect(review.getByRole("checkbox", { name: /Remove your API key from Settings Zx81… \(32 characters\) \(“.*”, message 1, text/ })).toBeChecked();
  const [all] = await Promise.all([page.waitForEvent("download"), review.getByRole("button", { name: "Export all sessions" }).click()]);
  const zip = unzipSync(readFileSync(await all.path()));
  const joined = Object.values(zip).map((b) => strFromU8(b)).join("\n");
  expect(joined).not.toContain(ownKey);
  expect(joined).toContain("[redacted your API key from Settings]");
});
