/**
 * Record-replay through the built app: recorded provider streams (e2e/fixtures/providers,
 * cited in MANIFEST.md) replayed by the mock server on each provider's own path and framing,
 * with each preset's own AI SDK package in the browser. Asserts what the user sees and what
 * the next request carries.
 */
import { recordedChunks, type Rewrite } from "../src/testing/replay";
import { newSession, openApp, send, storedMessages, waitIdle } from "./app";
import { expect, type MockOpenAI, test } from "./fixtures";
import type { Page } from "@playwright/test";

type Obj = Record<string, unknown>;

/** The `messages` of a recorded request body ([] when absent). */
const messagesOf = (body: unknown): Obj[] => {
  const m = typeof body === "object" && body !== null ? (body as Obj).messages : undefined;
  return Array.isArray(m) ? (m as Obj[]) : [];
};

/** The machine is shared: wait on what the user sees, generously. */
const SLOW = { timeout: 20_000 };

/** Chooses a preset in Settings as a user would, then points it at the mock. */
async function choosePreset(page: Page, mock: MockOpenAI, label: string, model: string, baseURL = mock.baseURL): Promise<void> {
  await page.getByRole("button", { name: "Settings" }).click();
  const dialog = page.getByRole("dialog", { name: "Settings" });
  await dialog.getByLabel("Provider", { exact: true }).selectOption({ label });
  await expect(dialog.getByTestId("provider-notes")).toContainText("key");
  await dialog.getByLabel("Base URL", { exact: true }).fill(baseURL);
  await dialog.getByLabel("Model", { exact: true }).fill(model);
  await dialog.getByLabel("API key", { exact: true }).fill("sk-test-e2e-key-123456");
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(dialog).toBeHidden();
}

/** The recorded `weather` call turned into a call of tabcode's todowrite tool (a declared rewrite). */
const TODO_ARGS = '{\\"todos\\":[{\\"id\\":\\"1\\",\\"content\\":\\"Check the weather\\",\\"status\\":\\"in_progress\\",\\"priority\\":\\"high\\"}]}';
const WEATHER_TO_TODO: Rewrite[] = [
  ['"name":"weather"', '"name":"todowrite"'],
  ['{\\"location\\": \\"San Francisco\\"}', TODO_ARGS],
];

test("DeepSeek: a thinking stream with a tool call completes a second step, which carries reasoning_content", async ({ page, mock }) => {
  mock.setScript([
    { recorded: { format: "chat", lines: recordedChunks("deepseek/deepseek-tool-call.chunks.txt") } },
    { recorded: { format: "chat", lines: recordedChunks("deepseek/deepseek-reasoning.chunks.txt") } },
  ]);
  await openApp(page);
  await choosePreset(page, mock, "DeepSeek", "deepseek-reasoner");
  const id = await newSession(page);
  await send(page, "What is the weather in San Francisco?");
  await expect(page.getByRole("article").filter({ hasText: 'contains three "r"s' })).toBeVisible(SLOW);
  await waitIdle(page, id);
  const reqs = mock.modelRequests();
  expect(reqs).toHaveLength(2);
  expect(reqs[0]?.path).toBe("/v1/chat/completions");
  const assistant = messagesOf(reqs[1]?.body).find((m) => m.role === "assistant");
  expect(String(assistant?.reasoning_content)).toContain("weather");
  await expect(page.getByText("Reasoning").first()).toBeVisible(SLOW);
});

