import { configure, openApp } from "./app";
import { expect, test } from "./fixtures";

test("a provider's compaction shows as an opaque divider; the option is offered only for providers that have it", async ({ page, mock }) => {
  await openApp(page);
  await configure(page, mock, "openai");
  // A session whose answer carries OpenAI's encrypted compaction item (as the adapter stores it).
  const id = await page.evaluate(async () => {
    const t = (globalThis as unknown as { __tabcode: { sessions: { createSession(): Promise<{ id: string }> }; store: { upsertMessage(m: unknown): Promise<void>; upsertPart(p: unknown): Promise<void> } } }).__tabcode;
    const s = await t.sessions.createSession();
    const now = Date.now();
    const user = { id: `msg_${now.toString(16)}0001`, sessionID: s.id, role: "user", time: { created: now }, agent: "build", model: { providerID: "openai", modelID: "gpt-5" } };
    const answer = { id: `msg_${now.toString(16)}0002`, sessionID: s.id, role: "assistant", parentID: user.id, time: { created: now, completed: now }, modelID: "gpt-5", providerID: "openai", agent: "build", cost: 0, finish: "stop", tokens: { input: 0, output: 0, reasoning: 0, cache: { read: 0, write: 0 } } };
    await t.store.upsertMessage(user);
    await t.store.upsertPart({ id: `prt_${now.toString(16)}0001`, sessionID: s.id, messageID: user.id, type: "text", text: "Keep going on the parser." });
    await t.store.upsertMessage(answer);
    await t.store.upsertPart({ id: `prt_${now.toString(16)}0002`, sessionID: s.id, messageID: answer.id, type: "text", text: "", metadata: { openai: { type: "compaction", itemId: "cmp_1", encryptedContent: "gAAAA-opaque" } } });
    await t.store.upsertPart({ id: `prt_${now.toString(16)}0003`, sessionID: s.id, messageID: answer.id, type: "text", text: "Carrying on after the compaction." });
    return s.id;
  });
  await page.goto(`/#/s/${id}`);
  const divider = page.getByRole("note", { name: "Compacted by the provider" });
  await expect(divider).toContainText("Compacted by the provider · opaque summary, not editable");
  await expect(page.getByText("gAAAA-opaque")).toHaveCount(0);
  await page.screenshot({ path: test.info().outputPath("provider-compaction.png") });

  await page.getByRole("button", { name: "Settings" }).click();
  const dialog = page.getByRole("dialog", { name: "Settings" });
  await dialog.getByText("Sandbox and context").click();
  const option = dialog.getByRole("checkbox", { name: /Let OpenAI compact on its side first/ });
  await expect(option).not.toBeChecked();
  await option.scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath("provider-compaction-setting.png") });
  await dialog.getByLabel("Provider", { exact: true }).selectOption("openai-compatible");
  await expect(dialog.getByRole("checkbox", { name: /compact on its side/ })).toHaveCount(0);
});
