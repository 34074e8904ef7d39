import { configure, configureViaDialog, newSession, openApp, type ProviderKind, send, storedMessages, waitIdle } from "./app";
import { expect, test } from "./fixtures";

const todos = [
  { id: "1", content: "Read the parser", status: "completed", priority: "high" },
  { id: "2", content: "Fix the bug", status: "in_progress", priority: "high" },
];

for (const provider of ["openai-compatible", "openai"] as ProviderKind[]) {
  test(`${provider}: streamed text, a tool call, the final answer, usage and cost survive a reload`, async ({ page, mock }) => {
    mock.setScript([
      { text: "Let me plan this first.", toolCalls: [{ name: "todowrite", args: { todos } }], usage: { input: 1200, output: 40, cached: 1000 } },
      {
        text: "The plan is ready and the first item is done. Now I will explain the remaining work in a few more words so the stream takes a while.",
        chunkDelayMs: 40,
        usage: { input: 1400, output: 60, cached: 1200 },
      },
    ]);
    await openApp(page);
    await configureViaDialog(page, mock, provider);
    const id = await newSession(page);
    await send(page, "Fix the parser");

    // Incremental: part of the answer is visible before all of it is.
    const answer = page.getByRole("article").filter({ hasText: "The plan is ready" });
    await expect(answer).toBeVisible();
    await expect(answer).not.toContainText("takes a while");
    await expect(answer).toContainText("takes a while.");

    await expect(page.getByRole("group", { name: "Tool todowrite: done" })).toBeVisible();
    await expect(page.getByRole("complementary", { name: "Todo list" })).toContainText("Fix the bug");
    await waitIdle(page, id);

    // What the app sent: the key only in the Authorization header; the tool result in the second call.
    const reqs = mock.modelRequests();
    expect(reqs).toHaveLength(2);
    expect(reqs[0]?.headers.authorization).toBe("Bearer sk-test-e2e-key-123456");
    expect(reqs[0]?.path).toBe(provider === "openai" ? "/v1/responses" : "/v1/chat/completions");
    expect(reqs[1]?.rawBody).toContain("Fix the bug");
    if (provider === "openai") expect((reqs[0]?.body as { store?: boolean } | undefined)?.store).toBe(false);

    const stored = await storedMessages(page, id);
    expect(stored.map((m) => m.role)).toEqual(["user", "assistant", "assistant"]);
    expect(stored[1]?.parts.find((p) => p.type === "tool")?.status).toBe("completed");
    expect(stored[2]?.finish).toBe("stop");
    // gpt-4o-mini: 200 input, 1,000 cached, 40 output → (200×0.15 + 1000×0.075 + 40×0.6) / 1e6
    expect(stored[1]?.cost).toBeCloseTo((200 * 0.15 + 1000 * 0.075 + 40 * 0.6) / 1e6, 10);

    await page.reload();
    await expect(page.getByRole("article").filter({ hasText: "The plan is ready" })).toContainText("takes a while.");
    await expect(page.getByRole("group", { name: "Tool todowrite: done" })).toBeVisible();
    await expect(page.getByTestId("session-tokens")).toContainText("cached");
    // Two significant digits below ten cents: two steps of ~$0.00013.
    await expect(page.getByTestId("session-cost")).toHaveText(/^\$0\.000\d\d$/);
    await expect(page.getByRole("meter", { name: "Context window used" })).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Sessions" })).toContainText("Mock session title");
  });
}

test("Stop aborts mid-stream and keeps the partial answer", async ({ page, mock }) => {
  mock.setScript([{ text: Array.from({ length: 80 }, (_, i) => `word${i}`).join(" "), chunkDelayMs: 50 }]);
  await openApp(page);
  await configure(page, mock, "openai-compatible");
  const id = await newSession(page);
  await send(page, "Write a lot");
  await expect(page.getByRole("article").filter({ hasText: "word3 " })).toBeVisible();
  await page.getByRole("button", { name: "Stop" }).click();
  await waitIdle(page, id);
  await expect(page.getByRole("note")).toContainText("Stopped");
  const stored = await storedMessages(page, id);
  expect(stored[1]?.error?.name).toBe("MessageAbortedError");
  const text = stored[1]?.parts.find((p) => p.type === "text")?.text ?? "";
  expect(text).toContain("word3");
  expect(text).not.toContain("word79");
  // The session can go on.
  mock.setScript([{ text: "continuing" }]);
  await send(page, "go on");
  await expect(page.getByRole("article").filter({ hasText: "continuing" })).toBeVisible();
});