test("Mistral: a tool call without index runs the tool and the turn goes on", async ({ page, mock }) => {
  mock.setScript([
    { recorded: { format: "chat", lines: recordedChunks("mistral/mistral-tool-call.chunks.txt", WEATHER_TO_TODO) } },
    { recorded: { format: "chat", lines: recordedChunks("mistral/mistral-text.chunks.txt") } },
  ]);
  await openApp(page);
  await choosePreset(page, mock, "Mistral", "mistral-small-latest");
  const id = await newSession(page);
  await send(page, "Plan the weather check");
  await expect(page.getByRole("group", { name: "Tool todowrite: done" })).toBeVisible(SLOW);
  await expect(page.getByRole("complementary", { name: "Todo list" })).toContainText("Check the weather");
  await expect(page.getByRole("article").filter({ hasText: "This is a test response." })).toBeVisible(SLOW);
  await waitIdle(page, id);
  const roles = messagesOf(mock.modelRequests()[1]?.body).map((m) => m.role);
  expect(roles).toEqual(["system", "user", "assistant", "tool"]);
  await expect(page.getByText("The response was cut off")).toHaveCount(0);
});

test("OpenRouter: an in-stream error shows the provider's message after the partial answer", async ({ page, mock }) => {
  mock.setScript([{ recorded: { format: "chat", lines: recordedChunks("openrouter/openrouter-mid-stream-error.chunks.txt") } }]);
  await openApp(page);
  await choosePreset(page, mock, "OpenRouter", "openai/gpt-3.5-turbo");
  const id = await newSession(page);
  await send(page, "How would you build the tallest building ever?");
  await waitIdle(page, id);
  await expect(page.getByText("Provider disconnected unexpectedly")).toBeVisible(SLOW);
  await expect(page.getByRole("article").filter({ hasText: "The tallest building would need" })).toBeVisible(SLOW);
  expect(mock.modelRequests()).toHaveLength(1);
});

test("Anthropic: browser header, cache_control on system and the last two messages, cache write and read shown", async ({ page, mock }) => {
  mock.setScript([{ recorded: { format: "anthropic", lines: recordedChunks("anthropic/anthropic-code-execution-20260120-prompt-cache.1.chunks.txt") } }]);
  await openApp(page);
  await choosePreset(page, mock, "Anthropic", "claude-sonnet-4-5");
  const id = await newSession(page);
  await send(page, "Sum the first squares");
  await waitIdle(page, id);
  const req = mock.modelRequests()[0];
  expect(req?.path).toBe("/v1/messages");
  expect(req?.headers["anthropic-dangerous-direct-browser-access"]).toBe("true");
  expect(req?.headers["x-api-key"]).toBe("sk-test-e2e-key-123456");
  expect(req?.headers.authorization).toBeUndefined();
  const body = req?.body as Obj;
  expect((body.system as Obj[])[0]?.cache_control).toEqual({ type: "ephemeral" });
  const last = (body.messages as Obj[]).at(-1);
  expect(((last?.content ?? []) as Obj[]).at(-1)?.cache_control).toEqual({ type: "ephemeral" });
  // Usage line: cache read 6,289 and the cache write, from Anthropic's own usage fields.
  const usage = page.locator(".step-finish").last();
  await expect(usage).toContainText("cached");
  await expect(usage).toContainText("cache write");
  await expect(page.getByRole("group", { name: /Tool code_execution/ }).first()).toBeVisible(SLOW);
  const msgs = await storedMessages(page, id);
  expect(msgs.at(-1)?.finish).toBe("stop");
});

test("Gemini: a recorded function call runs and the next request sends its thought signature back", async ({ page, mock }) => {
  mock.setScript([
    { recorded: { format: "gemini", lines: recordedChunks("google/google-tool-call.chunks.txt", [['"name":"weather"', '"name":"todowrite"'], ['"args":{"location":"San Francisco"}', '"args":{"todos":[{"id":"1","content":"Check the weather","status":"in_progress","priority":"high"}]}']]) } },
    { recorded: { format: "gemini", lines: recordedChunks("google/google-text.chunks.txt") } },
  ]);
  await openApp(page);
  await choosePreset(page, mock, "Google Gemini", "gemini-3-pro-preview", `${mock.url}/v1beta`);
  const id = await newSession(page);
  await send(page, "Plan the weather check");
  await expect(page.getByRole("group", { name: "Tool todowrite: done" })).toBeVisible(SLOW);
  await waitIdle(page, id);
  const reqs = mock.modelRequests();
  expect(reqs[0]?.path).toBe("/v1beta/models/gemini-3-pro-preview:streamGenerateContent");
  expect(reqs[1]?.rawBody).toContain("thoughtSignature");
});

