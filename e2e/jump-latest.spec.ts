/**
 * Reading up a long conversation: a "Latest" button brings the newest message back, says when new
 * messages arrived meanwhile, and hands the keyboard to the message box.
 */
import { configure, newSession, openApp, send, waitIdle } from "./app";
import { expect, test } from "./fixtures";
import { seriousAxe, shoot } from "./views";

const long = (n: number) => Array.from({ length: 40 }, (_, i) => `Answer ${n}, line ${i + 1}: some words to read.`).join("\n\n");

test("Latest: shown when the newest message is out of sight, says when more arrived, and jumps back", async ({ page, mock }) => {
  test.setTimeout(90_000);
  await openApp(page);
  await configure(page, mock, "openai-compatible");
  const id = await newSession(page);
  mock.setScript([
    { text: long(1) },
    { text: long(2) },
    { text: long(3) },
    { toolCalls: [{ name: "bash", args: { command: "sleep 2", description: "wait a moment" } }] },
    { text: long(4) },
  ]);
  await send(page, "first");
  await waitIdle(page, id);
  await send(page, "second");
  await waitIdle(page, id);
  const list = page.locator(".message-scroll");
  const latest = page.getByRole("button", { name: /jump to the newest message/ });
  // At the bottom: no button.
  await expect(page.getByText("Answer 2, line 40:")).toBeInViewport();
  await expect(latest).toHaveCount(0);

  await list.evaluate((el) => el.scrollTo({ top: 0 }));
  await expect(latest).toBeVisible();
  await expect(latest).toHaveText(/^Latest/);
  expect(await seriousAxe(page, ".jump-dock")).toEqual([]);
  await shoot(page, "jump-latest-desktop");

  // Sending from up the conversation brings it back down: the answer is what the person wants to see.
  await page.getByRole("textbox", { name: "Message" }).fill("third");
  await page.getByRole("textbox", { name: "Message" }).press("Enter");
  await waitIdle(page, id);
  await expect(page.getByText("Answer 3, line 40:")).toBeInViewport();
  await expect(latest).toHaveCount(0);

  // A message arrives while the reader is up the conversation (the next step of a run): the button says so,
  // and the list stays where the reader is.
  await send(page, "fourth");
  await expect(page.getByRole("group", { name: /Tool bash/ })).toBeVisible();
  // The reader scrolls up with the wheel at once, while the send's jump to the end may still be settling and the
  // run goes on: the list lets go of the bottom and stays where the reader took it.
  const box = await list.boundingBox();
  await page.mouse.move((box?.x ?? 0) + 200, (box?.y ?? 0) + 200);
  await page.mouse.wheel(0, -100_000);
  // At the top, give or take the few pixels a row measured on coming into view may move it (seen once: 19 px);
  // pulled back to the bottom it would be thousands.
  const nearTop = 60;
  await expect.poll(() => list.evaluate((el) => el.scrollTop)).toBeLessThan(nearTop);
  await expect(latest).toHaveText(/^Latest/);
  await waitIdle(page, id);
  await expect(latest).toHaveText(/^New messages/);
  expect(await list.evaluate((el) => el.scrollTop)).toBeLessThan(nearTop);
  await latest.click();
  await expect(page.getByText("Answer 4, line 40:")).toBeInViewport();
  await expect(latest).toHaveCount(0);
  await expect(page.getByRole("textbox", { name: "Message" })).toBeFocused();

  // On a phone too.
  await page.setViewportSize({ width: 390, height: 844 });
  await list.evaluate((el) => el.scrollTo({ top: 0 }));
  await expect(latest).toBeInViewport();
  await shoot(page, "jump-latest-phone");
  await latest.click();
  await expect(page.getByText("Answer 4, line 40:")).toBeInViewport();
});
