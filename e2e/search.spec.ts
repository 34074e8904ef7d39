import { configure, newSession, openApp, send, waitIdle } from "./app";
import { expect, test } from "./fixtures";

test("search finds titles and content across sessions and jumps to the message", async ({ page, mock }) => {
  mock.setScript([
    { text: "## Notes\n\nThe **flamingo** module parses `dates` (see [the docs](https://example.com/flamingo)).", toolCalls: [{ name: "todowrite", args: { todos: [{ id: "1", content: "inspect walrus config", status: "pending", priority: "low" }] } }] },
    { text: "Done looking." },
    { text: "Unrelated answer about penguins." },
  ]);
  await openApp(page);
  await configure(page, mock, "openai-compatible");
  const first = await newSession(page);
  await send(page, "Tell me about the flamingo module");
  await waitIdle(page, first);
  const second = await newSession(page);
  await send(page, "And penguins?");
  await waitIdle(page, second);

  const search = page.getByRole("searchbox", { name: "Search sessions" });
  await search.fill("flaming");
  const results = page.getByRole("region", { name: "Search results" });
  await expect(results.getByRole("button")).not.toHaveCount(0);
  await expect(results).toContainText("flamingo");
  await expect(results).not.toContainText("penguins");
  // The snippet reads as the message does (no markdown marks, no link target), the searched word marked.
  await expect(results).toContainText("Notes · The flamingo module parses dates (see the docs).");
  await expect(results).not.toContainText("**");
  await expect(results).not.toContainText("example.com");
  await expect(results.locator("mark").first()).toHaveText(/^flaming$/i);
  await page.screenshot({ path: test.info().outputPath("search-1400.png") });
  // How many were found is announced; ↓ goes into the results, ↑ back to the box.
  await expect(page.getByRole("status").filter({ hasText: /^\d+ results?\. Press Down/ })).toBeAttached();
  await search.press("ArrowDown");
  await expect(results.getByRole("button").first()).toBeFocused();
  await page.keyboard.press("ArrowUp");
  await expect(search).toBeFocused();

  // A tool input is searchable too.
  await search.fill("walrus");
  await expect(results.getByRole("button")).toHaveCount(1);
  await expect(page.getByRole("status").filter({ hasText: /^1 result\. / })).toBeAttached();
  await search.fill("flamingo module parses");
  // The click goes to this query's result: the list still shows the last query's for a moment (a click then
  // can land as the list is replaced, and no click event reaches either button).
  await results.getByRole("button", { name: /The flamingo module parses dates/ }).click();
  await expect(page).toHaveURL(new RegExp(`#/s/${first}/m/msg_`));
  await expect(page.locator("article.highlighted")).toContainText("flamingo module parses");
  // An opened session puts the focus in its composer (an effect after its first paint): typing in the search box
  // before that would lose the keys to the composer.
  const composer = page.getByRole("textbox", { name: "Message" });
  await expect(composer).toBeFocused();

  // The list holds still under a pressed pointer: the results of a query typed meanwhile wait for the release,
  // so the press opens what it pressed (replaced under it, no row would get the click).
  await search.fill("penguins");
  const penguins = results.getByRole("button", { name: /penguins/ }).first();
  const box = await penguins.boundingBox();
  if (!box) throw new Error("no result to press");
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await search.fill("flamingo");
  await page.waitForTimeout(600);
  await expect(results).toContainText("penguins");
  await page.mouse.up();
  await expect(page).toHaveURL(new RegExp(`#/s/${second}`));
  await expect(composer).toBeFocused();

  await search.fill("zzzznothing");
  await expect(results).toContainText("Nothing found");
  await expect(page.getByRole("status").filter({ hasText: "Nothing found." })).toBeAttached();

  // Enter in the box opens the first result.
  await search.fill("walrus");
  await expect(results.getByRole("button")).toHaveCount(1);
  await search.press("Enter");
  await expect(page).toHaveURL(new RegExp(`#/s/${first}/m/msg_`));
  await expect(search).toHaveValue("");
});

test("a hit on a branch not shown, or in a reverted turn, says so; Show that branch shows it", async ({ page, mock }) => {
  mock.setScript([{ text: "Zebrafish live in rivers." }, { text: "Goldfish instead." }, { text: "Narwhals have a tusk." }]);
  await openApp(page);
  await configure(page, mock, "openai-compatible");
  const id = await newSession(page);
  await send(page, "Tell me about zebrafish");
  await waitIdle(page, id);
  // Edit the question: the zebrafish answer is now on the branch not shown.
  const question = page.getByRole("article", { name: "Your message" });
  // Every message's buttons share their names; their description says which message.
  await expect(question.getByRole("button", { name: "Revert this turn" })).toHaveAccessibleDescription(/^You \w{3} \d+, \d\d:\d\d/);
  await expect(page.getByRole("article", { name: "Assistant message" }).getByRole("button", { name: "Fork from this message" })).toHaveAccessibleDescription(/^tabcode /);
  await question.hover();
  await question.getByRole("button", { name: "Edit this message" }).click();
  await page.getByRole("textbox", { name: "Edited message" }).fill("Tell me about goldfish");
  await page.getByRole("button", { name: "Send as a new branch" }).click();
  await expect(page.getByRole("article").filter({ hasText: "Goldfish instead." })).toBeVisible();
  await waitIdle(page, id);

  const search = page.getByRole("searchbox", { name: "Search sessions" });
  await search.fill("zebrafish rivers");
  await page.getByRole("region", { name: "Search results" }).getByRole("button", { name: /Zebrafish live in rivers/ }).click();
  const note = page.getByRole("status").filter({ hasText: "The message you opened is on another branch of this conversation." });
  await expect(note).toBeVisible();
  await note.getByRole("button", { name: "Show that branch" }).click();
  await expect(page.locator("article.highlighted")).toContainText("Zebrafish live in rivers.");
  await expect(note).toHaveCount(0);

  // A reverted turn: the note says how to see it again.
  await send(page, "And narwhals?");
  await waitIdle(page, id);
  const narwhals = page.getByRole("article", { name: "Your message" }).filter({ hasText: "And narwhals?" });
  await narwhals.hover();
  await narwhals.getByRole("button", { name: "Revert this turn" }).click();
  await expect(page.getByRole("button", { name: "Unrevert" })).toBeVisible();
  await search.fill("narwhals tusk");
  await page.getByRole("region", { name: "Search results" }).getByRole("button", { name: /Narwhals have a tusk/ }).click();
  await expect(page.getByRole("status").filter({ hasText: "The message you opened was reverted: Unrevert shows it again." })).toBeVisible();
});