test("OpenAI Responses: an MCP approval request is a card that says tabcode cannot grant it", async ({ page, mock }) => {
  mock.setScript([{ recorded: { format: "responses", lines: recordedChunks("openai-responses/openai-mcp-tool-approval.1.chunks.txt") } }]);
  await openApp(page);
  await choosePreset(page, mock, "OpenAI", "gpt-5-mini");
  const id = await newSession(page);
  await send(page, "Shorten this URL");
  await expect(page.getByText("This provider asks for approval — tabcode cannot grant it here", { exact: false })).toBeVisible(SLOW);
  await waitIdle(page, id);
  expect(mock.modelRequests()).toHaveLength(1);
});

test("OpenAI-compatible: a length finish says so and Continue asks the model to go on", async ({ page, mock }) => {
  const length: Rewrite = ['"finish_reason":"stop"', '"finish_reason":"length"'];
  mock.setScript([
    { recorded: { format: "chat", lines: recordedChunks("mistral/mistral-text.chunks.txt", [length]) } },
    { recorded: { format: "chat", lines: recordedChunks("mistral/mistral-text.chunks.txt") } },
  ]);
  await openApp(page);
  await choosePreset(page, mock, "OpenAI-compatible", "some-local-model");
  const id = await newSession(page);
  await send(page, "Say hello");
  await expect(page.getByText("The answer was cut at the output limit.")).toBeVisible(SLOW);
  await waitIdle(page, id);
  // An unknown model: its cost is unknown, not $0.
  await expect(page.locator(".step-finish").first()).toContainText("price unknown");
  await expect(page.getByTestId("session-cost")).toHaveText("price unknown");
  await page.getByRole("button", { name: "Continue" }).click();
  await expect.poll(() => mock.modelRequests().length).toBe(2);
  expect(mock.modelRequests()[1]?.rawBody).toContain("Continue exactly where");
  // The model is shown what it said before the cut, right before that request: it goes on from there.
  const roles = (JSON.parse(mock.modelRequests()[1]?.rawBody ?? "{}") as { messages: { role: string; content: unknown }[] }).messages.map((m) => `${m.role}:${JSON.stringify(m.content).length > 4}`);
  expect(roles.slice(-3)).toEqual(["user:true", "assistant:true", "user:true"]);
  await waitIdle(page, id);
  // tabcode wrote that message (the person only pressed Continue): a divider, not a message of theirs.
  await expect(page.getByRole("article", { name: "System event" })).toHaveText(/You asked the model to continue its cut-off answer/);
  await expect(page.getByRole("article", { name: "Your message" })).toHaveCount(1);
});

