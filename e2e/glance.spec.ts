/**
 * The glance: a new page opened on a session paints the session's last screen (kept by the app in
 * localStorage) before the app's modules have run, then the app's own render replaces it. It is inert, hidden
 * from assistive technology, holds no key, draft or dialog, runs and fetches nothing from the model's output
 * (the network fence fails the test on any non-local request), and is forgotten when a session is deleted.
 */
import { seedSession } from "../bench/browser/seed";
import { configure, newSession, openApp, send, waitIdle } from "./app";
import { expect, test } from "./fixtures";

const PAYLOAD = `<img src=x onerror="window.__xss=1"> ![beacon](https://evil.example/glance.png)`;

/** The session's kept picture (its JSON), or "". */
const kept = (page: import("@playwright/test").Page, id: string) => page.evaluate((id) => localStorage.getItem(`tabcode:glance:${id}`) ?? "", id);

test("a new page paints the session's last screen at once, then the app's own render takes over", async ({ page, mock, context }) => {
  await openApp(page);
  await configure(page, mock, "openai-compatible");
  const id = await newSession(page);
  mock.setScript([{ text: `The kept answer, **bold** and \`code\`. ${PAYLOAD}` }]);
  await send(page, "What is kept?");
  await waitIdle(page, id);
  await expect(page.getByRole("article", { name: "Assistant message" })).toContainText("The kept answer");
  // A draft in the composer and the settings dialog open: neither may be kept.
  await page.getByRole("textbox", { name: "Message" }).fill("my unsent draft");
  await expect.poll(() => kept(page, id), { timeout: 10_000 }).toContain("The kept answer");
  await page.getByRole("button", { name: "Settings" }).click();
  await expect(page.getByRole("dialog", { name: "Settings" })).toBeVisible();
  await page.evaluate(() => dispatchEvent(new Event("pagehide")));
  const json = await kept(page, id);
  expect(json).toContain("The kept answer");
  expect(json).not.toContain("sk-test-e2e-key-123456");
  expect(json).not.toContain("my unsent draft");
  // The model's image is the app's own "[image: …]" text; no element in the snapshot can load anything.
  expect(json).not.toMatch(/"(src|href|srcset|poster)"|url\(/);
  await page.keyboard.press("Escape");

  // A new page records, from its first frame, whether the glance came before the app's own message.
  const tab = await context.newPage();
  await tab.addInitScript(() => {
    const seen = { glance: false, appFirst: false, inert: false, hidden: false, keptWithApp: false };
    (window as unknown as { __seen: typeof seen }).__seen = seen;
    let done = false;
    // Runs after every DOM change (a microtask: after React's whole commit, its layout effects included).
    const look = () => {
      if (done) return;
      const layer = document.getElementById("tabcode-glance");
      if (layer && !seen.glance && !seen.appFirst) {
        seen.glance = (layer.textContent ?? "").includes("The kept answer");
        seen.inert = layer.firstElementChild?.hasAttribute("inert") === true;
        seen.hidden = layer.getAttribute("aria-hidden") === "true";
      }
      const own = [...document.querySelectorAll("#root article")].some((a) => a.textContent?.includes("The kept answer"));
      if (!own) return;
      done = true;
      if (!seen.glance) seen.appFirst = true;
      // The commit that shows the session removes the picture: never both at once.
      seen.keptWithApp = layer !== null;
    };
    new MutationObserver(look).observe(document, { childList: true, subtree: true });
  });
  await tab.goto(`/#/s/${id}`);
  await expect(tab.getByRole("article", { name: "Assistant message" })).toContainText("The kept answer");
  await expect(tab.locator("#tabcode-glance")).toHaveCount(0);
  expect(await tab.evaluate(() => (window as unknown as { __seen: unknown }).__seen)).toEqual({ glance: true, appFirst: false, inert: true, hidden: true, keptWithApp: false });
  expect(await tab.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
  // The glance is a picture of the page, not part of it: nothing in it is in the accessibility tree.
  await expect(tab.getByRole("article", { name: "Assistant message" })).toHaveCount(1);

  // Another session's address, or a different width, gets no glance.
  const other = await context.newPage();
  await other.setViewportSize({ width: 390, height: 844 });
  await other.addInitScript(() => {
    new MutationObserver(() => {
      if (document.getElementById("tabcode-glance")) (window as unknown as { __glance: boolean }).__glance = true;
    }).observe(document, { childList: true, subtree: true });
  });
  await other.goto(`/#/s/${id}`);
  await expect(other.getByRole("article", { name: "Assistant message" })).toContainText("The kept answer");
  expect(await other.evaluate(() => (window as unknown as { __glance?: boolean }).__glance)).toBeUndefined();
  await other.close();
  await tab.close();
});

test("each of the last sessions left keeps its screen; deleting a session forgets them (their sidebars named it)", async ({ page, mock }) => {
  await openApp(page);
  await configure(page, mock, "openai-compatible");
  const first = await newSession(page);
  mock.setScript([{ text: "Soon gone." }, { text: "Also kept." }]);
  await send(page, "hello");
  await waitIdle(page, first);
  await expect.poll(() => kept(page, first), { timeout: 10_000 }).toContain("Soon gone.");
  const second = await newSession(page);
  await send(page, "hello again");
  await waitIdle(page, second);
  await expect.poll(() => kept(page, second), { timeout: 10_000 }).toContain("Also kept.");
  expect(await kept(page, first)).toContain("Soon gone.");
  const nav = page.getByRole("navigation", { name: "Sessions" });
  await nav.getByRole("button", { name: /^Delete / }).last().click();
  await page.getByRole("dialog", { name: "Delete this session?" }).getByRole("button", { name: "Delete" }).click();
  await expect.poll(() => kept(page, first)).not.toContain("Soon gone.");
});

test("a long session's glance opens where the list was: at its newest message", async ({ page, context }) => {
  await openApp(page);
  const long = await seedSession(page, 200);
  const newest = `Answer ${long.last} with`;
  await page.goto(`/#/s/${long.id}`);
  await expect(page.getByRole("article").filter({ hasText: newest })).toBeVisible();
  // The capture reads the scroll positions of the boxes that scrolled and of the list (to its newest message).
  await page.evaluate(() => dispatchEvent(new Event("pagehide")));
  await expect.poll(() => kept(page, long.id), { timeout: 10_000 }).toContain(newest);

  const tab = await context.newPage();
  await tab.addInitScript((newest) => {
    const w = window as unknown as { __glanceAt?: { scrollTop: number; newestOnScreen: boolean } };
    const look = () => {
      const layer = document.getElementById("tabcode-glance");
      if (!layer || w.__glanceAt) return;
      const list = layer.querySelector(".message-scroll");
      const article = [...layer.querySelectorAll("article")].find((a) => a.textContent?.includes(newest));
      const box = article?.getBoundingClientRect();
      w.__glanceAt = { scrollTop: list?.scrollTop ?? -1, newestOnScreen: box !== undefined && box.bottom > 0 && box.top < innerHeight };
    };
    new MutationObserver(look).observe(document, { childList: true, subtree: true });
  }, newest);
  await tab.goto(`/#/s/${long.id}`);
  await expect(tab.getByRole("article").filter({ hasText: newest })).toBeVisible();
  const at = await tab.evaluate(() => (window as unknown as { __glanceAt?: { scrollTop: number; newestOnScreen: boolean } }).__glanceAt);
  expect(at?.scrollTop).toBeGreaterThan(0);
  expect(at?.newestOnScreen).toBe(true);
  await tab.close();
});
