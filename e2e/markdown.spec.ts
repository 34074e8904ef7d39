import { readFileSync } from "node:fs";
import { configure, newSession, openApp, send, waitIdle } from "./app";
import { expect, test } from "./fixtures";

const ANSWER = [
  "The function returns Promise<void> and the markup was <div class=\"card\">.",
  "",
  "Do not click [this](javascript:alert(document.domain)).",
  "",
  "```ts",
  "export async function save(): Promise<void> {",
  '  const name = "x"; // a comment',
  "  return;",
  "}",
  "```",
  "",
  "## Summary",
  "",
  "| file | change |",
  "|---|---|",
  "| save.ts | returns early |",
  "",
  "Done.",
].join("\n");

test("model text: HTML-looking text shows literally, unsafe links open nothing, code is highlighted with copy, wrap and a language label", async ({ page, mock, context }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await openApp(page);
  await configure(page, mock, "openai-compatible");
  const id = await newSession(page);
  mock.setScript([{ text: ANSWER }]);
  await send(page, "explain");
  await waitIdle(page, id);

  const answer = page.getByRole("article", { name: "Assistant message" }).last();
  await expect(answer).toContainText("The function returns Promise<void> and the markup was <div class=\"card\">.");
  await expect(answer.locator("div.card")).toHaveCount(0);

  // The neutralised link is plain text: no link, nothing opens.
  await expect(answer.getByRole("link")).toHaveCount(0);
  const pages = context.pages().length;
  await answer.getByText("this", { exact: true }).click();
  await page.waitForTimeout(300);
  expect(context.pages().length).toBe(pages);

  // The code block: label, highlighted once finished (the highlighter loads on demand), copy, wrap.
  await expect(answer.getByText("ts", { exact: true })).toBeVisible();
  await expect(answer.locator("code .hljs-keyword").first()).toBeVisible();
  await expect(answer.locator("code .hljs-comment")).toHaveText("// a comment");
  await answer.getByRole("button", { name: "Copy ts code" }).click();
  await expect(answer.getByRole("button", { name: "Copy ts code" })).toHaveText("Copied");
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('export async function save(): Promise<void> {\n  const name = "x"; // a comment\n  return;\n}');
  const wrap = answer.getByRole("button", { name: "Wrap" });
  await wrap.click();
  await expect(wrap).toHaveAttribute("aria-pressed", "true");

  // Copy the whole answer (its markdown source).
  await answer.hover();
  await answer.getByRole("button", { name: "Copy answer" }).click();
  await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(ANSWER);

  // The HTML export reads as the screen does: rendered markdown under the message's own heading, the same rules.
  await page.getByRole("button", { name: "Export", exact: true }).click();
  const [d] = await Promise.all([page.waitForEvent("download"), page.getByRole("menuitem", { name: "HTML", exact: true }).click()]);
  const exported = await context.newPage();
  await exported.setContent(readFileSync(await d.path(), "utf8"));
  const article = exported.getByRole("article").filter({ hasText: "Done." });
  await expect(article.getByRole("heading", { level: 3, name: "Summary" })).toBeVisible();
  await expect(article.getByRole("heading", { level: 2 })).toHaveText(["Assistant"]);
  await expect(article).toContainText('The function returns Promise<void> and the markup was <div class="card">.');
  await expect(article.locator("div.card")).toHaveCount(0);
  await expect(article.getByRole("link")).toHaveCount(0);
  await expect(article.getByRole("cell", { name: "returns early" })).toBeVisible();
  await expect(article.locator("pre code")).toContainText("export async function save(): Promise<void> {");
  await exported.setViewportSize({ width: 900, height: 900 });
  await article.scrollIntoViewIfNeeded();
  await exported.screenshot({ path: "test-results/screens/export-html.png" });
  await exported.close();
});

test("exports: a command that failed reads 'exit 1' in the failure's colour as on its card; the Markdown export's raw HTML reads as text, code byte for byte", async ({ page, mock, context }) => {
  await openApp(page);
  await configure(page, mock, "openai-compatible");
  const id = await newSession(page);
  const code = "```html\n<div class=\"kept\">as written</div>\n```";
  mock.setScript([
    { toolCalls: [{ name: "bash", args: { command: "cat missing.txt", description: "read the missing file" } }] },
    { text: `It failed. <script>window.__xss=1</script> <img src=x onerror="window.__xss=2">\n\n${code}` },
  ]);
  await send(page, "read it");
  await waitIdle(page, id);
  const card = page.getByRole("group", { name: /^Tool bash/ });
  await expect(card).toHaveAccessibleName("Tool bash: finished with exit code 1");
  await expect(card.getByRole("button").first()).toContainText("exit 1");

  // The HTML page says it as the card does, in the page's error colour.
  await page.getByRole("button", { name: "Export", exact: true }).click();
  const [h] = await Promise.all([page.waitForEvent("download"), page.getByRole("menuitem", { name: "HTML", exact: true }).click()]);
  const exported = await context.newPage();
  await exported.setContent(readFileSync(await h.path(), "utf8"));
  const badge = exported.locator("details.tool").filter({ hasText: "bash" }).locator(".status");
  await expect(badge).toHaveText("exit 1");
  const [colour, failure] = await badge.evaluate((el) => {
    const probe = document.createElement("span");
    probe.style.color = "var(--err)";
    document.body.append(probe);
    return [getComputedStyle(el).color, getComputedStyle(probe).color];
  });
  expect(colour).toBe(failure);
  await exported.close();

  // The Markdown transcript flags the failure; the answer's raw HTML is text, its code block as written.
  await page.getByRole("button", { name: "Export", exact: true }).click();
  const [m] = await Promise.all([page.waitForEvent("download"), page.getByRole("menuitem", { name: "Markdown", exact: true }).click()]);
  const md = readFileSync(await m.path(), "utf8");
  expect(md).toContain("**Tool: bash** · ✗ exit 1");
  expect(md).toContain('It failed. &lt;script>window.__xss=1&lt;/script> &lt;img src=x onerror="window.__xss=2">');
  expect(md).toContain(code);
  expect(md).not.toMatch(/<script|<img/);
});
