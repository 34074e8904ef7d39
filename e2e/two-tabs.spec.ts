/**
 * Two tabs of one session sending at the same instant (issue: both prompts got the same parent,
 * one became a hidden branch that was never answered). Prompt writes are serialised across tabs,
 * so the two prompts are two turns of one conversation, both answered, and both tabs show them.
 */
import { configure, newSession, openApp, storedMessages } from "./app";
import { expect, test } from "./fixtures";

test("two tabs sending at the same instant: two turns, both answered, shown in both tabs", async ({ context, mock }) => {
  // Two pages load the app and both turns run one after the other: more than the default 30 s under load.
  test.setTimeout(60_000);
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
  // In storage: four messages, no sibling branch, each prompt answered once. (In id order the second prompt may
  // come before the first answer: it can be written while the first run is still starting. The conversation is
  // the branch path — prompt, its answer, prompt, its answer — which is what both tabs show.)
  await expect.poll(async () => (await storedMessages(a, id)).map((m) => m.role).sort().join(","), { timeout: 20_000 }).toBe("assistant,assistant,user,user");
  const stored = await a.evaluate(async (sid) => {
    const t = (globalThis as unknown as { __tabcode: { store: { messages(id: string): Promise<{ info: { id: string; role: string; prev?: string; parentID?: string } }[]> } } }).__tabcode;
    return (await t.store.messages(sid)).map((m) => ({ id: m.info.id, role: m.info.role, prev: m.info.prev, parentID: m.info.parentID }));
  }, id);
  const users = stored.filter((m) => m.role === "user");
  expect(users).toHaveLength(2);
  expect(users[1]?.prev).toBe(users[0]?.id);
  expect(stored.filter((m) => m.role === "assistant").map((m) => m.parentID)).toEqual(users.map((u) => u.id));
  for (const page of [a, b]) {
    const order = await page.locator("main article").evaluateAll((els) => els.map((e) => e.getAttribute("aria-label") ?? ""));
    expect(order).toEqual(["Your message", "Assistant message", "Your message", "Assistant message"]);
  }
  // Both model requests were made (one per turn), and the second carried the first turn.
  const chats = mock.modelRequests();
  expect(chats.length).toBeGreaterThanOrEqual(2);
  const last = JSON.stringify(chats.at(-1)?.body);
  expect(last).toContain("question from tab A");
  expect(last).toContain("question from tab B");
});

test("a question waiting in the tab that runs the session: the other tab's card says where to answer it", async ({ context, mock }) => {
  test.setTimeout(60_000);
  mock.setScript([{ toolCalls: [{ name: "bash", args: { command: "ls", description: "list" } }] }, { text: "Listed." }]);
  const a = await context.newPage();
  await openApp(a);
  await configure(a, mock, "openai-compatible", { permissions: [{ permission: "bash", pattern: "*", action: "ask" }] });
  const id = await newSession(a);
  const b = await context.newPage();
  await b.goto(`/#/s/${id}`);
  await expect(b.getByRole("textbox", { name: "Message" })).toBeVisible();
  await a.getByRole("textbox", { name: "Message" }).fill("list the files");
  await a.getByRole("button", { name: "Send" }).click();
  await expect(a.getByRole("dialog", { name: "Permission needed" })).toBeVisible({ timeout: 20_000 });
  await expect(a.getByRole("group", { name: /^Tool bash/ })).toContainText("waiting for your approval");
  await expect(b.getByRole("group", { name: /^Tool bash/ })).toContainText("waiting for approval in the tab running this session", { timeout: 20_000 });
  await a.getByRole("dialog", { name: "Permission needed" }).getByRole("button", { name: "Allow once" }).click();
  await expect(b.getByRole("article").filter({ hasText: "Listed." })).toBeVisible({ timeout: 20_000 });
});
