/**
 * Storage fills up while an answer streams: what is on screen stays there (kept in memory and
 * retried), the user is told and can download the answer, and after a reload the message says
 * storage was full — not that the tab was closed.
 */
import { readFile } from "node:fs/promises";
import { configure, newSession, openApp, send } from "./app";
import { expect, test } from "./fixtures";

test("storage full mid-stream: the answer stays on screen, can be downloaded, and is labelled as such after a reload", async ({ context, mock }) => {
  test.setTimeout(60_000);
  const words = Array.from({ length: 60 }, (_, i) => `word${i}`);
  mock.setScript([{ text: words.map((w) => `${w} `), chunkDelayMs: 40 }]);
  const page = await context.newPage();
  await openApp(page);
  await configure(page, mock, "openai-compatible");
  const id = await newSession(page);
  // From the moment the flag is set, IndexedDB refuses to store text of parts, like a full disk.
  await page.evaluate(() => {
    const w = window as unknown as { __full?: boolean };
    const put = IDBObjectStore.prototype.put;
    IDBObjectStore.prototype.put = function (this: IDBObjectStore, value: unknown, key?: IDBValidKey) {
      const row = value as { id?: unknown; text?: unknown };
      if (w.__full && typeof row?.id === "string" && row.id.startsWith("prt_") && typeof row.text === "string" && row.text.length > 0)
        throw new DOMException("The quota has been exceeded.", "QuotaExceededError");
      return put.call(this, value, key);
    };
  });
  await send(page, "write a lot");
  await expect(page.getByRole("article").filter({ hasText: "word10" })).toBeVisible();
  await page.waitForTimeout(400); // the first words are stored
  await page.evaluate(() => {
    (window as unknown as { __full?: boolean }).__full = true;
  });
  await expect(page.getByRole("article").filter({ hasText: "word59" })).toBeVisible({ timeout: 20_000 });

  const banner = page.getByRole("alert").filter({ hasText: "storage is full" });
  await expect(banner).toBeVisible();
  await expect(banner).toContainText("exist only on this screen");
  const download = page.waitForEvent("download");
  await banner.getByRole("button", { name: "Download the answer" }).click();
  const file = await (await download).path();
  const text = await readFile(file, "utf8");
  expect(text).toContain("word0");
  expect(text).toContain("word59");
  // The banner is the one place that says so: no toast repeats it over the banner's button.
  await expect(page.getByRole("button", { name: "Stop" })).toHaveCount(0, { timeout: 20_000 });
  await expect(page.getByRole("region", { name: "Notifications" }).getByRole("alert")).toHaveCount(0);

  // The tab goes away before space returned.
  await page.close({ runBeforeUnload: false });
  const again = await context.newPage();
  await again.goto(`/#/s/${id}`);
  await expect(again.getByRole("article").filter({ hasText: "word5" }).first()).toBeVisible();
  // The answer says why it stopped: storage was full (the loop stored that reason; repair would too).
  const answer = again.getByRole("article", { name: "Assistant message" });
  await expect(answer).toContainText(/storage .*full/i);
  await expect(answer).not.toContainText("closed");
});
