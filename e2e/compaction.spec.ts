import { configure, newSession, openApp, send, storedMessages, waitIdle } from "./app";
import { expect, test } from "./fixtures";

/** ~48 KB of varied words: a read of it costs roughly 12k tokens. */
function bigFile(): string {
  const words = ["alpha", "parser", "render", "socket", "buffer", "stream", "index", "schema", "router", "module"];
  return Array.from({ length: 480 }, (_, i) => `${i}: ${Array.from({ length: 14 }, (_, k) => `${words[(i * 7 + k) % words.length]}${(i * 31 + k) % 997}`).join(" ")}`).join("\n");
}

test("a long session prunes old tool outputs, then summarises; it continues, the X-ray shows the boundary, undo works, reload keeps it", async ({ page, mock }) => {
  test.setTimeout(150_000);
  await openApp(page);
  // usable = 128k − 4k − 4k = 120k; auto-compaction at 85 % ≈ 102k tokens.
  await configure(page, mock, "openai-compatible", {
    models: { "gpt-4o-mini": { contextWindow: 128_000, maxOutputTokens: 4_000, prices: { input: 0.15, output: 0.6, cacheRead: 0.075, cacheWrite: 0 } } },
    compaction: { auto: true, prune: true, threshold: 0.85 },
  });
  const id = await newSession(page);
  await page.evaluate(
    async ({ id, text }) => {
      const t = (globalThis as unknown as { __tabcode: { sandbox: { sandboxFor(id: string): Promise<{ fs: { writeFile(p: string, d: string): Promise<void> } }> } } }).__tabcode;
      await (await t.sandbox.sandboxFor(id)).fs.writeFile("/workspace/big.txt", text);
    },
    { id, text: bigFile() },
  );

  let pruned = false;
  let turn = 0;
  while (mock.summaryRequests === 0 && turn < 16) {
    turn++;
    // One read (~12k tokens) per turn until pruning starts (turn 7), then more per turn than pruning can clear.
    const reads = turn < 8 ? 1 : turn === 8 ? 2 : 3;
    const calls = Array.from({ length: reads }, (_, i) => ({ name: "read", args: { filePath: "/workspace/big.txt", offset: 1 + i } }));
    // No scripted usage: the mock reports a size estimated from each request, as a provider would.
    mock.setScript([{ toolCalls: calls }, { text: `Turn ${turn} done.` }]);
    await send(page, `Read big.txt again (${turn})`);
    await waitIdle(page, id);
    const states = await page.evaluate(async (id) => {
      const t = (globalThis as unknown as { __tabcode: { store: { messages(id: string): Promise<{ parts: { type: string; state?: { time?: { compacted?: number } } }[] }[]> } } }).__tabcode;
      return (await t.store.messages(id)).flatMap((m) => m.parts).filter((p) => p.type === "tool").map((p) => Boolean(p.state?.time?.compacted));
    }, id);
    if (process.env.DEBUG_COMPACTION) console.log(turn, states.map((x) => (x ? "P" : "-")).join(""), mock.modelRequests().at(-1)?.rawBody.length);
    if (!pruned && states.some(Boolean)) {
      pruned = true;
      // Pruned outputs stay visible in the UI, marked as such (the oldest turns are at the top of the list).
      await page.locator(".message-scroll").evaluate((el) => el.scrollTo(0, 0));
      await expect(page.locator(".tool-status", { hasText: "pruned" }).first()).toBeVisible();
      await page.locator(".message-scroll").evaluate((el) => el.scrollTo(0, el.scrollHeight));
    }
    if (mock.summaryRequests === 0) expect(pruned || turn < 8, `prune happened by turn ${turn}`).toBe(true);
  }
  expect(pruned).toBe(true);
  expect(mock.summaryRequests).toBe(1);

  // The summary is in the conversation and the run continued after it.
  const summary = page.getByRole("article", { name: "Summary" });
  await expect(summary).toContainText("Read big.txt repeatedly");
  const stored = await storedMessages(page, id);
  const summaryIndex = stored.findIndex((m) => m.parts.some((p) => p.text?.includes("Read big.txt repeatedly")));
  expect(summaryIndex).toBeGreaterThan(0);
  expect(stored.length).toBeGreaterThan(summaryIndex + 1);

  // What the model saw after the summary: the summary, not the old reads.
  const after = mock.modelRequests().at(-1)?.rawBody ?? "";
  expect(after).toContain("What did we do so far?");
  expect(after).toContain("Read big.txt repeatedly");
  expect(after.split("0: alpha0").length - 1).toBeLessThan(3);

  await page.getByRole("button", { name: "Context X-ray" }).click();
  const xray = page.getByRole("dialog", { name: "Context X-ray" });
  await expect(xray.getByRole("listitem", { name: "Compaction boundary" })).toBeVisible();
  await expect(xray.getByRole("list", { name: "Context sections" })).toContainText("summarised away");
  await expect(xray.getByRole("list", { name: "Context sections" })).toContainText(/tool outputs? cleared/);
  await xray.getByRole("button", { name: "Close" }).click();

  // Reload keeps all of it.
  await page.reload();
  await expect(page.getByRole("article", { name: "Summary" })).toContainText("Read big.txt repeatedly");

  // The request is a system event (never "You"), with the number of messages it folded; undo reverts it.
  const request = page.getByRole("article", { name: "System event" }).filter({ hasText: /Compacted automatically: \d+ messages? → summary/ });
  await expect(request).toBeVisible();
  await expect(page.getByRole("article", { name: "Your message" }).filter({ hasText: /compaction|Continue if you have next steps/ })).toHaveCount(0);
  await request.getByRole("button", { name: "Undo this compaction" }).click();
  await expect(page.getByRole("article", { name: "Summary" })).toHaveCount(0);
  // Only the summary (and the work the model went on with) went: the banner says so, not "your message".
  await expect(page.getByRole("status").filter({ hasText: "The summary was undone, with what the model did after it: the model sees the conversation it replaced again" })).toBeVisible();
});

