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
