/**
 * An image the agent reads reaches the model: a PNG uploaded to the session's
 * files, a recorded Anthropic tool call (e2e/fixtures/providers, MANIFEST.md)
 * turned into a `read` of it by declared rewrites, and the next request's
 * tool_result carrying the image block with the file's bytes.
 */
import { recordedChunks, type Rewrite } from "../src/testing/replay";
import { newSession, openApp, send, waitIdle } from "./app";
import { expect, test } from "./fixtures";

type Obj = Record<string, unknown>;
const arr = (v: unknown) => (Array.isArray(v) ? (v as Obj[]) : []);

/** A 1×1 PNG. */
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=";
const READ_LOGO: Rewrite[] = [
  ['"name":"updateIssueList"', '"name":"read"'],
  ['"partial_json":""', '"partial_json":"{\\"filePath\\":\\"logo.png\\"}"'],
];

test("Anthropic: an image read by a tool goes back inside the tool_result as an image block", async ({ page, mock }) => {
  mock.setScript([
    { recorded: { format: "anthropic", lines: recordedChunks("anthropic/anthropic-tool-no-args.chunks.txt", READ_LOGO) } },
    { recorded: { format: "anthropic", lines: recordedChunks("anthropic/anthropic-text.chunks.txt") } },
  ]);
  await openApp(page);
  await page.getByRole("button", { name: "Settings" }).click();
  const dialog = page.getByRole("dialog", { name: "Settings" });
  await dialog.getByLabel("Provider", { exact: true }).selectOption({ label: "Anthropic" });
  await dialog.getByLabel("Base URL", { exact: true }).fill(mock.baseURL);
  await dialog.getByLabel("Model", { exact: true }).fill("claude-sonnet-4-5");
  await dialog.getByLabel("API key", { exact: true }).fill("sk-test-e2e-key-123456");
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(dialog).toBeHidden();
  const id = await newSession(page);
  const ws = page.getByRole("region", { name: "Workspace" });
  await ws.getByLabel("Upload files").setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: Buffer.from(PNG, "base64") });
  await expect(ws.getByRole("button", { name: "logo.png", exact: true })).toBeVisible();
  await send(page, "What is in logo.png?");
  await waitIdle(page, id);
  const second = mock.modelRequests()[1]?.body as Obj | undefined;
  const result = arr(second?.messages)
    .flatMap((m) => arr(m.content))
    .find((c) => c.type === "tool_result");
  const content = arr(result?.content);
  expect(content[0]).toMatchObject({ type: "text", text: "Image read successfully" });
  expect(content[1]).toMatchObject({ type: "image", source: { type: "base64", media_type: "image/png", data: PNG } });
});