test("Esc stops a run too", async ({ page, mock }) => {
  mock.setScript([{ text: Array.from({ length: 60 }, (_, i) => `tok${i}`).join(" "), chunkDelayMs: 50 }]);
  await openApp(page);
  await configure(page, mock, "openai-compatible");
  const id = await newSession(page);
  await send(page, "Write");
  await expect(page.getByRole("article").filter({ hasText: "tok2 " })).toBeVisible();
  await page.keyboard.press("Escape");
  await waitIdle(page, id);
  expect((await storedMessages(page, id))[1]?.error?.name).toBe("MessageAbortedError");
});

const failures: { name: string; turn: Parameters<import("./fixtures").MockOpenAI["setScript"]>[0][number]; headline: RegExp; message: RegExp }[] = [
  { name: "wrong key (401)", turn: { error: { status: 401 } }, headline: /rejected the API key/, message: /Incorrect API key/ },
  { name: "unknown model (404)", turn: { error: { status: 404 } }, headline: /not found/, message: /does not exist/ },
  { name: "context length exceeded", turn: { error: { status: 400, body: { error: { message: "This model's maximum context length is 128000 tokens. However, your messages resulted in 130000 tokens.", type: "invalid_request_error", code: "context_length_exceeded", param: "messages" } } } }, headline: /too long for this model/, message: /maximum context length/ },
  { name: "stream cut mid-way", turn: { text: "partial answer that will be cut", cutAfterChunks: 3 }, headline: /cut off/, message: /could not be read|ended/ },
];

test("a malformed chunk mid-stream is reported, and the rest of the answer, its usage and finish still count", async ({ page, mock }) => {
  mock.setScript([{ text: "hello there, the whole answer", malformed: true }]);
  await openApp(page);
  await configure(page, mock, "openai-compatible");
  const id = await newSession(page);
  await send(page, "hello");
  await waitIdle(page, id);
  await expect(page.getByRole("article").filter({ hasText: "hello there, the whole answer" })).toBeVisible({ timeout: 20_000 });
  await expect(page.getByRole("note").filter({ hasText: "could not read" })).toBeVisible();
  const stored = await storedMessages(page, id);
  expect(stored[1]?.error).toBeUndefined();
  expect(stored[1]?.finish).toBe("stop");
});

for (const f of failures) {
  test(`failure: ${f.name} shows its state and the provider's message`, async ({ page, mock }) => {
    mock.setScript([f.turn]);
    await openApp(page);
    await configure(page, mock, "openai-compatible", { compaction: { auto: false, prune: true, threshold: 1 } });
    const id = await newSession(page);
    await send(page, "hello");
    const alert = page.getByRole("alert").filter({ hasText: f.headline });
    await expect(alert).toBeVisible();
    await expect(alert).toContainText(f.message);
    await waitIdle(page, id);
    await expect(alert).not.toContainText("sk-test-e2e-key-123456");
  });
}

test("rate limit: 429 with retry-after shows a retry part and then succeeds", async ({ page, mock }) => {
  mock.setScript([{ error: { status: 429, headers: { "retry-after": "1", "retry-after-ms": "1000" } } }, { text: "Worked on the second try." }]);
  await openApp(page);
  await configure(page, mock, "openai-compatible");
  const id = await newSession(page);
  await send(page, "hi");
  await expect(page.getByRole("status").filter({ hasText: /Attempt 1 failed/ })).toContainText(/retrying/);
  await expect(page.getByRole("article").filter({ hasText: "Worked on the second try." })).toBeVisible();
  await waitIdle(page, id);
  expect(mock.modelRequests()).toHaveLength(2);
  const stored = await storedMessages(page, id);
  expect(stored[1]?.parts.map((p) => p.type)).toContain("retry");
  expect(stored[1]?.error).toBeUndefined();
});

