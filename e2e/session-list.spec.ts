/** The session list with thousands of sessions (an imported history): each date group shows its first 100, then "Show more". */
import { createSessions, openApp } from "./app";
import { seriousAxe } from "./views";
import { expect, test } from "./fixtures";

test("a long session list shows its first 100 sessions per group and more on request; the open session is always listed", async ({ page }) => {
  await openApp(page);
  const ids = await page.evaluate(async () => {
    const t = (globalThis as unknown as { __tabcode: { sessions: { createSession(): Promise<{ id: string }> } } }).__tabcode;
    const out: string[] = [];
    for (let i = 0; i < 250; i++) out.push((await t.sessions.createSession()).id);
    return out;
  });
  const today = page.getByRole("navigation", { name: "Sessions" }).getByRole("region", { name: "Today" });
  const items = today.getByRole("listitem");
  await expect(items).toHaveCount(100);
  await today.getByRole("button", { name: "Show 150 more of 150 (Today)" }).click();
  await expect(items).toHaveCount(250);
  await expect(today.getByRole("button", { name: /^Show \d+ more/ })).toHaveCount(0);

  // After a reload the list is short again, but the session that is open (the oldest, far down) is listed.
  await page.goto(`/#/s/${ids[249]}`);
  await page.reload();
  await expect(items).toHaveCount(100);
  await page.goto(`/#/s/${ids[0]}`);
  await page.reload();
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(items).toHaveCount(250);
  await expect(today.getByRole("button", { name: /^Show \d+ more/ })).toHaveCount(0);
});

test("a deleted session's files wait for its Undo toast: Undo after a long read restores them, ✕ deletes them; Esc in a rename ends only the rename", async ({ page }) => {
  test.setTimeout(60_000);
  await openApp(page);
  type T = { __tabcode: { sessions: { createSession(o: { title: string }): Promise<{ id: string }> }; sandbox: { seedWorkspace(id: string, files: Record<string, string>): Promise<void>; sandboxFor(id: string): Promise<{ fs: { readFile(p: string): Promise<Uint8Array> } }> } } };
  const make = (title: string) =>
    page.evaluate(async (title) => {
      const t = (globalThis as unknown as T).__tabcode;
      const { id } = await t.sessions.createSession({ title });
      await t.sandbox.seedWorkspace(id, { "notes.txt": "do not lose me\n" });
      return id;
    }, title);
  const fileOf = (id: string) =>
    page.evaluate(async (id) => {
      const t = (globalThis as unknown as T).__tabcode;
      return new TextDecoder().decode(await (await t.sandbox.sandboxFor(id)).fs.readFile("/workspace/notes.txt")).trim();
    }, id).catch((e: unknown) => `gone: ${String(e).slice(0, 60)}`);
  const long = `Keep ${"a very long title ".repeat(12)}end`;
  const kept = await make(long);
  const nav = page.getByRole("navigation", { name: "Sessions" });
  await nav.getByRole("button", { name: `Delete ${long}` }).click();
  await page.getByRole("dialog", { name: "Delete this session?" }).getByRole("button", { name: "Delete" }).click();
  const toast = page.getByRole("status").filter({ hasText: "Deleted" });
  // The toast quotes a long title cut short.
  await expect(toast).toContainText("Deleted “Keep a very long title");
  expect((await toast.innerText()).length).toBeLessThan(120);
  // Read for longer than the toast's time (hovering pauses it): its Undo still brings everything back.
  await toast.hover();
  await page.waitForTimeout(10_000);
  await toast.getByRole("button", { name: "Undo" }).click();
  await expect(page).toHaveURL(new RegExp(`#/s/${kept}`));
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(long);
  expect(await fileOf(kept)).toBe("do not lose me");

  // ✕ on the toast: the files go then.
  const gone = await make("Gone for good");
  await nav.getByRole("button", { name: "Delete Gone for good" }).click();
  await page.getByRole("dialog", { name: "Delete this session?" }).getByRole("button", { name: "Delete" }).click();
  await page.getByRole("status").filter({ hasText: "Deleted “Gone for good”" }).getByRole("button", { name: "Dismiss" }).click();
  await expect.poll(() => fileOf(gone)).toMatch(/^gone/);
  expect(await page.evaluate(() => localStorage.getItem("tabcode.deleted.pending"))).toBeNull();

  // Esc in the title field ends the rename, keeps the title, and gives the keyboard back to Rename.
  await nav.getByRole("button", { name: `Rename ${long}` }).click();
  await nav.getByRole("textbox", { name: "Session title" }).fill("Renamed by mistake");
  await page.keyboard.press("Escape");
  await expect(nav.getByRole("button", { name: `Rename ${long}` })).toBeFocused();
  await expect(nav.getByRole("textbox", { name: "Session title" })).toHaveCount(0);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(long);
  // Enter renames once.
  await page.keyboard.press("Enter");
  await nav.getByRole("textbox", { name: "Session title" }).fill("Renamed");
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Renamed");
  await expect(nav.getByRole("button", { name: "Rename Renamed" })).toBeFocused();
});

