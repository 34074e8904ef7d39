import type { Page } from "@playwright/test";
import { configure, newSession, openApp, send, waitIdle } from "./app";
import { expect, test } from "./fixtures";

/** ~48 KB of varied words: a read of it costs roughly 12k tokens. */
function bigFile(): string {
  const words = ["alpha", "parser", "render", "socket", "buffer", "stream", "index", "schema", "router", "module"];
  return Array.from({ length: 480 }, (_, i) => `${i}: ${Array.from({ length: 14 }, (_, k) => `${words[(i * 7 + k) % words.length]}${(i * 31 + k) % 997}`).join(" ")}`).join("\n");
}

const RULE = "Never touch config/ or anything under it.";
const READ = { toolCalls: [{ name: "read", args: { filePath: "/workspace/big.txt" } }] };

async function writeBig(page: Page, id: string): Promise<void> {
  await page.evaluate(
    async ({ id, text }) => {
      const t = (globalThis as unknown as { __tabcode: { sandbox: { sandboxFor(id: string): Promise<{ fs: { writeFile(p: string, d: string): Promise<void> } }> } } }).__tabcode;
      await (await t.sandbox.sandboxFor(id)).fs.writeFile("/workspace/big.txt", text);
    },
    { id, text: bigFile() },
  );
}

async function storedSession(page: Page, id: string): Promise<{ parentID?: string; fork?: { sessionID: string }; pins?: { text: string; state: string }[] } | undefined> {
  return page.evaluate(async (id) => {
    const t = (globalThis as unknown as { __tabcode: { store: { getSession(id: string): Promise<Record<string, unknown> | undefined> } } }).__tabcode;
    return (await t.store.getSession(id)) as never;
  }, id);
}

