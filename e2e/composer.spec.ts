/** The composer's attachments: @ mentions of workspace files, pasted and dropped images, and what the model receives. */
import type { Page } from "@playwright/test";
import { configure, newSession, openApp, waitIdle } from "./app";
import { expect, test } from "./fixtures";

type Obj = Record<string, unknown>;
const PNG_B64 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

async function writeFile(page: Page, sessionID: string, path: string, text: string) {
  await page.evaluate(
    async ({ sessionID, path, text }) => {
      const t = (
        globalThis as unknown as {
          __tabcode: {
            sandbox: {
              sandboxFor(id: string): Promise<{
                fs: { writeFile(p: string, d: string): Promise<void> };
              }>;
            };
          };
        }
      ).__tabcode;
      await (await t.sandbox.sandboxFor(sessionID)).fs.writeFile(path, text);
    },
    { sessionID, path, text },
  );
}

/** Pastes files into the composer as the browser would (a paste event carrying a DataTransfer). */
async function pasteFiles(page: Page, files: { name: string; type: string; b64?: string; size?: number }[]) {
  await page.getByRole("textbox", { name: "Message" }).evaluate((box, files) => {
    const dt = new DataTransfer();
    for (const f of files) {
      const head = f.b64 ? Uint8Array.from(atob(f.b64), (c) => c.charCodeAt(0)) : new Uint8Array();
      const bytes = new Uint8Array(Math.max(head.length, f.size ?? 0));
      bytes.set(head);
      dt.items.add(new File([bytes], f.name, { type: f.type }));
    }
    box.dispatchEvent(
      new ClipboardEvent("paste", {
        clipboardData: dt,
        bubbles: true,
        cancelable: true,
      }),
    );
  }, files);
}

const lastUserContent = (mock: { modelRequests(): { body: unknown }[] }) => {
  const body = mock.modelRequests().at(-1)?.body as Obj | undefined;
  const msgs = (body?.messages ?? []) as Obj[];
  return msgs.filter((m) => m.role === "user").at(-1)?.content;
};

test("@ opens a list of workspace files (fuzzy, keyboard); the picked file is a removable chip and the model gets its text with its path", async ({ page, mock }) => {
  mock.setScript([{ text: "It exports x." }]);
  await openApp(page);
  await configure(page, mock, "openai-compatible");
  const id = await newSession(page);
  await writeFile(page, id, "/workspace/src/app.ts", "export const x = 1;\n");
  await writeFile(page, id, "/workspace/README.md", "# hello\n");
  await writeFile(page, id, "/workspace/docs/notes.txt", "notes\n");

  const box = page.getByRole("textbox", { name: "Message" });
  await box.pressSequentially("explain @");
  const list = page.getByRole("listbox", { name: "Workspace files" });
  await expect(list.getByRole("option")).toHaveText(["README.md", "src/app.ts", "docs/notes.txt"]);
  await expect(box).toHaveAttribute("aria-controls", "mention-options");
  await box.pressSequentially("apts");
  await expect(list.getByRole("option")).toHaveText(["src/app.ts"]);
  await expect(list.getByRole("option", { name: "src/app.ts" })).toHaveAttribute("aria-selected", "true");
  // Escape closes the list without clearing the text; typing on reopens it.
  await page.keyboard.press("Escape");
  await expect(list).toBeHidden();
  await expect(box).toHaveValue("explain @apts");
  await page.keyboard.press("Backspace");
  await expect(list.getByRole("option")).toHaveText(["src/app.ts"]);
  await page.keyboard.press("Enter");
  await expect(box).toHaveValue("explain @src/app.ts ");
  const chips = page.getByRole("list", { name: "Attachments" });
  await expect(chips.getByRole("listitem")).toHaveText([/src\/app\.ts/]);

  // A second file, then removed again.
  await box.pressSequentially("@READ");
  // The list opens once the workspace walk answers; Enter before that would be a newline, not a pick.
  await expect(list.getByRole("option", { selected: true })).toHaveText("README.md");
  await page.keyboard.press("Enter");
  await expect(chips.getByRole("listitem")).toHaveCount(2);
  await chips.getByRole("button", { name: "Remove README.md" }).click();
  await expect(chips.getByRole("listitem")).toHaveCount(1);
  await expect(box).toBeFocused();
  await expect(box).toHaveValue("explain @src/app.ts ");

  await page.keyboard.press("Enter");
  await waitIdle(page, id);
  expect(lastUserContent(mock)).toEqual([
    { type: "text", text: "explain @src/app.ts" },
    {
      type: "text",
      text: 'The user attached the workspace file src/app.ts:\n<file path="src/app.ts">\nexport const x = 1;\n</file>',
    },
  ]);
  // The message shows the file as a chip, not its text.
  const mine = page.getByRole("article").filter({ hasText: "explain @src/app.ts" });
  await expect(mine.locator(".file-part")).toHaveText("@src/app.ts");
  await expect(mine).not.toContainText("export const x");
  await expect(chips).toBeHidden();
});

