/**
 * Two tabs of one session sending at the same instant (issue: both prompts got the same parent,
 * one became a hidden branch that was never answered). Prompt writes are serialised across tabs,
 * so the two prompts are two turns of one conversation, both answered, and both tabs show them.
 */
import { configure, newSession, openApp, storedMessages } from "./app";
import { expect, test } from "./fixtures";

test("two tabs sending at the same instant: two turns, both answered, shown in both tabs", async ({ context, mock }) => {
  mock.setScript([{ text: "Answer one." }, { text: "Answer two." }]);
  const a = await context.newPage();
  await openApp(a);
  await configure(a, mock, "openai-compatible");
  const id = await newSession(a);
  const b = await context.newPage();
  await b.goto(`/#/s/${id}`);
  await expect(b.getByRole("textbox", { name: "Message" })).toBeVisible();

  await a.getByRole("textbox", { name: "Message" }).fill("question from tab A");
  await b.getByRole("textbox", { name: "Message" }).fill("question from tab B");
  // Both clicks in the same instant: dispatched without waiting for each other.
  await Promise.all([a.getByRole("button", { name: "Send" }).click(), b.getByRole("button", { name: "Send" }).click()]);

  for (const page of [a, b]) {
    await expect(page.getByRole("article").filter({ hasText: "question from tab A" })).toBeVisible({ timeout: 20_000 });
    await expect(page.getByRole("article").filter({ hasText: "question from tab B" })).toBeVisible({ timeout: 20_000 });
    await expect(page.getByRole("article").filter({ hasText: "Answer one." })).toBeVisible({ timeout: 20_000 });
    await expect(page.getByRole("article").filter({ hasText: "Answer two." })).toBeVisible({ timeout: 20_000 });
  }
  // In storage: one line of four messages, no sibling branch, and each prompt followed by its answer.
  await expect.poll(async () => (await storedMessages(a, id)).map((m) => m.role).join(","), { timeout: 20_000 }).toBe("user,assistant,user,assistant");
  const prevs = await a.evaluate(async (sid) => {
    const t = (globalThis as unknown as { __tabcode: { store: { messages(id: string): Promise<{ info: { id: string; role: string; prev?: string } }[]> } } }).__tabcode;
    return (await t.store.messages(sid)).map((m) => ({ id: m.info.id, role: m.info.role, prev: m.info.prev }));
  }, id);
  const users = prevs.filter((m) => m.role === "user");
  expect(users).toHaveLength(2);
  expect(users[1]?.prev).toBe(users[0]?.id);
  // Both model requests were made (one per turn), and the second carried the first turn.
  const chats = mock.modelRequests();
  expect(chats.length).toBeGreaterThanOrEqual(2);
  const last = JSON.stringify(chats.at(-1)?.body);
  expect(last).toContain("question from tab A");
  expect(last).toContain("question from tab B");
});