test("storage full: the delete's one question says it cannot be undone; Cancel and Esc keep the session, Delete for good deletes it", async ({ page }) => {
  test.setTimeout(60_000);
  await openApp(page);
  type T = { __tabcode: { sessions: { createSession(o: { title: string }): Promise<{ id: string }> }; sandbox: { seedWorkspace(id: string, files: Record<string, string>): Promise<void>; sandboxFor(id: string): Promise<{ fs: { readFile(p: string): Promise<Uint8Array> } }> } } };
  const id = await page.evaluate(async () => {
    const t = (globalThis as unknown as T).__tabcode;
    const { id } = await t.sessions.createSession({ title: "Nearly full" });
    await t.sandbox.seedWorkspace(id, { "notes.txt": "still here\n" });
    return id;
  });
  const fileOf = () =>
    page.evaluate(async (id) => {
      const t = (globalThis as unknown as T).__tabcode;
      return new TextDecoder().decode(await (await t.sandbox.sandboxFor(id)).fs.readFile("/workspace/notes.txt")).trim();
    }, id).catch((e: unknown) => `gone: ${String(e).slice(0, 60)}`);
  const nav = page.getByRole("navigation", { name: "Sessions" });
  const remove = nav.getByRole("button", { name: "Delete Nearly full" });
  await expect(remove).toHaveCount(1);
  // Switchable: the site's localStorage full, every write refused for want of room, even after making room.
  const setFull = (full: boolean) =>
    page.evaluate((full) => {
      const w = window as unknown as { __full?: boolean; __patched?: boolean };
      if (!w.__patched) {
        const set = Storage.prototype.setItem;
        Storage.prototype.setItem = function (this: Storage, key: string, value: string) {
          if (w.__full) throw new DOMException("The quota has been exceeded.", "QuotaExceededError");
          return set.call(this, key, value);
        };
        w.__patched = true;
      }
      w.__full = full;
    }, full);
  const noted = () => page.evaluate((id) => id in (JSON.parse(localStorage.getItem("tabcode.deleted.pending") ?? "{}") as Record<string, number>), id);
  const ask = page.getByRole("dialog", { name: "Delete “Nearly full” for good?" });

  // Storage has room when Delete is pressed: the undoable question, and no note held while it is open.
  await setFull(false);
  await remove.click();
  const undoable = page.getByRole("dialog", { name: "Delete this session?" });
  await expect(undoable).toContainText("You can undo it");
  expect(await noted()).toBe(false);
  // Storage fills up before the answer: asked again, for good, before anything goes.
  await setFull(true);
  await undoable.getByRole("button", { name: "Delete" }).click();
  await expect(ask).toBeVisible();
  await expect(nav.getByRole("button", { name: /^Nearly full / })).toHaveCount(1);
  await ask.getByRole("button", { name: "Cancel" }).click();
  await expect(ask).toHaveCount(0);
  expect(await fileOf()).toBe("still here");

  const askAgain = async () => {
    await remove.click();
    await expect(ask).toBeVisible();
    // One question, with the right words: never "you can undo it" first.
    await expect(page.getByRole("dialog")).toHaveCount(1);
  };
  const stillThere = async () => {
    await expect(ask).toHaveCount(0);
    await expect(remove).toBeFocused();
    await expect(nav.getByRole("button", { name: /^Nearly full / })).toHaveCount(1);
    expect(await fileOf()).toBe("still here");
    expect(await page.evaluate(() => localStorage.getItem("tabcode.deleted.pending"))).toBeNull();
  };

  await askAgain();
  await expect(ask).toContainText("The browser's storage is full, so this delete cannot be undone");
  // Nothing is gone while it asks; the keyboard starts on Cancel and stays in the dialog.
  await expect(nav.getByRole("button", { name: /^Nearly full / })).toHaveCount(1);
  await expect(ask.getByRole("button", { name: "Cancel" })).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(ask.getByRole("button", { name: "Delete for good" })).toBeFocused();
  expect(await seriousAxe(page, "dialog")).toEqual([]);
  await ask.getByRole("button", { name: "Cancel" }).click();
  await stillThere();

  // Esc is Cancel.
  await askAgain();
  await page.keyboard.press("Escape");
  await stillThere();

  await askAgain();
  // The second click of a double-click (on the row's Delete, as the dialog opened under the pointer) is no answer.
  const box = await ask.getByRole("button", { name: "Delete for good" }).boundingBox();
  if (!box) throw new Error("no Delete for good button");
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down({ clickCount: 2 });
  await page.mouse.up({ clickCount: 2 });
  await page.waitForTimeout(300);
  await expect(ask).toBeVisible();
  await expect(nav.getByRole("button", { name: /^Nearly full / })).toHaveCount(1);
  await ask.getByRole("button", { name: "Delete for good" }).click();
  const toast = page.getByRole("status").filter({ hasText: "Deleted “Nearly full” for good." });
  await expect(toast).toBeVisible();
  await expect(toast.getByRole("button", { name: "Undo" })).toHaveCount(0);
  await expect(nav.getByRole("button", { name: /^Nearly full / })).toHaveCount(0);
  await expect.poll(fileOf).toMatch(/^gone/);
  expect(await page.evaluate(() => localStorage.getItem("tabcode.deleted.pending"))).toBeNull();
});

