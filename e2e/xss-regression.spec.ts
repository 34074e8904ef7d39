/**
 * Regression corpus: untrusted content stays inert in every rendering channel.
 * Payloads go through model text, reasoning, tool input and output, file names
 * and contents, the user's own message, search results, an HTML export and a
 * share link. None may run script (a dialog or a global flag) or fetch
 * anything (the network fence fails the test on any non-local request).
 */
import { configure, newSession, openApp, send, waitIdle } from "./app";
import { expect, test } from "./fixtures";

const PAYLOADS = [
  `<img src=x onerror="window.__xss=1">`,
  `<script>window.__xss=2</script>`,
  `<svg onload="window.__xss=3"></svg>`,
  `<iframe src="javascript:window.__xss=4"></iframe>`,
  `<a href="javascript:window.__xss=5">click</a>`,
  `<img src="https://evil.example/beacon.png">`,
  `<link rel=stylesheet href="https://evil.example/x.css">`,
  `<style>@import url(https://evil.example/y.css);</style>`,
  `[md link](javascript:window.__xss=6) ![md img](https://evil.example/z.png)`,
  `<details open ontoggle="window.__xss=7">`,
  `"><img src=x onerror=window.__xss=8>`,
  `<math><mtext><table><mglyph><style><img src=x onerror=window.__xss=9>`,
];
const ALL = PAYLOADS.join("\n");

test("an XSS corpus through every rendering channel executes nothing and fetches nothing", async ({ page, mock, freshContext }) => {
  const dialogs: string[] = [];
  page.on("dialog", (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  await openApp(page);
  await configure(page, mock, "openai-compatible");
  const id = await newSession(page);
  mock.setScript([
    {
      reasoning: ALL,
      text: `Here:\n${ALL}`,
      toolCalls: [{ name: "write", args: { filePath: '/workspace/<img src=x onerror="window.__xss=10">.md', content: ALL } }],
    },
    { toolCalls: [{ name: "bash", args: { command: `printf '%s\\n' '${PAYLOADS[0]}' '${PAYLOADS[5]}'; ls`, description: PAYLOADS[2] ?? "" } }] },
    { text: `Final ${ALL}` },
  ]);
  await send(page, `user says ${ALL}`);
  // Three steps with tool calls right after the page loaded (the first send loads the agent loop and the sandbox): up to 20 s under load, as waitIdle allows.
  await expect(page.getByRole("article").filter({ hasText: "Final" })).toBeVisible({ timeout: 20_000 });
  await waitIdle(page, id);
  // Open every tool card and reasoning block so their content renders.
  for (const b of await page.locator("main article button[aria-expanded='false']").all()) await b.click({ timeout: 2000 }).catch(() => undefined);
  // The user's own text is shown literally (model Markdown may drop raw HTML; either way nothing runs).
  await expect(page.getByRole("article", { name: "Your message" })).toContainText("onerror=window.__xss=8");

  // Search renders snippets of the same text.
  await page.getByRole("searchbox", { name: "Search sessions" }).fill("onerror");
  await page.keyboard.press("Enter");
  await page.waitForTimeout(1000);
  await page.getByRole("searchbox", { name: "Search sessions" }).fill("");

  // A share link opened in a fresh context renders the same content read-only.
  await page.getByRole("button", { name: "Share" }).click();
  const dialog = page.getByRole("dialog", { name: "Share this session" });
  await dialog.getByRole("button", { name: "Create link" }).click();
  const url = await dialog.getByRole("textbox", { name: "Share link" }).inputValue();
  {
    const fresh = await freshContext();
    const other = await fresh.newPage();
    other.on("dialog", (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    await other.goto(url);
    await expect(other.getByText("Shared session · read-only")).toBeVisible();
    expect(await other.evaluate(() => (globalThis as { __xss?: number }).__xss)).toBeUndefined();
    await fresh.close();
  }

  expect(await page.evaluate(() => (globalThis as { __xss?: number }).__xss)).toBeUndefined();
  expect(dialogs).toEqual([]);
  // No element created by a payload exists in the document.
  expect(await page.locator("main img[onerror], main svg[onload], main iframe, main script, main details[ontoggle]").count()).toBe(0);
});
