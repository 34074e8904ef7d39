import { configure, newSession, openApp, send, storedMessages, waitIdle } from "./app";
import { expect, test } from "./fixtures";

type Fs = { writeFile(p: string, d: string): Promise<void>; readText(p: string): Promise<string>; exists(p: string): Promise<boolean> };
type App = { __tabcode: { sandbox: { sandboxFor(id: string): Promise<{ fs: Fs }> } } };

test("a protect rule stops sed -i, mv, > file, a Python script and the write tool; a denied rm stays denied inside a script; the panel shows what was stopped", async ({ page, mock }) => {
  test.setTimeout(180_000);
  await openApp(page);
  await configure(page, mock, "openai-compatible", {
    permissions: [
      { permission: "protect", pattern: "config/**", action: "deny" },
      { permission: "bash", pattern: "rm *", action: "deny" },
    ],
  });
  const id = await newSession(page);
  await page.evaluate(async (id) => {
    const sb = await (globalThis as unknown as App).__tabcode.sandbox.sandboxFor(id);
    await sb.fs.writeFile("/workspace/config/app.json", '{"keep":true}\n');
    await sb.fs.writeFile("/workspace/keep.txt", "precious\n");
  }, id);
  mock.setScript([
    { toolCalls: [{ name: "bash", args: { command: "sed -i d config/app.json", description: "sed in place" } }] },
    { toolCalls: [{ name: "bash", args: { command: "mv config/app.json /dev/null", description: "move away" } }] },
    { toolCalls: [{ name: "bash", args: { command: "> config/app.json", description: "truncate" } }] },
    { toolCalls: [{ name: "bash", args: { command: `python3 -c "open('config/app.json', 'w').write('{}')"`, description: "python rewrite" } }] },
    { toolCalls: [{ name: "write", args: { filePath: "/workspace/config/new.json", content: "{}" } }] },
    { toolCalls: [{ name: "bash", args: { command: "printf 'rm keep.txt\\n' > s.sh && sh s.sh", description: "script" } }] },
    { text: "Tried everything." },
  ]);
  await send(page, "break the config");
  await expect(page.getByRole("article").filter({ hasText: "Tried everything." })).toBeVisible({ timeout: 150_000 });
  await waitIdle(page, id);

  const files = await page.evaluate(async (id) => {
    const sb = await (globalThis as unknown as App).__tabcode.sandbox.sandboxFor(id);
    return { config: await sb.fs.readText("/workspace/config/app.json"), created: await sb.fs.exists("/workspace/config/new.json"), keep: await sb.fs.exists("/workspace/keep.txt") };
  }, id);
  expect(files).toEqual({ config: '{"keep":true}\n', created: false, keep: true });

  const tools = (await storedMessages(page, id)).flatMap((m) => m.parts).filter((p) => p.type === "tool");
  expect(tools).toHaveLength(6);
  const sent = mock.modelRequests().map((r) => r.rawBody).join("\n");
  // What the model was told (quotes are escaped differently per channel, so match the words).
  expect(sent).toContain("config/app.json: rename refused — protected by your rule");
  expect(sent).toContain("config/app.json: truncate refused — protected by your rule");
  // The Python script ran; its change to the protected file was refused when written back through the sandbox fs.
  expect(sent).toContain("config/app.json: write refused — protected by your rule");
  expect(sent).toContain("config/new.json: write refused — protected by your rule");
  expect(sent).toMatch(/rm keep\.txt.{0,12} refused — denied by your rule/);

  await page.getByRole("button", { name: "Permissions" }).click();
  const panel = page.getByRole("dialog", { name: "Permissions of this session" });
  await expect(panel.getByRole("heading", { name: "Protected paths" })).toBeVisible();
  const item = panel.getByRole("listitem").filter({ hasText: "config/**" });
  await expect(item).toContainText(/stopped [5-9] changes/);
  await expect(panel).toContainText("/tmp as scratch space");
  // The rm inside the script was refused at run time, and logged with its rule.
  await expect(panel.getByRole("row").filter({ hasText: "rm keep.txt" }).filter({ hasText: "“rm *” → deny" })).toHaveCount(1);
});

test("session rules: a protect rule added in the editor is listed at once; Esc with rules not saved asks before throwing them away", async ({ page }) => {
  await openApp(page);
  await newSession(page);
  await page.getByRole("button", { name: "Permissions" }).click();
  const panel = page.getByRole("dialog", { name: "Permissions of this session" });
  await expect(panel).toContainText("No protect rules.");
  await panel.getByRole("button", { name: "Add protect rule" }).click();
  await panel.getByRole("textbox", { name: "Rule 1 pattern" }).fill("config/**");
  await expect(panel.getByRole("listitem").filter({ hasText: "config/**" })).toBeVisible();
  await expect(panel).not.toContainText("No protect rules.");
  await page.keyboard.press("Escape");
  const guard = panel.getByRole("alertdialog", { name: "You have unsaved changes to this session's rules." });
  await expect(guard.getByRole("button", { name: "Keep editing" })).toBeFocused();
  await guard.getByRole("button", { name: "Keep editing" }).click();
  await panel.getByRole("button", { name: "Save rules" }).click();
  await expect(panel).toBeHidden();
  await page.getByRole("button", { name: "Permissions" }).click();
  await expect(panel.getByRole("textbox", { name: "Rule 1 pattern" })).toHaveValue("config/**");
  await page.keyboard.press("Escape");
  await expect(panel).toBeHidden();
});