test("a pasted image is a thumbnail with a remove button and goes to an image model as an image part", async ({ page, mock }) => {
  mock.setScript([{ text: "A single pixel." }]);
  await openApp(page);
  await configure(page, mock, "openai-compatible");
  const id = await newSession(page);
  await page.getByRole("textbox", { name: "Message" }).fill("what is this?");
  await pasteFiles(page, [{ name: "shot.png", type: "image/png", b64: PNG_B64 }]);
  const chips = page.getByRole("list", { name: "Attachments" });
  const thumb = chips.getByRole("img", { name: "shot.png" });
  await expect(thumb).toBeVisible();
  expect(await thumb.getAttribute("src")).toBe(`data:image/png;base64,${PNG_B64}`);
  await expect(page.getByRole("note")).toHaveCount(0);
  await page.getByRole("button", { name: "Send" }).click();
  await waitIdle(page, id);
  expect(lastUserContent(mock)).toEqual([
    { type: "text", text: "what is this?" },
    {
      type: "image_url",
      image_url: { url: `data:image/png;base64,${PNG_B64}` },
    },
  ]);
  await expect(page.getByRole("article").filter({ hasText: "what is this?" }).getByRole("img", { name: "shot.png" })).toBeVisible();
});

test("a dropped image lands in the composer (not the import); a text-only model gets a placeholder and the user a notice; fakes and huge images are refused in words", async ({ page, mock }) => {
  mock.setScript([{ text: "I cannot see images." }]);
  await openApp(page);
  await configure(page, mock, "openai-compatible", {
    modelID: "deepseek-chat",
  });
  const id = await newSession(page);
  const form = page.locator("form.composer");
  const dt = await page.evaluateHandle((b64) => {
    const d = new DataTransfer();
    d.items.add(new File([Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))], "drop.png", { type: "image/png" }));
    return d;
  }, PNG_B64);
  await form.dispatchEvent("dragover", { dataTransfer: dt });
  await form.dispatchEvent("drop", { dataTransfer: dt });
  await expect(page.getByRole("list", { name: "Attachments" }).getByRole("img", { name: "drop.png" })).toBeVisible();
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(page.getByRole("note").filter({ hasText: "deepseek-chat does not accept images" })).toBeVisible();

  // A file named .png that is not one, an oversized image, and a non-image: each refused with its reason.
  await pasteFiles(page, [
    {
      name: "fake.png",
      type: "image/png",
      b64: btoa("<svg xmlns='http://www.w3.org/2000/svg'/>"),
    },
  ]);
  await expect(page.getByText("fake.png is not a PNG, JPEG, GIF or WebP image, so it was not attached.")).toBeVisible();
  await pasteFiles(page, [
    {
      name: "huge.png",
      type: "image/png",
      b64: PNG_B64,
      size: 6 * 1024 * 1024,
    },
  ]);
  await expect(page.getByText("huge.png is 6.0 MB; images up to 5.0 MB can be attached.")).toBeVisible();
  await expect(page.getByRole("list", { name: "Attachments" }).getByRole("listitem")).toHaveCount(1);

  await page.getByRole("textbox", { name: "Message" }).fill("see?");
  await page.getByRole("button", { name: "Send" }).click();
  await waitIdle(page, id);
  expect(lastUserContent(mock)).toEqual([
    { type: "text", text: "see?" },
    {
      type: "text",
      text: "[Attached image/png: drop.png — not sent, this model does not accept images]",
    },
  ]);
});
