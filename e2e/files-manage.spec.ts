/**
 * Managing files in the Files panel: New file (refusals in words, then the file opens in Edit mode), Rename
 * (asks before replacing, moves across folders), Delete (a file from the viewer, a folder from its menu, a
 * protected folder refused), with focus going into each dialog and back, Esc, axe and screenshots, at desktop
 * size and on a touch phone (every control at least 24 px tall).
 */
import type { Locator, Page } from "@playwright/test";
import { configure } from "./app";
import { expect, test } from "./fixtures";
import { seedFile, seriousAxe, shoot } from "./views";

const exists = (page: Page, id: string, path: string) =>
  page.evaluate(
    async ({ id, path }) => {
      const t = (globalThis as unknown as { __tabcode: { sandbox: { sandboxFor(id: string): Promise<{ fs: { exists(p: string): Promise<boolean> } }> } } }).__tabcode;
      return (await t.sandbox.sandboxFor(id)).fs.exists(path);
    },
    { id, path },
  );
const readText = (page: Page, id: string, path: string) =>
  page.evaluate(
    async ({ id, path }) => {
      const t = (globalThis as unknown as { __tabcode: { sandbox: { sandboxFor(id: string): Promise<{ fs: { readText(p: string): Promise<string> } }> } } }).__tabcode;
      return (await t.sandbox.sandboxFor(id)).fs.readText(path);
    },
    { id, path },
  );

/** Visible buttons, menu items and fields in `scope` shorter than 24 px (a hidden file input is its label's). */
const tooSmall = (scope: Locator) =>
  scope.locator("button, [role=menuitem], input:not(.visually-hidden), label.button-like").evaluateAll((els) =>
    els
      .map((e) => ({ e, r: e.getBoundingClientRect() }))
      .filter(({ r }) => r.width > 0 && r.height > 0 && r.height < 24)
      .map(({ e, r }) => `${e.tagName} "${(e.getAttribute("aria-label") ?? e.textContent ?? "").trim().slice(0, 30)}" ${Math.round(r.height)} px`),
  );