test("a long retry-after can be cut short: Retry now sends the request again at once", async ({ page, mock }) => {
  mock.setScript([{ error: { status: 429, headers: { "retry-after": "120", "retry-after-ms": "120000" } } }, { text: "Worked right away, streamed slowly enough to look at the line meanwhile.", chunkDelayMs: 80 }]);
  await openApp(page);
  await configure(page, mock, "openai-compatible");
  const id = await newSession(page);
  await send(page, "hi");
  const line = page.getByRole("status").filter({ hasText: /Attempt 1 failed/ });
  await expect(line).toContainText(/retrying in 1[12]\d s/);
  await line.getByRole("button", { name: "Retry now" }).click();
  // The wait is over at once: the line stops counting down and no longer offers the button.
  await expect(line).toContainText("retrying…");
  await expect(line.getByRole("button", { name: "Retry now" })).toHaveCount(0);
  await expect(page.getByRole("article").filter({ hasText: "Worked right away" })).toBeVisible();
  await waitIdle(page, id);
  expect(mock.modelRequests()).toHaveLength(2);
});

test("server error: 503 is retried with backoff and then succeeds", async ({ page, mock }) => {
  mock.setScript([{ error: { status: 503 } }, { text: "Back online." }]);
  await openApp(page);
  await configure(page, mock, "openai-compatible");
  const id = await newSession(page);
  await send(page, "hi");
  await expect(page.getByRole("article").filter({ hasText: "Back online." })).toBeVisible({ timeout: 10_000 });
  await waitIdle(page, id);
  expect(mock.modelRequests()).toHaveLength(2);
});

test("network down: says the server is unreachable or refuses browser calls, and how to allow them", async ({ page, mock }) => {
  await openApp(page);
  await configure(page, mock, "openai-compatible", { baseURL: "http://127.0.0.1:9/v1" });
  const id = await newSession(page);
  await send(page, "hi");
  const alert = page.getByRole("alert").filter({ hasText: "Could not reach the provider" });
  await expect(alert).toBeVisible();
  await expect(alert).toContainText(/CORS|browser/i);
  await expect(alert).toContainText("OLLAMA_ORIGINS");
  await waitIdle(page, id);
});