test("storage full: pressing Delete and then Cancel frees nothing (other sessions' terminal logs, the glance); Delete makes the room", async ({ page }) => {
  await openApp(page);
  const [id, other] = await createSessions(page, ["Going", "Other"]);
  // The other session's terminal log and a glance picture: what making room would free.
  const log = JSON.stringify(Array.from({ length: 6 }, (_, i) => ({ id: `cmd_${i}`, command: "cat big", start: i, status: "done", output: `line ${i}\n`.repeat(200) })));
  const kept = () =>
    page.evaluate(
      (other) => ({ log: localStorage.getItem(`tabcode.terminal.${other}`), glance: localStorage.getItem("tabcode:glance"), picture: localStorage.getItem("tabcode:glance:ses_pictured") }),
      other,
    );
  // The site's storage full: a write that would make it hold more than it does now is refused for want of room.
  await page.evaluate(
    ({ other, log }) => {
      localStorage.setItem(`tabcode.terminal.${other}`, log);
      localStorage.setItem("tabcode:glance", JSON.stringify(["ses_pictured"]));
      localStorage.setItem("tabcode:glance:ses_pictured", "p".repeat(2_000));
      const used = () => Object.keys(localStorage).reduce((n, k) => n + k.length + (localStorage.getItem(k) ?? "").length, 0);
      const quota = used();
      const set = Storage.prototype.setItem;
      Storage.prototype.setItem = function (this: Storage, key: string, value: string) {
        const old = this.getItem(key);
        if (used() - (old === null ? 0 : key.length + old.length) + key.length + String(value).length > quota) throw new DOMException("The quota has been exceeded.", "QuotaExceededError");
        return set.call(this, key, value);
      };
    },
    { other, log },
  );
  const before = await kept();
  expect(before.log).toBe(log);
  const nav = page.getByRole("navigation", { name: "Sessions" });
  const question = page.getByRole("dialog", { name: "Delete this session?" });
  // Making room would let the delete's note in: the question says it can be undone, and nothing is freed yet.
  await nav.getByRole("button", { name: "Delete Going" }).click();
  await expect(question).toContainText("You can undo it");
  expect(await kept()).toEqual(before);
  await question.getByRole("button", { name: "Cancel" }).click();
  await expect(question).toHaveCount(0);
  expect(await kept()).toEqual(before);
  expect(await page.evaluate(() => localStorage.getItem("tabcode.deleted.pending"))).toBeNull();

  // Delete: now the room is made (the glance first, then the other log), and the delete offers its Undo.
  await nav.getByRole("button", { name: "Delete Going" }).click();
  await question.getByRole("button", { name: "Delete" }).click();
  const toast = page.getByRole("status").filter({ hasText: "Deleted “Going”." });
  await expect(toast.getByRole("button", { name: "Undo" })).toBeVisible();
  const after = await kept();
  expect(after.glance).toBeNull();
  expect(after.picture).toBeNull();
  expect(after.log === null || after.log.length < log.length).toBe(true);
  expect(await page.evaluate((id) => id in (JSON.parse(localStorage.getItem("tabcode.deleted.pending") ?? "{}") as Record<string, number>), id)).toBe(true);
});

