import { configure, newSession, openApp, send, waitIdle } from "./app";
import { expect, test } from "./fixtures";

test.describe("phone (390×844)", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("sessions and files are modal drawers: toggle buttons, a close control, Esc closes, focus returns; the conversation gets the width", async ({ page }) => {
    await page.goto("/");
    const toggle = page.getByRole("button", { name: "Show sessions" });
    await expect(toggle).toHaveAttribute("aria-expanded", "false");
    await expect(page.getByRole("navigation", { name: "Sessions" })).toBeHidden();

    await toggle.click();
    const nav = page.getByRole("navigation", { name: "Sessions" });
    await expect(nav).toBeVisible();
    // Focus goes to the drawer's close control; the page behind is inert.
    const hideSessions = nav.getByRole("button", { name: "Hide sessions" });
    await expect(hideSessions).toHaveAttribute("aria-expanded", "true");
    await expect(hideSessions).toBeFocused();
    await expect(page.getByRole("main")).toHaveAttribute("inert", "");
    // What appears behind the open drawer (here: a button added beside the main area) is inert too.
    await page.evaluate(() => {
      const late = document.createElement("button");
      late.textContent = "Added behind the drawer";
      document.querySelector("main")?.after(late);
    });
    await expect(page.getByRole("button", { name: "Added behind the drawer", includeHidden: true })).toHaveAttribute("inert", "");
    await page.keyboard.press("Escape");
    await expect(nav).toBeHidden();
    await expect(page.getByRole("button", { name: "Added behind the drawer" })).not.toHaveAttribute("inert", "");
    await page.evaluate(() => {
      for (const b of document.querySelectorAll("button")) if (b.textContent === "Added behind the drawer") b.remove();
    });
    await expect(toggle).toBeFocused();
    await expect(page.getByRole("main")).not.toHaveAttribute("inert", "");

    // Picking "New session" in the drawer closes it and opens the session.
    await toggle.click();
    await nav.getByRole("button", { name: "New session", exact: true }).click();
    await expect(page).toHaveURL(/#\/s\/ses_/);
    await expect(nav).toBeHidden();

    const composer = page.getByRole("textbox", { name: "Message" });
    const box = await composer.boundingBox();
    expect(box?.width ?? 0).toBeGreaterThan(300);
    await expect(page.getByRole("complementary", { name: "Files and todos" })).toBeHidden();

    const files = page.getByRole("button", { name: "Show files and todos" });
    await files.click();
    const panel = page.getByRole("complementary", { name: "Files and todos" });
    await expect(panel).toBeVisible();
    await expect(panel.getByRole("heading", { name: "Files" })).toBeVisible();
    // Its close control has focus (not the Pinned panel's text field, which would raise a phone's keyboard).
    const hideFiles = page.locator("#files-panel").getByRole("button", { name: "Hide files and todos" });
    await expect(hideFiles).toBeFocused();
    const size = await hideFiles.boundingBox();
    expect(Math.min(size?.width ?? 0, size?.height ?? 0)).toBeGreaterThanOrEqual(44);
    await page.keyboard.press("Escape");
    await expect(panel).toBeHidden();
    await expect(files).toBeFocused();

    // Modal: Tab goes round the drawer (and the browser's own controls), never to the composer behind the scrim.
    await files.click();
    let rounds = 0;
    for (let i = 0; i < 40 && rounds < 2; i++) {
      await page.keyboard.press("Tab");
      const at = await page.evaluate(() => {
        const a = document.activeElement;
        return a === document.body ? "body" : document.getElementById("files-panel")?.contains(a) ? "drawer" : `${a?.tagName} ${a?.getAttribute("aria-label")}`;
      });
      expect(at).toMatch(/^(body|drawer)$/);
      if (await hideFiles.evaluate((b) => b === document.activeElement)) rounds++;
    }
    expect(rounds).toBe(2);
    // The close control closes it; focus goes back to ▤ and the page is live again.
    await hideFiles.click();
    await expect(panel).toBeHidden();
    await expect(files).toBeFocused();
    await composer.focus();
    await expect(composer).toBeFocused();

    // One drawer at a time: Ctrl+B from the files drawer swaps it for the sessions drawer; Esc goes back to ▤.
    await files.click();
    await page.keyboard.press("Control+b");
    await expect(nav).toBeVisible();
    await expect(panel).toBeHidden();
    await expect(hideSessions).toBeFocused();
    await page.keyboard.press("Escape");
    await expect(files).toBeFocused();
    // And back: Ctrl+Alt+B from the sessions drawer swaps it for the files drawer, whose close control takes focus.
    await toggle.click();
    await page.keyboard.press("Control+Alt+b");
    await expect(panel).toBeVisible();
    await expect(nav).toBeHidden();
    await expect(hideFiles).toBeFocused();
    await page.keyboard.press("Escape");
    await expect(toggle).toBeFocused();

    // The sessions drawer's close control; a dialog opened in it works and leaves the drawer open.
    await toggle.click();
    await nav.getByRole("button", { name: /^Delete / }).click();
    const confirm = page.getByRole("dialog", { name: "Delete this session?" });
    await confirm.getByRole("button", { name: "Cancel" }).click();
    await expect(confirm).toBeHidden();
    await expect(nav).toBeVisible();
    await hideSessions.click();
    await expect(nav).toBeHidden();
    await expect(toggle).toBeFocused();
  });

  test("the demo's tour popover stays on screen", async ({ page }) => {
    test.setTimeout(60_000);
    await page.goto("/");
    await page.getByRole("button", { name: "Start the demo" }).click();
    const tour = page.getByRole("complementary", { name: "Guided tour" });
    await expect(tour).toBeVisible({ timeout: 30_000 });
    const b = await tour.boundingBox();
    expect(b).not.toBeNull();
    if (!b) return;
    expect(b.x).toBeGreaterThanOrEqual(0);
    expect(b.y).toBeGreaterThanOrEqual(0);
    expect(b.x + b.width).toBeLessThanOrEqual(390);
    expect(b.y + b.height).toBeLessThanOrEqual(844);
  });

  test("the header's figures are one line that scrolls sideways, from the keyboard too", async ({ page, mock }) => {
    await page.goto("/");
    // The app has started (its services exist) once the start page shows.
    await page.getByRole("button", { name: "New session" }).waitFor();
    await configure(page, mock, "openai-compatible");
    await page.getByRole("button", { name: "New session" }).click();
    await expect(page).toHaveURL(/#\/s\/ses_/);
    mock.setScript([{ text: ["Done: the figures now fit."] }]);
    await send(page, "Tidy the header");
    await waitIdle(page, new URL(page.url()).hash.replace("#/s/", ""));
    const figures = page.getByRole("group", { name: "Session figures" });
    // Model, context, cost, tokens, cache and the rules line: all there, on one line (wrapped, they took three).
    for (const text of ["gpt-4o-mini", "Context", "$0.0", "↑", "cache hit", "Reload rules"]) await expect(figures).toContainText(text);
    const box = await figures.boundingBox();
    expect(box?.height ?? 100).toBeLessThan(32);
    expect(box ? box.x + box.width : 1000).toBeLessThanOrEqual(390);
    // The context and the cost are in view before any scrolling.
    const cost = await page.getByTestId("session-cost").boundingBox();
    expect(cost ? cost.x + cost.width : 1000).toBeLessThanOrEqual(390);
    const scroll = () => figures.evaluate((el) => ({ left: el.scrollLeft, more: el.scrollWidth - el.clientWidth }));
    expect((await scroll()).more).toBeGreaterThan(0);
    // A tab stop of its own: the arrow keys scroll it.
    await figures.focus();
    await expect(figures).toBeFocused();
    for (let i = 0; i < 8; i++) await page.keyboard.press("ArrowRight");
    await expect.poll(async () => (await scroll()).left).toBeGreaterThan(0);
    const reload = figures.getByRole("button", { name: "Reload rules" });
    await reload.scrollIntoViewIfNeeded();
    const r = await reload.boundingBox();
    expect(r ? r.x + r.width : 1000).toBeLessThanOrEqual(391);
  });

  test("a message's ⋯ menu just above the composer opens upwards: every item is on screen and none is under the composer", async ({ page, mock }) => {
    await page.goto("/");
    await page.getByRole("button", { name: "New session" }).waitFor();
    await configure(page, mock, "openai-compatible");
    await page.getByRole("button", { name: "New session" }).click();
    await expect(page).toHaveURL(/#\/s\/ses_/);
    // Answers long enough to fill the screen: the list then sits scrolled to its end, the last ⋯ just above the composer.
    const long = (n: number) => Array.from({ length: 6 }, (_, i) => `Paragraph ${i + 1} of answer ${n}, long enough to wrap over a few lines on a phone.`).join("\n\n");
    mock.setScript([{ text: long(1) }, { text: long(2) }, { text: "Both are in place." }]);
    for (const question of ["First question", "Second question", "Anything else left?"]) {
      await send(page, question);
      await waitIdle(page, new URL(page.url()).hash.replace("#/s/", ""));
    }
    const last = page.getByRole("article", { name: "Assistant message" }).last();
    await last.getByRole("button", { name: "More actions for this message" }).click();
    const menu = page.getByRole("menu", { name: "Message actions" });
    const composer = await page.getByRole("textbox", { name: "Message" }).boundingBox();
    for (const item of await menu.getByRole("menuitem").all()) {
      await expect(item).toBeInViewport({ ratio: 1 });
      const box = await item.boundingBox();
      expect((box?.y ?? 0) + (box?.height ?? 0)).toBeLessThanOrEqual(composer?.y ?? 0);
    }
    await page.keyboard.press("Escape");
    await expect(menu).toHaveCount(0);
  });

  test("the message box is about two lines when empty and grows with its text, up to 30 % of the screen", async ({ page }) => {
    await page.goto("/");
    await page.getByRole("button", { name: "New session" }).click();
    await expect(page).toHaveURL(/#\/s\/ses_/);
    const box = page.getByRole("textbox", { name: "Message" });
    await expect(box).toHaveAttribute("placeholder", "Ask tabcode… (/ commands, @ files)");
    const height = async () => (await box.boundingBox())?.height ?? 0;
    const empty = await height();
    expect(empty).toBeLessThan(64);
    await box.fill(Array.from({ length: 6 }, (_, i) => `line ${i + 1}`).join("\n"));
    await expect.poll(height).toBeGreaterThan(empty + 60);
    await box.fill(Array.from({ length: 80 }, (_, i) => `line ${i + 1}`).join("\n"));
    await expect.poll(height).toBeGreaterThan(200);
    expect(await height()).toBeLessThanOrEqual(844 * 0.3 + 1);
    // Past the cap it scrolls: the text is all there.
    expect(await box.evaluate((el) => el.scrollHeight > el.clientHeight)).toBe(true);
  });

  test("a long model name: the composer's controls stay one row (Stop too), the header's cost and the answer's time stay in view", async ({ page, mock }) => {
    await page.goto("/");
    // The app has started (its services exist) once the start page shows.
    await page.getByRole("button", { name: "New session" }).waitFor();
    await configure(page, mock, "openai-compatible", { modelID: "a-rather-long-model-identifier-2026-12-01-preview" });
    await page.getByRole("button", { name: "New session" }).click();
    await expect(page).toHaveURL(/#\/s\/ses_/);
    const sendButton = page.getByRole("button", { name: "Send" });
    const agent = page.getByRole("combobox", { name: "Agent" });
    const top = async (l: typeof sendButton) => (await l.boundingBox())?.y ?? -1;
    const right = async (l: typeof sendButton) => {
      const b = await l.boundingBox();
      return b ? b.x + b.width : 1000;
    };
    expect(Math.abs((await top(sendButton)) - (await top(agent)))).toBeLessThan(12);
    expect(await right(sendButton)).toBeLessThanOrEqual(390);
    // A slow answer: Stop appears beside Send, on the same row.
    mock.setScript([{ text: Array.from({ length: 80 }, (_, i) => `word${i} `), chunkDelayMs: 100 }]);
    await page.getByRole("textbox", { name: "Message" }).fill("Take your time");
    await sendButton.click();
    const stop = page.getByRole("button", { name: "Stop" });
    await expect(stop).toBeVisible();
    expect(Math.abs((await top(stop)) - (await top(sendButton)))).toBeLessThan(12);
    expect(await right(sendButton)).toBeLessThanOrEqual(390);
    // The long name does not push the header's cost out of view, nor wrap the answer's time over three lines.
    expect(await right(page.getByTestId("session-cost"))).toBeLessThanOrEqual(390);
    const time = page.getByRole("article").last().locator("time");
    await expect(time).toBeVisible();
    expect((await time.boundingBox())?.height ?? 100).toBeLessThan(24);
    await stop.click();
  });
});

test.describe("tablet (1024×768)", () => {
  test.use({ viewport: { width: 1024, height: 768 } });

  test("the header keeps Share and folds the rest into a More menu", async ({ page }) => {
    await page.goto("/");
    await page.getByRole("navigation", { name: "Sessions" }).getByRole("button", { name: "New session", exact: true }).click();
    await expect(page).toHaveURL(/#\/s\/ses_/);
    const header = page.getByRole("main");
    await expect(header.getByRole("button", { name: "Share" })).toBeVisible();
    await expect(header.getByRole("button", { name: "Context X-ray" })).toHaveCount(0);
    const title = await page.getByRole("heading", { level: 1 }).boundingBox();
    const share = await header.getByRole("button", { name: "Share" }).boundingBox();
    // One row: the actions sit beside the title.
    expect(Math.abs((title?.y ?? 0) - (share?.y ?? 100))).toBeLessThan(20);

    const more = page.getByRole("button", { name: "More ▾" });
    await more.click();
    await expect(page.getByRole("menu", { name: "More actions" })).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(page.getByRole("menu", { name: "More actions" })).toBeHidden();
    await expect(more).toBeFocused();
    // A new session has nothing to summarise: the arrows still reach Compact now, which shows and reads why.
    await page.keyboard.press("ArrowDown");
    await expect(page.getByRole("menuitem", { name: "Replay" })).toBeFocused();
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("ArrowDown");
    const compactNow = page.getByRole("menuitem", { name: "Compact now" });
    await expect(compactNow).toBeFocused();
    await expect(compactNow).toHaveAttribute("aria-disabled", "true");
    await expect(compactNow).toHaveAccessibleDescription("Nothing to summarise yet");
    await expect(page.getByRole("menu", { name: "More actions" }).getByText("Nothing to summarise yet")).toBeVisible();
    await page.keyboard.press("Enter");
    await expect(page.getByRole("menu", { name: "More actions" })).toBeVisible();
    await expect(page.getByRole("dialog")).toHaveCount(0);
    await page.keyboard.press("Escape");
    await more.click();
    await page.getByRole("menuitem", { name: "Context X-ray" }).click();
    await expect(page.getByRole("dialog", { name: /Context X-ray/ })).toBeVisible();
  });
});

test.describe("desktop (1400×900)", () => {
  test.use({ viewport: { width: 1400, height: 900 } });

  test("both side panels collapse and resize (pointer and keyboard), and remember it", async ({ page }) => {
    await page.goto("/");
    const nav = page.getByRole("navigation", { name: "Sessions" });
    await nav.getByRole("button", { name: "New session", exact: true }).click();
    await expect(page).toHaveURL(/#\/s\/ses_/);

    const handle = page.getByRole("separator", { name: "Resize sessions panel" });
    const before = Number(await handle.getAttribute("aria-valuenow"));
    await handle.focus();
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("ArrowRight");
    await expect(handle).toHaveAttribute("aria-valuenow", String(before + 32));
    const hb = await handle.boundingBox();
    if (hb) {
      await page.mouse.move(hb.x + hb.width / 2, hb.y + 200);
      await page.mouse.down();
      await page.mouse.move(hb.x + hb.width / 2 + 60, hb.y + 200, { steps: 4 });
      await page.mouse.up();
    }
    await expect(handle).toHaveAttribute("aria-valuenow", String(before + 92));

    const filesHandle = page.getByRole("separator", { name: "Resize files and todos panel" });
    const fw = Number(await filesHandle.getAttribute("aria-valuenow"));
    await filesHandle.focus();
    await page.keyboard.press("ArrowLeft");
    await expect(filesHandle).toHaveAttribute("aria-valuenow", String(fw + 16));

    await nav.getByRole("button", { name: "Hide sessions" }).click();
    await expect(nav).toBeHidden();
    await page.getByRole("button", { name: "Hide files and todos" }).click();
    await expect(page.getByRole("complementary", { name: "Files and todos" })).toBeHidden();

    await page.reload();
    await expect(page.getByRole("button", { name: "Show sessions" })).toBeVisible();
    await expect(nav).toBeHidden();
    await page.getByRole("button", { name: "Show sessions" }).click();
    await expect(nav).toBeVisible();
    await expect(page.getByRole("separator", { name: "Resize sessions panel" })).toHaveAttribute("aria-valuenow", String(before + 92));
    await page.getByRole("button", { name: "Show files and todos" }).click();
    await expect(page.getByRole("complementary", { name: "Files and todos" })).toBeVisible();
    // "Upload folder" picks a folder, not files.
    await expect(page.locator('input[type="file"][webkitdirectory]')).toHaveCount(1);
  });
});

test.describe("touch phone (390×844)", () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

  test("every text field is at least 16 px, so a phone does not zoom the page when one gets focus", async ({ page, mock }) => {
    await page.goto("/");
    await page.waitForFunction(() => "__tabcode" in globalThis);
    await configure(page, mock, "openai-compatible");
    await page.getByRole("button", { name: "Show sessions" }).click();
    await page.getByRole("navigation", { name: "Sessions" }).getByRole("button", { name: "New session", exact: true }).click();
    await expect(page.getByRole("textbox", { name: "Message" })).toBeVisible();
    const small = () =>
      page.evaluate(() =>
        [...document.querySelectorAll<HTMLElement>("input, textarea, select")]
          .filter((el) => el.offsetParent !== null && !["checkbox", "radio", "range", "file"].includes((el as HTMLInputElement).type))
          .map((el) => ({ name: el.getAttribute("aria-label") ?? el.id ?? el.tagName, size: Number.parseFloat(getComputedStyle(el).fontSize) }))
          .filter((f) => f.size < 16),
      );
    expect(await small()).toEqual([]);
    // The side drawer: the pinned constraint field and the terminal's command line.
    await page.getByRole("button", { name: "Show files and todos" }).click();
    const toggle = page.getByRole("button", { name: "Terminal" });
    if ((await toggle.getAttribute("aria-expanded")) !== "true") await toggle.click();
    await expect(page.getByRole("textbox", { name: "Command to run in the sandbox" })).toBeVisible();
    expect(await small()).toEqual([]);
    await page.screenshot({ path: test.info().outputPath("touch-terminal-390.png") });
  });
});

test("the header keeps its height while a run's status comes and goes (retrying, working), at 1400 and 1280", async ({ page, mock }) => {
  test.setTimeout(60_000);
  for (const width of [1400, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    mock.setScript([{ error: { status: 429, headers: { "retry-after-ms": "2500" } } }, { text: "x ".repeat(60), chunkDelayMs: 30 }]);
    await openApp(page);
    await configure(page, mock, "openai-compatible");
    const id = await newSession(page);
    const height = () => page.locator(".session-header").evaluate((e) => Math.round(e.getBoundingClientRect().height));
    const idle = await height();
    await send(page, "go");
    await expect(page.getByRole("status").filter({ hasText: /Rate limited/ }).first()).toBeVisible();
    expect(await height()).toBe(idle);
    await waitIdle(page, id);
    expect(await height()).toBe(idle);
  }
});
