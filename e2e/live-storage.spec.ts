/**
 * Storage a live session no longer needs, in the built app (Worker sandbox,
 * IndexedDB): a long output the agent's command printed is saved in the
 * workspace; once that turn is reverted and replaced by a new message, the
 * saved output is deleted, and the Files panel's storage line says less.
 */
import type { Page } from "@playwright/test";
import { configure, newSession, openApp, send, waitIdle } from "./app";
import { expect, test } from "./fixtures";

/** The machine is shared: wait on what the user sees, generously. */
const SLOW = { timeout: 30_000 };

type Services = {
  __tabcode: {
    store: { flush(): Promise<void>; messages(id: string): Promise<{ parts: { type: string; state?: { metadata?: Record<string, unknown> } }[] }[]> };
    sandbox: { sandboxFor(id: string): Promise<{ fs: { exists(path: string): Promise<boolean> } }> };
  };
};

/** Paths of the full outputs the session's tool calls saved. */
const savedOutputs = (page: Page, id: string) =>
  page.evaluate(async (sessionID) => {
    const t = (globalThis as unknown as Services).__tabcode;
    await t.store.flush();
    const msgs = await t.store.messages(sessionID);
    return msgs.flatMap((m) => m.parts.flatMap((p) => (p.type === "tool" && typeof p.state?.metadata?.outputPath === "string" ? [p.state.metadata.outputPath] : [])));
  }, id);

const exists = (page: Page, id: string, path: string) =>
  page.evaluate(async ({ sessionID, path }) => (await (globalThis as unknown as Services).__tabcode.sandbox.sandboxFor(sessionID)).fs.exists(path), { sessionID: id, path });

test("a reverted turn replaced by a new message frees its saved output", async ({ page, mock }) => {
  await openApp(page);
  await configure(page, mock, "openai-compatible");
  const id = await newSession(page);
  mock.setScript([
    { toolCalls: [{ name: "bash", args: { command: "seq 1 5000", description: "count far" } }] },
    { text: "Counted." },
    { text: "Fresh start." },
  ]);
  await send(page, "Count to five thousand");
  await expect(page.getByRole("article").filter({ hasText: "Counted." })).toBeVisible(SLOW);
  await waitIdle(page, id);
  const [saved] = await savedOutputs(page, id);
  expect(saved).toMatch(/^\/workspace\/\.tabcode\/tool-output\//);
  expect(await exists(page, id, saved ?? "")).toBe(true);
  const storage = page.getByRole("region", { name: "Workspace" }).getByText(/^Storage: /);
  await expect(storage).toContainText(/Storage: 2\d\.\d KB of files/, SLOW);

  await page.getByRole("article", { name: "Your message" }).hover();
  await page.getByRole("button", { name: "Revert this turn" }).click();
  await expect(page.getByRole("status").filter({ hasText: "reverted" })).toBeVisible();
  // (Not `send`: committing the revert deletes more messages than the prompt adds.)
  await page.getByRole("textbox", { name: "Message" }).fill("Never mind");
  await page.getByRole("button", { name: "Send" }).click();
  await expect(page.getByRole("article").filter({ hasText: "Fresh start." })).toBeVisible(SLOW);
  await waitIdle(page, id);
  await expect.poll(() => exists(page, id, saved ?? ""), SLOW).toBe(false);
  expect(await savedOutputs(page, id)).toEqual([]);
  await expect(storage).toContainText("Storage: 0 B of files", SLOW);
});