test("Settings: presets fill the base URL and explain keys and CORS; the model list loads from the provider", async ({ page, mock }) => {
  await openApp(page);
  await page.getByRole("button", { name: "Settings" }).click();
  const dialog = page.getByRole("dialog", { name: "Settings" });
  const provider = dialog.getByLabel("Provider", { exact: true });
  for (const label of ["OpenAI", "Anthropic", "Google Gemini", "DeepSeek", "Mistral", "Groq", "xAI", "OpenRouter", "OpenAI-compatible"]) {
    await expect(provider.getByRole("option", { name: label, exact: true })).toHaveCount(1);
  }
  await provider.selectOption({ label: "Anthropic" });
  await expect(dialog.getByLabel("Base URL", { exact: true })).toHaveValue("https://api.anthropic.com/v1");
  await expect(dialog.getByTestId("provider-notes")).toContainText("console.anthropic.com");
  await provider.selectOption({ label: "OpenAI-compatible" });
  await expect(dialog.getByTestId("provider-notes")).toContainText("OLLAMA_ORIGINS");
  await dialog.getByLabel("Base URL", { exact: true }).fill(mock.baseURL);
  await dialog.getByRole("button", { name: "Load models" }).click();
  await expect(dialog.getByText("4 models from the provider")).toBeVisible(SLOW);
  // The Model field's own suggestions (the summary model field has its own list).
  const listID = await dialog.getByLabel("Model", { exact: true }).getAttribute("list");
  const listed = await dialog.locator(`datalist[id="${listID}"] option`).evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
  expect(listed).toEqual(["gpt-4.1", "gpt-4o-mini", "gpt-5-mini", "o4-mini"]);
  // The suggestions are filtered by what the field holds: the whole list is a select, and it takes the focus.
  const loaded = dialog.getByRole("combobox", { name: "Models from the provider" });
  await expect(loaded).toBeFocused();
  // The preset's default model is not among the provider's: the select starts at a prompt, then the four.
  await expect(loaded.getByRole("option")).toHaveText(["Pick one of 4…", "gpt-4.1", "gpt-4o-mini", "gpt-5-mini", "o4-mini"]);
  await loaded.selectOption("o4-mini");
  await expect(dialog.getByLabel("Model", { exact: true })).toHaveValue("o4-mini");
  expect(mock.requests.some((r) => r.method === "GET" && r.path === "/v1/models")).toBe(true);
});

test("Model switch per session: the next step uses it and the answer records it", async ({ page, mock }) => {
  mock.setScript([{ text: "First answer." }, { text: "Second answer." }]);
  await openApp(page);
  await choosePreset(page, mock, "OpenAI-compatible", "gpt-4o-mini");
  const id = await newSession(page);
  await send(page, "one");
  await waitIdle(page, id);
  await page.getByRole("button", { name: /Switch model for this session/ }).click();
  await page.getByRole("combobox", { name: "Model for this session" }).fill("gpt-4.1");
  await page.getByRole("combobox", { name: "Model for this session" }).press("Enter");
  await expect(page.getByRole("button", { name: /Model: gpt-4\.1/ })).toBeVisible(SLOW);
  await send(page, "two");
  await waitIdle(page, id);
  expect(mock.modelRequests().map((r) => (r.body as Obj).model)).toEqual(["gpt-4o-mini", "gpt-4.1"]);
  await expect(page.getByRole("article").filter({ hasText: "Second answer." })).toContainText("gpt-4.1");
});

test("A model switched during a step: the header names both until the next step, which uses the new one", async ({ page, mock }) => {
  const words = Array.from({ length: 50 }, (_, i) => `w${i}`).join(" ");
  mock.setScript([
    { text: `Looking first. ${words}`, chunkDelayMs: 60, toolCalls: [{ name: "todowrite", args: { todos: [{ content: "Check", status: "pending", priority: "high" }] } }] },
    { text: "Done on the new model." },
  ]);
  await openApp(page);
  await choosePreset(page, mock, "OpenAI-compatible", "gpt-4o-mini");
  const id = await newSession(page);
  await send(page, "go");
  await expect(page.getByRole("article").filter({ hasText: "Looking first." })).toBeVisible(SLOW);
  await page.getByRole("button", { name: /Switch model for this session/ }).click();
  await page.getByRole("combobox", { name: "Model for this session" }).fill("gpt-4.1");
  await page.getByRole("combobox", { name: "Model for this session" }).press("Enter");
  // The step streaming now stays on the model it was sent to; the header says so, in words for a screen reader.
  const switching = page.getByTestId("model-switching");
  await expect(switching).toContainText("gpt-4o-mini → gpt-4.1");
  await expect(switching).toContainText("This step runs on gpt-4o-mini; gpt-4.1 from the next step");
  await waitIdle(page, id);
  await expect(switching).toHaveCount(0);
  await expect(page.locator(".meters .model-name")).toHaveText("gpt-4.1");
  expect(mock.modelRequests().map((r) => (r.body as Obj).model)).toEqual(["gpt-4o-mini", "gpt-4.1"]);
});
