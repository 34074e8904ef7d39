/**
 * Editing a file in the Files viewer: Edit, Cancel with the unsaved-change guard, Esc guard, Save
 * into the workspace, a protect rule refusing the save in words (nothing written, text kept).
 */
import type { Page } from "@playwright/test";
import { configure, newSession, openApp } from "./app";
import { expect, test } from "./fixtures";
import { SIZES, seedFile, seriousAxe, shoot } from "./views";

const readText = (page: Page, id: string, path: string) =>
  page.evaluate(
    async ({ id, path }) => {
      const t = (globalThis as unknown as { __tabcode: { sandbox: { sandboxFor(id: string): Promise<{ fs: { readText(p: string): Promise<string> } }> } } }).__tabcode;
      return (await t.sandbox.sandboxFor(id)).fs.readText(path);
    },
    { id, path },
  );

for (const size of SIZES) {
  test(`edit a workspace file in the viewer — ${size.name}`, async ({ page, mock }) => {
    test.setTimeout(90_000);
    await openApp(page);
    await configure(page, mock, "openai-compatible", { permissions: [{ permission: "protect", pattern: "config/**", action: "deny" }] });
    const id = await newSession(page);
    await seedFile(page, id, "/workspace/notes.txt", "first line\r\nsecond line\r\n");
    await seedFile(page, id, "/workspace/config/app.json", '{ "debug": false }\n');
    await page.setViewportSize({ width: size.width, height: size.height });
    if (size.width < 900) await page.getByRole("button", { name: "Show files and todos" }).click();
    const ws = page.getByRole("region", { name: "Workspace" });
    await ws.getByRole("button", { name: "notes.txt", exact: true }).click();

    const viewer = page.getByRole("dialog", { name: "File notes.txt" });
    await expect(viewer).toContainText("second line");
    await viewer.getByRole("button", { name: "Edit" }).click();
    const box = viewer.getByRole("textbox", { name: "Contents of notes.txt" });
    await expect(box).toHaveValue("first line\nsecond line\n");
    // Edit puts the caret in the text.
    await expect(box).toBeFocused();
    await box.fill("first line\nsecond line, edited\nthird line\n");

    // Cancel with changes asks; keeping them goes back to the text.
    await viewer.getByRole("button", { name: "Cancel" }).click();
    const guard = viewer.getByRole("alertdialog", { name: /unsaved changes/ });
    await expect(guard).toBeVisible();
    await shoot(page, `file-edit-guard-${size.name}`);
    expect(await seriousAxe(page, "dialog")).toEqual([]);
    await guard.getByRole("button", { name: "Keep editing" }).click();
    await expect(box).toHaveValue(/second line, edited/);
    // Esc asks too instead of closing.
    await page.keyboard.press("Escape");
    await expect(guard).toBeVisible();
    await guard.getByRole("button", { name: "Keep editing" }).click();
    await expect(viewer).toBeVisible();

    await viewer.getByRole("button", { name: "Save" }).click();
    await expect(viewer.getByRole("status")).toHaveText("Saved notes.txt.");
    await expect(viewer).toContainText("third line");
    // Written into the workspace with the file's own CRLF line endings.
    expect(await readText(page, id, "/workspace/notes.txt")).toBe("first line\r\nsecond line, edited\r\nthird line\r\n");
    await page.emulateMedia({ colorScheme: "dark" });
    await viewer.getByRole("button", { name: "Edit" }).click();
    await shoot(page, `file-edit-${size.name}-dark`);
    expect(await seriousAxe(page, "dialog")).toEqual([]);
    await page.emulateMedia({ colorScheme: "light" });
    await shoot(page, `file-edit-${size.name}`);
    // Discarding really discards.
    await box.fill("thrown away\n");
    await viewer.getByRole("button", { name: "Cancel" }).click();
    await guard.getByRole("button", { name: "Discard changes" }).click();
    await expect(viewer).toContainText("third line");
    await viewer.getByRole("button", { name: "Close" }).click();
    await expect(viewer).toBeHidden();
    expect(await readText(page, id, "/workspace/notes.txt")).toContain("third line");

    // A protected file: the save is refused in words, nothing is written, the text stays.
    if (size.width < 900 && !(await ws.isVisible())) await page.getByRole("button", { name: "Show files and todos" }).click();
    await ws.getByRole("button", { name: "▸ config/" }).click();
    await ws.getByRole("button", { name: "app.json", exact: true }).click();
    const cfg = page.getByRole("dialog", { name: "File config/app.json" });
    await cfg.getByRole("button", { name: "Edit" }).click();
    await cfg.getByRole("textbox", { name: "Contents of config/app.json" }).fill('{ "debug": true }\n');
    await cfg.getByRole("button", { name: "Save" }).click();
    await expect(cfg.getByRole("alert")).toContainText('protected by your rule "protect config/**"');
    await expect(cfg.getByRole("textbox", { name: "Contents of config/app.json" })).toHaveValue('{ "debug": true }\n');
    await shoot(page, `file-edit-protected-${size.name}`);
    expect(await readText(page, id, "/workspace/config/app.json")).toBe('{ "debug": false }\n');
  });
}