test("a prompt sent during a run is queued and answered after it", async ({ page, mock }) => {
  // Long enough (~5 s) that the first answer is still streaming when the second prompt is typed and sent, also on a loaded machine.
  mock.setScript([{ text: Array.from({ length: 120 }, (_, i) => `a${i}`).join(" "), chunkDelayMs: 40 }, { text: "Second answer." }]);
  await openApp(page);
  await configure(page, mock, "openai-compatible");
  const id = await newSession(page);
  await send(page, "first");
  await expect(page.getByRole("article").filter({ hasText: "a2 " })).toBeVisible();
  await send(page, "second");
  await expect(page.getByText("1 queued")).toBeVisible();
  await expect(page.getByRole("article").filter({ hasText: "Second answer." })).toBeVisible();
  await waitIdle(page, id);
  const stored = await storedMessages(page, id);
  expect(stored.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant"]);
  expect(stored[1]?.parts.find((p) => p.type === "text")?.text).toContain("a119");
});

test("Stop with a prompt queued: the queued prompt is said to have no answer, and can be answered", async ({ page, mock }) => {
  mock.setScript([{ text: Array.from({ length: 120 }, (_, i) => `a${i}`).join(" "), chunkDelayMs: 40 }, { text: "Answer to the queued one." }]);
  await openApp(page);
  await configure(page, mock, "openai-compatible");
  const id = await newSession(page);
  await send(page, "first");
  await expect(page.getByRole("article").filter({ hasText: "a2 " })).toBeVisible();
  await send(page, "queued second");
  await expect(page.getByText("1 queued")).toBeVisible();
  await page.getByRole("button", { name: "Stop" }).click();
  // Idle, with the queued prompt last (waitIdle waits for an answer to be last).
  await expect.poll(() => page.evaluate((id) => (globalThis as unknown as { __tabcode: { sessions: { isBusy(id: string): boolean } } }).__tabcode.sessions.isBusy(id), id)).toBe(false);
  const bar = page.getByRole("status").filter({ hasText: "Your last message has no answer" });
  await expect(bar).toBeVisible();
  // The stopped answer is no longer the newest: its Continue would act on the queued message, so it is not offered.
  await expect(page.getByRole("note").filter({ hasText: "Stopped" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Continue" })).toHaveCount(0);
  expect(mock.modelRequests()).toHaveLength(1);
  await bar.getByRole("button", { name: "Answer it now" }).click();
  await expect(page.getByRole("article").filter({ hasText: "Answer to the queued one." })).toBeVisible();
  await waitIdle(page, id);
  await expect(bar).toHaveCount(0);
  // The model got both messages, and the stopped answer's text between them.
  expect(mock.modelRequests()[1]?.rawBody).toMatch(/first[\s\S]*a2 [\s\S]*queued second/);
});

test("killing the tab mid-stream keeps the partial answer, marked interrupted, and the session continues", async ({ context, mock }) => {
  mock.setScript([{ text: Array.from({ length: 40 }, (_, i) => `part${i}`).join(" "), chunkDelayMs: 30, hangAfterChunks: 25 }]);
  const page = await context.newPage();
  await openApp(page);
  await configure(page, mock, "openai-compatible");
  const id = await newSession(page);
  await send(page, "stream then die");
  await expect(page.getByRole("article").filter({ hasText: "part20" })).toBeVisible();
  await page.waitForTimeout(400); // ≥ one batched write after the last delta
  await page.close({ runBeforeUnload: false });

  const again = await context.newPage();
  await again.goto(`/#/s/${id}`);
  await expect(again.getByRole("article").filter({ hasText: "stream then die" })).toBeVisible();
  await expect(again.getByRole("article").filter({ hasText: "part20" })).toBeVisible();
  await expect(again.getByRole("note")).toContainText(/Interrupted/);
  const stored = await storedMessages(again, id);
  expect(stored[1]?.error?.name).toBe("MessageAbortedError");
  expect(stored.flatMap((m) => m.parts).some((p) => p.status === "running" || p.status === "pending")).toBe(false);
  mock.setScript([{ text: "Picked up again." }]);
  await send(again, "continue");
  await expect(again.getByRole("article").filter({ hasText: "Picked up again." })).toBeVisible();
});

test("Test connection reports success, and the provider's own words on failure", async ({ page, mock }) => {
  await openApp(page);
  await page.getByRole("button", { name: "Settings" }).click();
  const dialog = page.getByRole("dialog", { name: "Settings" });
  await dialog.getByLabel("Provider", { exact: true }).selectOption("openai-compatible");
  await dialog.getByLabel("Base URL", { exact: true }).fill(mock.baseURL);
  await dialog.getByLabel("Model", { exact: true }).fill("gpt-4o-mini");
  await dialog.getByLabel("API key", { exact: true }).fill("sk-wrong-key-000000");
  mock.setScript([{ text: "OK" }, { error: { status: 401 } }]);
  await dialog.getByRole("button", { name: "Test connection" }).click();
  // The answer shows right under the button, without scrolling the dialog.
  await expect(dialog.getByText("Connected. The model answered: “OK”")).toBeInViewport();
  await dialog.getByRole("button", { name: "Test connection" }).click();
  const alert = dialog.getByRole("alert");
  await expect(alert).toContainText("The provider rejected the API key");
  await expect(alert).toBeInViewport({ ratio: 0.5 });
  // The advice points at the fields above, not at the Settings the user is in.
  await expect(alert).toContainText("Check it above.");
  await expect(alert).not.toContainText("in Settings");
  await expect(alert).toContainText("Incorrect API key provided");
  await expect(alert).not.toContainText("sk-wrong-key-000000");
  // Cancel keeps the old settings (after asking: the changes are not saved).
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await dialog.getByRole("alertdialog", { name: "You have unsaved changes to the settings." }).getByRole("button", { name: "Discard changes" }).click();
  await page.getByRole("button", { name: "Settings" }).click();
  await expect(page.getByRole("dialog", { name: "Settings" }).getByLabel("Provider", { exact: true })).toHaveValue("demo");
});

test("a stream that goes quiet is said after 45 s (not at 30), and the notice goes when the run is stopped", async ({ page, mock }) => {
  await page.clock.install();
  mock.setScript([{ text: "first words then nothing more", hangAfterChunks: 3 }]);
  await openApp(page);
  await configure(page, mock, "openai-compatible");
  const id = await newSession(page);
  await send(page, "go");
  await expect(page.getByRole("article").filter({ hasText: "first" })).toBeVisible();
  const quiet = page.getByRole("status").filter({ hasText: "Nothing has come from the provider for 45 s" });
  await page.clock.fastForward(30_000);
  await expect(quiet).toHaveCount(0);
  await page.clock.fastForward(16_000);
  await expect(quiet).toBeVisible();
  await page.getByRole("button", { name: "Stop" }).click();
  await expect(quiet).toHaveCount(0);
  await expect.poll(() => page.evaluate((id) => (globalThis as unknown as { __tabcode: { sessions: { isBusy(id: string): boolean } } }).__tabcode.sessions.isBusy(id), id)).toBe(false);
});