test("a constraint from the first message survives two automatic summaries: in the requests, in the Pinned panel, checked on the dividers; Start fresh from here makes a linked child with the brief", async ({ page, mock }) => {
  test.setTimeout(150_000);
  await openApp(page);
  // usable = 20k − 2k − 2k = 16k; auto-compaction at 85 % ≈ 13.6k tokens: one 12k read fills it.
  await configure(page, mock, "openai-compatible", {
    models: { "gpt-4o-mini": { contextWindow: 20_000, maxOutputTokens: 2_000, prices: { input: 0.15, output: 0.6, cacheRead: 0.075, cacheWrite: 0 } } },
    compaction: { auto: true, prune: false, threshold: 0.85 },
  });
  const id = await newSession(page);
  await writeBig(page, id);

  // First prompt: the rule is stated once, in passing. The read makes the next request too large: a summary is previewed.
  mock.setScript([READ, { text: "Read it; config/ left alone." }]);
  await send(page, `Tidy up the notes in big.txt. ${RULE}`);
  const pending = page.getByRole("status").filter({ hasText: "about to summarise" });
  // (The first exact count waits for the tokenizer to load.)
  await expect(pending).toContainText(/about to summarise \d+ messages? \([\d.]+k tokens\) into a summary of about [\d.]+k? tokens/, { timeout: 30_000 });
  await pending.getByRole("button", { name: "Summarise now" }).click();
  await waitIdle(page, id);
  expect(mock.summaryRequests).toBe(1);
  const afterFirst = mock.modelRequests().at(-1)?.rawBody ?? "";
  expect(afterFirst).toContain("Read big.txt repeatedly");
  expect(afterFirst).toContain(RULE);

  // Second prompt: another read, another summary (this time the grace runs out by itself).
  mock.setScript([READ, { text: "Read again; config/ still untouched." }]);
  await send(page, "Read big.txt once more and check the notes.");
  await expect(pending).toBeVisible({ timeout: 20_000 });
  await expect(pending).toBeHidden({ timeout: 15_000 });
  await waitIdle(page, id);
  expect(mock.summaryRequests).toBe(2);
  const afterSecond = mock.modelRequests().at(-1)?.rawBody ?? "";
  // The request after the second summary: the earlier answers are folded away.
  expect(afterSecond).not.toContain("Read it; config/ left alone.");
  // In the pinned section of the system prompt and in the user's own words kept after the summary.
  expect(afterSecond.split(RULE).length - 1).toBeGreaterThanOrEqual(2);
  expect(afterSecond).toContain("The user's earlier messages, verbatim");

  // The Pinned panel shows the rule as a suggestion; accepting it keeps it pinned.
  const panel = page.getByRole("region", { name: /Pinned/ });
  const rules = panel.getByRole("list", { name: "Constraints" });
  await expect(rules).toContainText(RULE);
  await expect(rules.getByRole("listitem").filter({ hasText: RULE })).toContainText("suggested");
  await panel.getByRole("button", { name: /Accept the constraint “Never touch config/ }).click();
  await expect(rules.getByRole("listitem").filter({ hasText: RULE })).not.toContainText("suggested");
  await expect(panel.getByRole("list", { name: "Goal" })).toContainText("Tidy up the notes in big.txt.");
  await panel.getByText(/Files touched \(1\)/).click();
  await expect(panel.getByRole("list", { name: "Files touched" })).toHaveText(/^big\.txt\s+read$/);
  // `/pin` adds the user's own constraint.
  await page.getByRole("textbox", { name: "Message" }).fill("/pin Answer in English.");
  await page.getByRole("button", { name: "Send" }).click();
  await expect(rules).toContainText("Answer in English.");
  expect((await storedSession(page, id))?.pins?.map((p) => [p.text, p.state])).toEqual([
    [RULE, "accepted"],
    ["Answer in English.", "accepted"],
  ]);

  // Both dividers say the check passed: goal, rule and big.txt were in the next request (the first is among what the second folded).
  await page.getByRole("button", { name: "Show what the summary replaced" }).click();
  const dividers = page.getByRole("article", { name: "System event" }).filter({ hasText: /Compacted automatically/ });
  await expect(dividers.last()).toContainText("pins checked 3/3");
  // The oldest messages are at the top of the list.
  await page.locator(".message-scroll").evaluate((el) => el.scrollTo(0, 0));
  await expect(dividers.first()).toContainText(/Compacted automatically: 2 messages → summary\s*· pins checked 3\/3/);
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.screenshot({ path: test.info().outputPath("pinned-1400.png") });

  // The header's size and the X-ray count the message the loop adds after the summary, and the X-ray lists it.
  await page.getByRole("button", { name: "Context X-ray" }).click();
  const xray = page.getByRole("dialog", { name: "Context X-ray" });
  await expect(xray.getByRole("list", { name: "Context sections" })).toContainText("After the summary: your earlier words, re-added pins and files");
  // Both recount when the answer's stored token counts land (a second after the last streamed text; until
  // then the answer's size is an estimate): once they have, the two agree.
  await expect
    .poll(async () => {
      const header = Number(await page.getByTestId("context-percent").getAttribute("data-tokens"));
      const total = Number(await xray.getByTestId("xray-total").getAttribute("data-tokens"));
      return total === header ? "same" : `X-ray ${total}, header ${header}`;
    })
    .toBe("same");
  await page.screenshot({ path: test.info().outputPath("xray-after-summary-1400.png") });
  await xray.getByRole("button", { name: "Close" }).click();

  // Start fresh from the last answer: a child session linked to this one, its brief waiting in the composer.
  const last = page.getByRole("article", { name: "Assistant message" }).last();
  await last.hover();
  await last.getByRole("button", { name: "More actions for this message" }).click();
  await page.getByRole("menuitem", { name: "Start fresh from here" }).click();
  await expect(page).not.toHaveURL(new RegExp(id));
  const child = new URL(page.url()).hash.replace("#/s/", "");
  const brief = page.getByRole("textbox", { name: "Message" });
  await expect(brief).toHaveValue(/## Goal\nTidy up the notes in big\.txt\./);
  await expect(brief).toHaveValue(new RegExp(`## Constraints\\n- ${RULE.replace(/[./]/g, "\\$&")}\\n- Answer in English\\.`));
  await expect(brief).toHaveValue(/## Files\n- big\.txt \(read\)/);
  await expect(brief).toHaveValue(new RegExp(`#/s/${id}/m/msg_`));
  // The brief, edited, is still there after a reload (nothing was sent yet).
  await brief.press("Control+End");
  await brief.pressSequentially(" Edited.");
  await page.reload();
  await expect(brief).toHaveValue(/## Goal\nTidy up the notes in big\.txt\.[\s\S]* Edited\.$/);
  await expect(page.getByText("Started fresh from")).toBeVisible();
  expect(await storedSession(page, child)).toMatchObject({ parentID: id, fork: { sessionID: id } });
  await expect(page.getByRole("region", { name: /Pinned/ }).getByRole("list", { name: "Constraints" })).toContainText(RULE);
  // The files come along, as they were at that message.
  await expect(page.getByRole("region", { name: "Workspace" })).toContainText("big.txt");
  await page.screenshot({ path: test.info().outputPath("fresh-1400.png") });
});

test("the Pinned panel by keyboard: Edit focuses its field, Enter saves, Esc cancels (not the drawer), a dismissed or removed row hands focus on; /pin of a pin in force is not added twice", async ({ page, mock }) => {
  await openApp(page);
  await configure(page, mock, "openai-compatible");
  const id = await newSession(page);
  mock.setScript([{ text: "Ok." }]);
  await send(page, "Fix the parser. Never touch config/. Always answer in one line.");
  await waitIdle(page, id);
  const panel = page.getByRole("region", { name: /Pinned/ });
  const rules = panel.getByRole("list", { name: "Constraints" });
  const message = page.getByRole("textbox", { name: "Message" });

  // `/pin` twice: one pin, and a notice says it is pinned already (whitespace and case aside).
  await message.fill("/pin Use tabs.");
  await message.press("Enter");
  await expect(rules).toContainText("Use tabs.");
  await message.fill("/pin  use TABS. ");
  await message.press("Enter");
  await expect(page.getByRole("status").filter({ hasText: "“Use tabs.” is already pinned." })).toBeVisible();
  await expect(rules.getByRole("listitem").filter({ hasText: "Use tabs." })).toHaveCount(1);
  expect((await storedSession(page, id))?.pins?.map((p) => p.text)).toEqual(["Use tabs."]);

  // Edit: the field has focus, the caret at the end; Enter saves and the keyboard is back on Edit.
  await panel.getByRole("button", { name: "Edit the constraint “Use tabs.”" }).click();
  const field = panel.getByRole("textbox", { name: "Edit the constraint" });
  await expect(field).toBeFocused();
  await expect(field).toHaveAccessibleDescription("Enter saves, Shift+Enter starts a new line, Esc cancels.");
  expect(await field.evaluate((t: HTMLTextAreaElement) => [t.selectionStart, t.value.length])).toEqual([9, 9]);
  await page.keyboard.press("Shift+Enter");
  await expect(field).toHaveValue("Use tabs.\n");
  await page.keyboard.type("Never spaces.");
  await page.keyboard.press("Enter");
  await expect(field).toBeHidden();
  const edit = panel.getByRole("button", { name: "Edit the constraint “Use tabs. Never spaces.”" });
  await expect(edit).toBeFocused();
  expect((await storedSession(page, id))?.pins?.map((p) => p.text)).toEqual(["Use tabs. Never spaces."]);

  // Dismiss a suggestion: the next row's first control has the keyboard.
  await panel.getByRole("button", { name: "Dismiss the suggested constraint “Never touch config/.”" }).click();
  await expect(rules).not.toContainText("Never touch config/.");
  await expect(panel.getByRole("button", { name: "Accept the constraint “Always answer in one line.”" })).toBeFocused();

  // On a phone, in the Files drawer: Esc ends the edit only, the drawer stays open.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByRole("button", { name: "Show files and todos" }).click();
  await panel.getByRole("button", { name: "Edit the constraint “Use tabs. Never spaces.”" }).click();
  await expect(field).toBeFocused();
  await page.keyboard.type(" Or not.");
  await page.screenshot({ path: test.info().outputPath("pin-edit-390.png") });
  await page.keyboard.press("Escape");
  await expect(field).toBeHidden();
  await expect(panel).toBeVisible();
  await expect(edit).toBeFocused();
  expect((await storedSession(page, id))?.pins?.map((p) => [p.text, p.state])).toEqual([
    ["Use tabs. Never spaces.", "accepted"],
    ["Never touch config/.", "dismissed"],
  ]);
  await page.keyboard.press("Escape");
  await expect(panel).toBeHidden();
  await page.setViewportSize({ width: 1400, height: 900 });

  // Remove the last row: the previous one's first control; then the goal's; then, no row left, the new-pin field.
  await panel.getByRole("button", { name: "Remove the constraint “Use tabs. Never spaces.”" }).click();
  await expect(panel.getByRole("button", { name: "Accept the constraint “Always answer in one line.”" })).toBeFocused();
  // Accept keeps the row: the keyboard stays on it, now on Edit.
  await page.keyboard.press("Enter");
  await expect(panel.getByRole("button", { name: "Edit the constraint “Always answer in one line.”" })).toBeFocused();
  await panel.getByRole("button", { name: "Remove the constraint “Always answer in one line.”" }).click();
  await expect(panel.getByRole("button", { name: "Accept the goal “Fix the parser.”" })).toBeFocused();
  await panel.getByRole("button", { name: "Dismiss the suggested goal “Fix the parser.”" }).click();
  await expect(panel.getByRole("textbox", { name: "New constraint" })).toBeFocused();
  await expect(panel.getByText("Dismissed (3)")).toBeVisible();

  // Restore from the Dismissed list: the keyboard goes to the restored pin's row (its Edit), never to the page.
  const focused = () => page.evaluate(() => (document.activeElement === document.body ? "body" : (document.activeElement?.getAttribute("aria-label") ?? document.activeElement?.tagName)));
  await panel.getByText("Dismissed (3)").click();
  await panel.getByRole("button", { name: "Restore “Fix the parser.”" }).click();
  await expect(panel.getByRole("button", { name: "Edit the goal “Fix the parser.”" })).toBeFocused();
  await expect(panel.getByText("Dismissed (2)")).toBeVisible();
  // By keyboard, twice more: the last Restore takes the Dismissed list with it, the keyboard still lands on the row.
  for (const left of ["Dismissed (1)", null]) {
    const restore = panel.getByRole("button", { name: /^Restore “/ }).first();
    const text = ((await restore.getAttribute("aria-label")) ?? "").replace(/^Restore “(.*)”$/, "$1");
    await restore.focus();
    await page.keyboard.press("Enter");
    await expect(panel.getByRole("button", { name: `Edit the constraint “${text}”` })).toBeFocused();
    if (left) await expect(panel.getByText(left)).toBeVisible();
    else await expect(panel.getByText(/^Dismissed \(/)).toHaveCount(0);
    expect(await focused()).not.toBe("body");
  }
});

test("Compact now and Summarise up to here show what they fold first, and Cancel leaves the conversation as it was", async ({ page, mock }) => {
  await openApp(page);
  await configure(page, mock, "openai-compatible", { compaction: { auto: false, prune: true, threshold: 1 } });
  const id = await newSession(page);
  mock.setScript([{ text: "First answer." }, { text: "Second answer." }]);
  await send(page, "First question. Always answer in one line.");
  await waitIdle(page, id);
  await send(page, "Second question.");
  await waitIdle(page, id);

  await page.getByRole("button", { name: "Compact now" }).click();
  const dialog = page.getByRole("dialog", { name: "Summarise the conversation?" });
  await expect(dialog).toContainText(/About to summarise 4 messages \(\d+ tokens\) into a summary of about \d+ tokens/);
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toBeHidden();
  expect(mock.summaryRequests).toBe(0);

  const first = page.getByRole("article", { name: "Assistant message" }).filter({ hasText: "First answer." });
  await first.hover();
  await first.getByRole("button", { name: "More actions for this message" }).click();
  await page.getByRole("menuitem", { name: "Summarise up to here" }).click();
  const upTo = page.getByRole("dialog", { name: "Summarise up to here?" });
  await expect(upTo).toContainText(/About to summarise 2 messages/);
  await expect(upTo).toContainText("The later turns stay as they are.");
  await upTo.getByRole("button", { name: "Summarise" }).click();
  await expect(page.getByRole("article", { name: "Summary" })).toBeVisible();
  await waitIdle(page, id);
  expect(mock.summaryRequests).toBe(1);
  // The ⋯ that opened the dialog was folded away with the messages: the keyboard is in the message box.
  await expect(page.getByRole("textbox", { name: "Message" })).toBeFocused();
  // The second turn is still shown and sent verbatim; the divider waits for the next request's check.
  await expect(page.getByRole("article").filter({ hasText: "Second answer." })).toBeVisible();
  const divider = page.getByRole("article", { name: "System event" }).filter({ hasText: "Compacted" });
  await expect(divider).toContainText("pins checked on the next request");
  // The preview, the divider and the banner count the same two messages.
  await expect(divider).toContainText("Compacted: 2 messages → summary");
  // Read in order: the summary stands where it folded, before the turn it kept.
  const order = async () => (await page.getByRole("article").evaluateAll((els) => els.map((e) => e.getAttribute("aria-label") + (e.textContent?.includes("Second answer.") ? " (second)" : "")))).filter((l) => l !== "Your message");
  expect(await order()).toEqual(["System event", "Summary", "Assistant message (second)"]);
  // The next request checks the pins (the rule and the goal, both in the system prompt): the divider says so.
  mock.setScript([{ text: "Third answer." }]);
  await send(page, "Third question.");
  await waitIdle(page, id);
  await expect(divider).toContainText("pins checked 2/2");
  expect(await order()).toEqual(["System event", "Summary", "Assistant message (second)", "Assistant message"]);
  // Unfolded, what the summary replaced comes before it.
  await page.getByRole("button", { name: "Show what the summary replaced" }).click();
  expect((await order())[0]).toBe("Assistant message");
  expect(await order()).toEqual(["Assistant message", "System event", "Summary", "Assistant message (second)", "Assistant message"]);
  await page.getByRole("button", { name: "Hide what the summary replaced" }).click();
  await page.setViewportSize({ width: 390, height: 844 });
  // On a phone the banner over the conversation keeps to one short line; its button keeps its whole name.
  const banner = page.getByRole("note").filter({ hasText: "2 earlier messages were summarised" });
  await expect(banner.getByRole("button", { name: "Show what the summary replaced" })).toHaveText("Show", { useInnerText: true });
  // The shell's phone layout follows a media query listener (a render after the resize): wait for it.
  await expect.poll(async () => (await banner.boundingBox())?.height ?? 100).toBeLessThan(48);
  await divider.scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath("divider-390.png") });
  await page.getByRole("button", { name: "Files and todos" }).first().click();
  await expect(page.getByRole("region", { name: /Pinned/ })).toContainText("Always answer in one line.");
  await page.screenshot({ path: test.info().outputPath("pinned-390.png") });
  await page.emulateMedia({ colorScheme: "dark" });
  await page.screenshot({ path: test.info().outputPath("pinned-390-dark.png") });

  // Reverting a turn the summary kept goes back in time: the summary written after it goes too, and the banner says so.
  await page.emulateMedia({ colorScheme: "light" });
  await page.setViewportSize({ width: 1400, height: 900 });
  const second = page.getByRole("article", { name: "Your message" }).filter({ hasText: "Second question." });
  await second.hover();
  await second.getByRole("button", { name: "Revert this turn" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Your last 2 messages and their answers were reverted, with the summary written after them, and the files restored." })).toBeVisible();
  await expect(page.getByRole("article", { name: "Summary" })).toHaveCount(0);
  await page.getByRole("button", { name: "Unrevert" }).click();
  await expect(page.getByRole("article", { name: "Summary" })).toBeVisible();

  // "undo" on the divider with a turn sent after the summary: it asks first, and the banner names the summary first.
  await divider.getByRole("button", { name: "Undo this compaction" }).click();
  const ask = page.getByRole("dialog", { name: "Undo this summary?" });
  await expect(ask).toContainText("The message you sent after it goes too, with its answer and the files they changed.");
  await ask.getByRole("button", { name: "Cancel" }).click();
  await expect(page.getByRole("article", { name: "Summary" })).toBeVisible();
  await divider.getByRole("button", { name: "Undo this compaction" }).click();
  await ask.getByRole("button", { name: "Undo the summary" }).click();
  await expect(page.getByRole("status").filter({ hasText: "The summary was undone, with your later message and its answer (files included): the model sees the conversation it replaced again." })).toBeVisible();
  await expect(page.getByRole("article").filter({ hasText: "Third answer." })).toHaveCount(0);
  await expect(page.getByRole("article").filter({ hasText: "Second answer." })).toBeVisible();
});