test("a delete asked about in one tab while another tab deletes the session: the question closes and says so; archived elsewhere, it stays", async ({ context, page }) => {
  test.setTimeout(60_000);
  await openApp(page);
  await createSessions(page, ["Kept", "Shared"]);
  const other = await context.newPage();
  await openApp(other);
  const nav = page.getByRole("navigation", { name: "Sessions" });
  const otherNav = other.getByRole("navigation", { name: "Sessions" });
  const row = nav.getByRole("button", { name: /^Shared / });
  await expect(otherNav.getByRole("button", { name: /^Shared / })).toHaveCount(1);

  await nav.getByRole("button", { name: "Delete Shared" }).focus();
  await page.keyboard.press("Enter");
  const question = page.getByRole("dialog", { name: "Delete this session?" });
  await expect(question).toBeVisible();

  // Archived in the other tab: gone from this tab's list, but still there; the question stays.
  await otherNav.getByRole("button", { name: "Archive Shared" }).click();
  await expect(row).toHaveCount(0);
  await page.waitForTimeout(500);
  await expect(question).toBeVisible();

  // Deleted in the other tab (from its archived list): the question closes, its Delete never offered in vain.
  await otherNav.getByRole("button", { name: "Show archived" }).click();
  await otherNav.getByRole("button", { name: "Delete Shared" }).click();
  await other.getByRole("dialog", { name: "Delete this session?" }).getByRole("button", { name: "Delete" }).click();
  await expect(other.getByRole("status").filter({ hasText: "Deleted “Shared”." })).toBeVisible();
  await expect(question).toHaveCount(0);
  await expect(page.getByRole("status").filter({ hasText: "“Shared” was deleted in another tab." })).toBeVisible();
  await expect(page.getByRole("alert")).toHaveCount(0);
  // The keyboard is not dropped on the page's start with the question and the row gone: it is on the list's Tab stop.
  await expect(nav.getByRole("button", { name: /^Kept / })).toBeFocused();
});

test("deleting a session from the keyboard keeps the keyboard in the list: Cancel returns to its Delete, Delete moves to the list's Tab stop", async ({ page }) => {
  await openApp(page);
  await createSessions(page, ["Alpha", "Beta", "Gamma"]);
  const nav = page.getByRole("navigation", { name: "Sessions" });
  const question = page.getByRole("dialog", { name: "Delete this session?" });
  await nav.getByRole("button", { name: /^Beta / }).focus();
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("ArrowRight");
  await expect(nav.getByRole("button", { name: "Delete Beta" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(question).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(question).toHaveCount(0);
  await expect(nav.getByRole("button", { name: "Delete Beta" })).toBeFocused();

  await page.keyboard.press("Enter");
  await expect(question).toBeVisible();
  await question.getByRole("button", { name: "Delete" }).focus();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("status").filter({ hasText: "Deleted “Beta”." })).toBeVisible();
  await expect(nav.getByRole("button", { name: /^Beta / })).toHaveCount(0);
  // Its row went with the focus in it: the keyboard lands on the list's Tab stop, and the arrows go on from there.
  const focused = nav.locator(".session-list button.session-link:focus");
  await expect(focused).toHaveCount(1);
  await expect(focused).toHaveAccessibleName(/^(Alpha|Gamma) /);
});

test("the session list is one Tab stop: arrows move between sessions and into a session's actions", async ({ page }) => {
  await openApp(page);
  await createSessions(page, ["Alpha", "Beta", "Gamma"]);
  const nav = page.getByRole("navigation", { name: "Sessions" });
  const link = (title: string) => nav.getByRole("button", { name: new RegExp(`^${title} just now$`) });
  await expect(link("Alpha")).toBeVisible();
  // One session is in the Tab order; its description says how the arrows move.
  expect(await nav.locator(".session-list button:not([tabindex='-1'])").count()).toBe(1);
  await expect(link("Gamma")).toHaveAccessibleDescription(/Up and Down arrows move between sessions/);
  await link("Gamma").focus();
  await page.keyboard.press("ArrowDown");
  await expect(link("Beta")).toBeFocused();
  await page.keyboard.press("End");
  await expect(link("Alpha")).toBeFocused();
  await page.keyboard.press("Home");
  await expect(link("Gamma")).toBeFocused();
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("ArrowRight");
  await expect(nav.getByRole("button", { name: "Rename Beta" })).toBeFocused();
  await page.keyboard.press("ArrowRight");
  await expect(nav.getByRole("button", { name: "Pin Beta" })).toBeFocused();
  await page.keyboard.press("ArrowLeft");
  await page.keyboard.press("ArrowLeft");
  await expect(link("Beta")).toBeFocused();
  // The Tab stop follows the keyboard: Tab leaves the list, Shift+Tab comes back to Beta.
  await page.keyboard.press("Tab");
  await expect(page.locator(".session-list :focus")).toHaveCount(0);
  await page.keyboard.press("Shift+Tab");
  await expect(link("Beta")).toBeFocused();
  // Enter opens it.
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { level: 1, name: "Beta" })).toBeVisible();
});