async function manage(page: Page, mock: Parameters<typeof configure>[1], size: "desktop" | "phone") {
  test.setTimeout(120_000);
  const phone = size === "phone";
  // A finger taps on the phone; the desktop uses the mouse.
  const press = (l: Locator) => (phone ? l.tap() : l.click());
  // The session is made through the services: on the phone the session list is a closed drawer.
  await page.goto("/");
  await page.waitForFunction(() => Boolean((globalThis as unknown as { __tabcode?: unknown }).__tabcode));
  await configure(page, mock, "openai-compatible", { permissions: [{ permission: "protect", pattern: "config/**", action: "deny" }] });
  const id = await page.evaluate(async () => (await (globalThis as unknown as { __tabcode: { sessions: { createSession(): Promise<{ id: string }> } } }).__tabcode.sessions.createSession()).id);
  await page.goto(`/#/s/${id}`);
  await seedFile(page, id, "/workspace/lib/a.ts", "export const a = 1;\n");
  await seedFile(page, id, "/workspace/lib/b.ts", "export const b = 2;\n");
  await seedFile(page, id, "/workspace/config/app.json", "{}\n");
  const ws = page.getByRole("region", { name: "Workspace" });
  const showFiles = async () => {
    if (phone && !(await ws.isVisible())) await press(page.getByRole("button", { name: "Show files and todos" }));
    await expect(ws).toBeVisible();
  };
  await showFiles();
  if (phone) expect(await tooSmall(ws)).toEqual([]);

  // New file: a real dialog, focus in its field; Esc closes it and focus goes back to New file.
  const newFile = ws.getByRole("button", { name: "New file…" });
  await press(newFile);
  const create = page.getByRole("dialog", { name: "New file" });
  const path = create.getByRole("textbox", { name: "Path in the workspace" });
  await expect(path).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(create).toBeHidden();
  await expect(newFile).toBeFocused();

  // Refusals are sentences; the typed text stays and so does the focus.
  await press(newFile);
  await expect(path).toBeFocused();
  if (!phone) {
    // No trap and no escape: Tab goes round the dialog's own controls.
    await page.keyboard.press("Tab");
    await expect(create.getByRole("button", { name: "Cancel" })).toBeFocused();
    await page.keyboard.press("Tab");
    await expect(create.getByRole("button", { name: "Create" })).toBeFocused();
    await page.keyboard.press("Shift+Tab");
    await page.keyboard.press("Shift+Tab");
    await expect(path).toBeFocused();
  }
  const refusals: [string, string][] = [
    ["../evil.ts", "“..” (the folder above) cannot be used: the path must stay inside the workspace."],
    ["/etc/passwd", "“/etc/passwd” is outside the workspace (/workspace). Paths start at the workspace folder, for example src/util.ts."],
    ["", "Type a path, for example src/util.ts."],
    [".git/hooks/x", "“.git” is git's own folder: Files does not create, move or delete anything in it."],
    ["lib/a.ts", "lib/a.ts already exists. Open it from the list, or choose another name."],
    ["config/new.json", 'Not created: config/new.json: write refused — protected by your rule "protect config/**".'],
  ];
  for (const [typed, said] of refusals) {
    await path.fill(typed);
    await page.keyboard.press("Enter");
    await expect(create.getByRole("alert")).toHaveText(said);
    await expect(path).toHaveValue(typed);
    await expect(path).toHaveAttribute("aria-invalid", "true");
  }
  await shoot(page, `files-manage-refused-${size}`);
  expect(await seriousAxe(page, "dialog")).toEqual([]);
  if (phone) expect(await tooSmall(create)).toEqual([]);
  expect(await exists(page, id, "/workspace/config/new.json")).toBe(false);

  // Created with its folder, and open in the viewer, ready to type.
  await path.fill("src/util.ts");
  await press(create.getByRole("button", { name: "Create" }));
  await expect(create).toBeHidden();
  const viewer = page.getByRole("dialog", { name: "File src/util.ts" });
  const box = viewer.getByRole("textbox", { name: "Contents of src/util.ts" });
  await expect(box).toBeFocused();
  await box.fill("export const util = true;\n");
  await press(viewer.getByRole("button", { name: "Save" }));
  await expect(viewer.getByRole("status")).toHaveText("Saved src/util.ts.");
  expect(await readText(page, id, "/workspace/src/util.ts")).toBe("export const util = true;\n");
  await shoot(page, `files-manage-viewer-${size}`);
  if (phone) expect(await tooSmall(viewer)).toEqual([]);

  // Rename: the name is selected; a file at the target is replaced only when asked; then it moves across folders.
  const renameButton = viewer.getByRole("button", { name: "Rename…" });
  await press(renameButton);
  const rename = page.getByRole("dialog", { name: "Rename or move src/util.ts" });
  const to = rename.getByRole("textbox", { name: "Path in the workspace" });
  await expect(to).toBeFocused();
  await expect(to).toHaveValue("src/util.ts");
  expect(await to.evaluate((el: HTMLInputElement) => el.value.slice(el.selectionStart ?? 0, el.selectionEnd ?? 0))).toBe("util");
  await to.fill("lib/a.ts");
  await press(rename.getByRole("button", { name: "Rename" }));
  await expect(rename.getByRole("alert")).toHaveText("lib/a.ts already exists. Replace it with src/util.ts? What lib/a.ts holds now will be lost.");
  await expect(rename.getByRole("button", { name: "Replace" })).toBeVisible();
  await shoot(page, `files-manage-rename-ask-${size}`);
  expect(await seriousAxe(page, "dialog")).toEqual([]);
  if (phone) expect(await tooSmall(rename)).toEqual([]);
  // Typing something else takes the question back.
  await to.fill("lib/helpers/util.ts");
  await expect(rename.getByRole("button", { name: "Rename" })).toBeVisible();
  await press(rename.getByRole("button", { name: "Rename" }));
  await expect(rename).toBeHidden();
  const moved = page.getByRole("dialog", { name: "File lib/helpers/util.ts" });
  await expect(moved.getByRole("status")).toHaveText("Moved src/util.ts to lib/helpers/util.ts.");
  await expect(moved.getByRole("button", { name: "Rename…" })).toBeFocused();
  expect(await exists(page, id, "/workspace/src/util.ts")).toBe(false);
  expect(await readText(page, id, "/workspace/lib/helpers/util.ts")).toBe("export const util = true;\n");
  expect(await readText(page, id, "/workspace/lib/a.ts")).toBe("export const a = 1;\n");

  // Delete from the viewer: names the file; Esc keeps it, with focus back on Delete…; Delete deletes it.
  const deleteButton = moved.getByRole("button", { name: "Delete…" });
  await press(deleteButton);
  const confirm = page.getByRole("dialog", { name: "Delete lib/helpers/util.ts?" });
  await expect(confirm).toContainText("lib/helpers/util.ts (26 bytes) will be deleted from the workspace.");
  await expect(confirm.getByRole("button", { name: "Cancel" })).toBeFocused();
  await shoot(page, `files-manage-delete-${size}`);
  expect(await seriousAxe(page, "dialog")).toEqual([]);
  if (phone) expect(await tooSmall(confirm)).toEqual([]);
  await page.keyboard.press("Escape");
  await expect(confirm).toBeHidden();
  await expect(deleteButton).toBeFocused();
  await press(deleteButton);
  // The agent writes the file while the question is open: Delete asks again rather than delete what was not shown.
  await seedFile(page, id, "/workspace/lib/helpers/util.ts", "written by the agent\n");
  await press(confirm.getByRole("button", { name: "Delete", exact: true }));
  await expect(confirm.getByRole("alert")).toHaveText("lib/helpers/util.ts changed since it was shown to you (the agent may have written it). Delete it anyway?");
  expect(await readText(page, id, "/workspace/lib/helpers/util.ts")).toBe("written by the agent\n");
  await press(confirm.getByRole("button", { name: "Delete anyway" }));
  await expect(moved).toBeHidden();
  expect(await exists(page, id, "/workspace/lib/helpers/util.ts")).toBe(false);
  await expect(ws.getByRole("status").filter({ hasText: "Deleted" })).toHaveText("Deleted lib/helpers/util.ts.");
  // Focus goes to the folder the file was in.
  await expect(ws.getByRole("button", { name: "▾ helpers/" })).toBeFocused();

  // A folder: its menu; the question says how many files go; focus ends on New file.
  const libMenu = ws.getByRole("button", { name: "Actions for lib/", exact: true });
  await press(libMenu);
  const libItems = ws.getByRole("menu", { name: "Folder lib/" });
  await expect(libItems.getByRole("menuitem", { name: "New file here…" })).toBeFocused();
  await shoot(page, `files-manage-folder-menu-${size}`);
  if (phone) expect(await tooSmall(libItems)).toEqual([]);
  await press(libItems.getByRole("menuitem", { name: "Delete…" }));
  const folder = page.getByRole("dialog", { name: "Delete the folder lib/?" });
  await expect(folder).toContainText("The folder lib/ and the 2 files in it will be deleted from the workspace.");
  await shoot(page, `files-manage-delete-folder-${size}`);
  await press(folder.getByRole("button", { name: "Delete" }));
  await expect(folder).toBeHidden();
  expect(await exists(page, id, "/workspace/lib")).toBe(false);
  await expect(ws.getByRole("status").filter({ hasText: "Deleted" })).toHaveText("Deleted lib/.");
  await expect(newFile).toBeFocused();

  // A protected folder: refused with the rule's name, nothing deleted.
  await press(ws.getByRole("button", { name: "Actions for config/", exact: true }));
  await press(ws.getByRole("menu", { name: "Folder config/" }).getByRole("menuitem", { name: "Delete…" }));
  const guarded = page.getByRole("dialog", { name: "Delete the folder config/?" });
  await press(guarded.getByRole("button", { name: "Delete" }));
  await expect(guarded.getByRole("alert")).toHaveText('Not deleted: config/app.json: delete refused — protected by your rule "protect config/**".');
  await press(guarded.getByRole("button", { name: "Cancel" }));
  await expect(guarded).toBeHidden();
  expect(await readText(page, id, "/workspace/config/app.json")).toBe("{}\n");

  // A folder of its own (trailing /), then New file here… starts in it.
  await press(newFile);
  await path.fill("docs/");
  await page.keyboard.press("Enter");
  await expect(ws.getByRole("status").filter({ hasText: "Created" })).toHaveText("Created docs/.");
  await expect(ws.getByRole("button", { name: "▸ docs/" })).toBeFocused();
  await press(ws.getByRole("button", { name: "Actions for docs/", exact: true }));
  await press(ws.getByRole("menu", { name: "Folder docs/" }).getByRole("menuitem", { name: "New file here…" }));
  const here = page.getByRole("dialog", { name: "New file in docs/" });
  await expect(here.getByRole("textbox", { name: "Path in the workspace" })).toHaveValue("docs/");
  await page.keyboard.type("guide.md");
  await page.keyboard.press("Enter");
  await expect(page.getByRole("dialog", { name: "File docs/guide.md" }).getByRole("textbox", { name: "Contents of docs/guide.md" })).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog", { name: "File docs/guide.md" })).toBeHidden();
  // Closed, the viewer gives focus to the file's row (the tree opened docs/ to show it).
  await expect(ws.getByRole("button", { name: "guide.md", exact: true })).toBeFocused();
  await page.emulateMedia({ colorScheme: "dark" });
  await shoot(page, `files-manage-tree-${size}-dark`);
  expect(await seriousAxe(page, ".workspace-panel")).toEqual([]);
  await page.emulateMedia({ colorScheme: "light" });
  await shoot(page, `files-manage-tree-${size}`);
  if (phone) expect(await tooSmall(ws)).toEqual([]);
}

test.describe("desktop (1400×900)", () => {
  test.use({ viewport: { width: 1400, height: 900 } });
  test("create, edit, rename and delete files and folders from the Files panel — desktop", async ({ page, mock }) => manage(page, mock, "desktop"));
});

test.describe("touch phone (390×844)", () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  test("create, edit, rename and delete files and folders from the Files panel — phone", async ({ page, mock }) => manage(page, mock, "phone"));
});