test("Compact now summarises on demand; with auto off a context overflow stops with a clear message", async ({ page, mock }) => {
  await openApp(page);
  await configure(page, mock, "openai-compatible", { compaction: { auto: false, prune: true, threshold: 1 } });
  const id = await newSession(page);
  // With nothing to summarise, the button still takes the keyboard and says why it cannot run; pressing it does nothing.
  const compactNow = page.getByRole("button", { name: "Compact now" });
  await expect(compactNow).toBeDisabled();
  await expect(compactNow).toHaveAccessibleDescription("Nothing to summarise yet");
  await compactNow.focus();
  await expect(compactNow).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("dialog")).toHaveCount(0);
  mock.setScript([{ text: "An answer." }, { error: { status: 400, body: { error: { message: "This model's maximum context length is 128000 tokens. However, your messages resulted in 200000 tokens.", type: "invalid_request_error", code: "context_length_exceeded", param: "messages" } } } }]);
  await send(page, "hello");
  await waitIdle(page, id);
  await page.getByRole("button", { name: "Compact now" }).click();
  await page.getByRole("dialog", { name: "Summarise the conversation?" }).getByRole("button", { name: "Summarise" }).click();
  await expect(page.getByRole("article", { name: "Summary" })).toContainText("Read big.txt repeatedly");
  await waitIdle(page, id);
  expect(mock.summaryRequests).toBe(1);

  // What the summary replaced is folded away and can be unfolded.
  await expect(page.getByRole("article").filter({ hasText: "An answer." })).toHaveCount(0);
  await page.getByRole("button", { name: "Show what the summary replaced" }).click();
  await expect(page.getByRole("article").filter({ hasText: "An answer." })).toBeVisible();
  // The summary can be corrected before the conversation goes on; the model gets the corrected text.
  const summary = page.getByRole("article", { name: "Summary" });
  await summary.hover();
  await summary.getByRole("button", { name: "Edit summary" }).click();
  await page.getByRole("textbox", { name: "Edited summary" }).fill("## Goal\nCorrected by the user.");
  await page.getByRole("button", { name: "Save summary" }).click();
  await expect(summary).toContainText("Corrected by the user.");
  await expect(summary.getByRole("button", { name: "Edit summary" })).toBeFocused();

  // The X-ray offers the next request as JSON, without the key.
  await page.getByRole("button", { name: "Context X-ray" }).click();
  const xray = page.getByRole("dialog", { name: "Context X-ray" });
  await expect(xray.getByRole("status").first()).toContainText("Estimated input cost");
  await xray.getByRole("button", { name: "Copy request" }).click();
  await expect(xray.getByText(/Copied the request as JSON|the request is below/)).toBeVisible();
  await xray.getByRole("button", { name: "Close" }).click();

  await send(page, "a huge question");
  await expect(page.getByRole("alert").filter({ hasText: "too long for this model" })).toBeVisible();
  await waitIdle(page, id);
  expect(mock.summaryRequests).toBe(1);
  const last = mock.modelRequests().at(-1)?.rawBody ?? "";
  expect(last).toContain("Corrected by the user.");
  expect(last).not.toContain("An answer.");
});