test("the viewer follows the file: a change underneath is shown, a save over it asks first; a file that is not UTF-8 is not editable here", async ({ page, mock }) => {
  await openApp(page);
  await configure(page, mock, "openai-compatible");
  const id = await newSession(page);
  await seedFile(page, id, "/workspace/notes.txt", "v1\n");
  const ws = page.getByRole("region", { name: "Workspace" });
  await ws.getByRole("button", { name: "notes.txt", exact: true }).click();
  const viewer = page.getByRole("dialog", { name: "File notes.txt" });
  await expect(viewer).toContainText("v1");
  // Written by someone else (the agent) while the viewer is open: it shows the new text.
  await seedFile(page, id, "/workspace/notes.txt", "v2 from the agent\n");
  await expect(viewer).toContainText("v2 from the agent");

  await viewer.getByRole("button", { name: "Edit" }).click();
  await viewer.getByRole("textbox", { name: "Contents of notes.txt" }).fill("mine\n");
  await seedFile(page, id, "/workspace/notes.txt", "v3 from the agent\n");
  await expect(viewer.getByRole("status")).toContainText("notes.txt changed while you were editing");
  await viewer.getByRole("button", { name: "Save" }).click();
  await expect(viewer.getByRole("alert")).toContainText("notes.txt changed since you started editing");
  expect(await readText(page, id, "/workspace/notes.txt")).toBe("v3 from the agent\n");
  await viewer.getByRole("button", { name: "Discard my changes" }).click();
  await expect(viewer).toContainText("v3 from the agent");
  // Or the user's version wins, when they say so.
  await viewer.getByRole("button", { name: "Edit" }).click();
  await viewer.getByRole("textbox", { name: "Contents of notes.txt" }).fill("mine\n");
  await seedFile(page, id, "/workspace/notes.txt", "v4 from the agent\n");
  await viewer.getByRole("button", { name: "Save" }).click();
  await viewer.getByRole("button", { name: "Save anyway" }).click();
  await expect(viewer.getByRole("status")).toHaveText("Saved notes.txt.");
  expect(await readText(page, id, "/workspace/notes.txt")).toBe("mine\n");
  await viewer.getByRole("button", { name: "Close" }).click();

  // Latin-1 bytes: shown, said, not editable (a save would turn é into U+FFFD).
  await page.evaluate(async (id) => {
    const t = (globalThis as unknown as { __tabcode: { sandbox: { sandboxFor(id: string): Promise<{ fs: { writeFile(p: string, d: Uint8Array): Promise<void> } }> } } }).__tabcode;
    await (await t.sandbox.sandboxFor(id)).fs.writeFile("/workspace/latin1.txt", new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x0a]));
    // "hi é" in UTF-16LE with its byte-order mark.
    await (await t.sandbox.sandboxFor(id)).fs.writeFile("/workspace/u16.txt", new Uint8Array([0xff, 0xfe, 0x68, 0, 0x69, 0, 0x20, 0, 0xe9, 0, 0x0a, 0]));
    window.dispatchEvent(new CustomEvent("tabcode:workspace-changed", { detail: { sessionID: id } }));
  }, id);
  await ws.getByRole("button", { name: "latin1.txt", exact: true }).click();
  const latin = page.getByRole("dialog", { name: "File latin1.txt" });
  await expect(latin).toContainText("Not UTF-8 text");
  await expect(latin.getByRole("button", { name: "Edit" })).toHaveCount(0);
  await expect(latin.getByRole("button", { name: "Download" })).toBeVisible();
  await latin.getByRole("button", { name: "Close" }).click();
  // UTF-16 is text: shown as such (it read as a binary file before), not editable here.
  await ws.getByRole("button", { name: "u16.txt", exact: true }).click();
  const u16 = page.getByRole("dialog", { name: "File u16.txt" });
  await expect(u16).toContainText("hi é");
  await expect(u16).toContainText("UTF-16 text: shown here");
  await expect(u16.getByRole("button", { name: "Edit" })).toHaveCount(0);
});
