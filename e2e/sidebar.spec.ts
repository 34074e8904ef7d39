import { configure, newSession, openApp, send, waitIdle } from "./app";
import { expect, test } from "./fixtures";

test("session list: full title on hover, Today group, pinning, fork mark, archive icon, honest delete wording", async ({ page, mock }) => {
  await openApp(page);
  await configure(page, mock, "openai-compatible");
  const id = await newSession(page);
  mock.setScript([{ text: "An answer." }]);
  await send(page, "a question with a rather long title that will not fit");
  await waitIdle(page, id);
  const nav = page.getByRole("navigation", { name: "Sessions" });
  const today = nav.getByRole("region", { name: "Today" });
  await expect(today.getByRole("heading", { name: "Today" })).toBeVisible();
  const item = today.getByRole("listitem").first();
  const link = item.getByRole("button").first();
  await expect(link).toHaveAttribute("title", "Mock session title");

  await item.hover();
  await item.getByRole("button", { name: "Pin Mock session title" }).click();
  const pinned = nav.getByRole("region", { name: "Pinned" });
  await expect(pinned.getByRole("img", { name: "pinned" })).toBeVisible();
  await expect(nav.getByRole("region", { name: "Today" })).toHaveCount(0);
  await pinned.getByRole("button", { name: "Unpin Mock session title" }).click();
  await expect(nav.getByRole("region", { name: "Pinned" })).toHaveCount(0);

  // A fork is marked as one.
  const answer = page.getByRole("article", { name: "Assistant message" });
  await answer.hover();
  await answer.getByRole("button", { name: "Fork from this message" }).click();
  await expect(nav.getByRole("img", { name: "fork" })).toHaveCount(1);

  await expect(nav.getByRole("button", { name: /^Archive / }).first()).toHaveAttribute("title", /Archive: hide from the list/);
  await nav.getByRole("button", { name: /^Delete Mock session title \(fork/ }).click();
  const dialog = page.getByRole("dialog", { name: "Delete this session?" });
  await expect(dialog).toContainText("You can undo it");
  await expect(dialog).not.toContainText("cannot be undone");
  await dialog.getByRole("button", { name: "Cancel" }).click();
});

test("answers: Retry on an error card, Regenerate as a new branch, Continue where an answer was cut", async ({ page, mock }) => {
  await openApp(page);
  await configure(page, mock, "openai-compatible");
  const id = await newSession(page);
  mock.setScript([{ error: { status: 401 } }, { text: "Now it works." }, { text: "A second take." }, { text: "The answer stops mid", finish: "length" }, { text: "…dle and goes on." }]);
  await send(page, "hello");
  await waitIdle(page, id);
  const card = page.getByRole("alert").filter({ hasText: "The provider rejected the API key" });
  await expect(card).toBeVisible();
  await card.getByRole("button", { name: "Retry" }).click();
  await expect(page.getByRole("article").filter({ hasText: "Now it works." })).toBeVisible();
  await waitIdle(page, id);
  // The retry is a new branch of the same question; the failed attempt stays one click away.
  await expect(page.getByRole("navigation", { name: "Branches of this message" })).toContainText("2/2");

  const answer = page.getByRole("article", { name: "Assistant message" }).filter({ hasText: "Now it works." });
  await answer.hover();
  await answer.getByRole("button", { name: "Regenerate" }).click();
  await expect(page.getByRole("article").filter({ hasText: "A second take." })).toBeVisible();
  await waitIdle(page, id);
  await expect(page.getByRole("navigation", { name: "Branches of this message" })).toContainText("3/3");

  await send(page, "tell a long story");
  await waitIdle(page, id);
  const cut = page.getByRole("status").filter({ hasText: "cut at the output limit" });
  await cut.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByRole("article").filter({ hasText: "…dle and goes on." })).toBeVisible();
});
