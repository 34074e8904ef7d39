/**
 * Helpers for driving the tabcode app in specs: open it, configure the provider, read what the
 * app stored (through the page's `__tabcode` services seam), and seed data.
 */
import type { Page } from "@playwright/test";
import { expect, type MockOpenAI } from "./fixtures";

export type ProviderKind = "openai" | "openai-compatible";

/** Opens the app on a fresh origin state and waits for the shell. */
export async function openApp(page: Page, path = "/"): Promise<void> {
  await page.goto(path);
  await expect(page.getByRole("navigation", { name: "Sessions" })).toBeVisible();
}

/**
 * Registers the service worker now (the app itself waits for a quiet moment: after the first answer, or
 * 30 s) and waits until it controls the page, i.e. the app is cached for offline use.
 */
export async function cacheApp(page: Page, timeout = 30_000): Promise<void> {
  await page.evaluate(() => (globalThis as { __tabcodeServiceWorker?: () => void }).__tabcodeServiceWorker?.());
  await expect.poll(() => page.evaluate(() => Boolean(navigator.serviceWorker?.controller)), { timeout }).toBe(true);
}

/**
 * Stops the page's service workers, as Chromium does ~30 s after the last tabcode page closes (DevTools protocol),
 * and returns once every one of them reports "stopped" (the stop itself is asynchronous: a page load right after
 * the command could still meet a worker that was stopping).
 */
export async function stopServiceWorkers(page: Page): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  const status = new Map<string, string>();
  cdp.on("ServiceWorker.workerVersionUpdated", (e) => {
    for (const v of e.versions) status.set(v.versionId, v.runningStatus);
  });
  await cdp.send("ServiceWorker.enable");
  await cdp.send("ServiceWorker.stopAllWorkers");
  // A worker that was still starting when the command came runs on: asked again until every one has stopped.
  await expect
    .poll(
      async () => {
        const stopped = [...status.values()].every((s) => s === "stopped");
        if (!stopped) await cdp.send("ServiceWorker.stopAllWorkers");
        return stopped;
      },
      { timeout: 10_000 },
    )
    .toBe(true);
  await cdp.detach();
}

/** Points the app at the mock server through the Settings dialog, as a user would. */
export async function configureViaDialog(page: Page, mock: MockOpenAI, provider: ProviderKind, model = "gpt-4o-mini"): Promise<void> {
  await page.getByRole("button", { name: "Settings" }).click();
  const dialog = page.getByRole("dialog", { name: "Settings" });
  await dialog.getByLabel("Provider", { exact: true }).selectOption(provider);
  await dialog.getByLabel("Base URL", { exact: true }).fill(mock.baseURL);
  await dialog.getByLabel("Model", { exact: true }).fill(model);
  await dialog.getByLabel("API key", { exact: true }).fill("sk-test-e2e-key-123456");
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(dialog).toBeHidden();
}

/** Same as the dialog, through the services seam (faster for specs that are not about settings). */
export async function configure(page: Page, mock: MockOpenAI, provider: ProviderKind, over: Record<string, unknown> = {}): Promise<void> {
  await page.evaluate(
    async ({ baseURL, provider, over }) => {
      const s = (globalThis as unknown as { __tabcode: { settings: { get(): Record<string, unknown>; set(v: unknown): Promise<void> } } }).__tabcode.settings;
      await s.set({ ...s.get(), provider, baseURL, modelID: "gpt-4o-mini", apiKey: "sk-test-e2e-key-123456", ...over });
    },
    { baseURL: mock.baseURL, provider, over },
  );
}

/** Creates sessions with these titles, in order, through the app's services; returns their ids. */
export async function createSessions<const T extends readonly string[]>(page: Page, titles: T): Promise<{ -readonly [K in keyof T]: string }> {
  const ids = await page.evaluate(async (titles) => {
    const t = (globalThis as unknown as { __tabcode: { sessions: { createSession(o: { title: string }): Promise<{ id: string }> } } }).__tabcode;
    const ids: string[] = [];
    for (const title of titles) ids.push((await t.sessions.createSession({ title })).id);
    return ids;
  }, [...titles]);
  return ids as { -readonly [K in keyof T]: string };
}

export async function newSession(page: Page): Promise<string> {
  const before = page.url();
  await page.getByRole("navigation", { name: "Sessions" }).getByRole("button", { name: "New session", exact: true }).click();
  await expect(page).not.toHaveURL(before);
  await expect(page).toHaveURL(/#\/s\/ses_/);
  return new URL(page.url()).hash.replace("#/s/", "");
}

/** Types and sends a prompt, and waits until it is stored (so a following waitIdle sees its run). */
export async function send(page: Page, text: string): Promise<void> {
  const count = () =>
    page.evaluate(async () => {
      const t = (globalThis as unknown as { __tabcode?: { store: { flush(): Promise<void> }; db: { table(n: string): { count(): Promise<number> } } } }).__tabcode;
      return t ? t.db.table("messages").count() : 0;
    });
  const before = await count();
  await page.getByRole("textbox", { name: "Message" }).fill(text);
  await page.getByRole("button", { name: "Send" }).click();
  await expect.poll(count).toBeGreaterThan(before);
}

export interface StoredMessage {
  role: string;
  error?: { name: string; data: Record<string, unknown> };
  finish?: string;
  cost?: number;
  parts: { type: string; text?: string; status?: string; tool?: string }[];
}

/** The session's messages as stored (after a flush). */
export async function storedMessages(page: Page, sessionID: string): Promise<StoredMessage[]> {
  return page.evaluate(async (id) => {
    const t = (globalThis as unknown as { __tabcode: { store: { flush(): Promise<void>; messages(id: string): Promise<{ info: Record<string, unknown>; parts: Record<string, unknown>[] }[]> } } }).__tabcode;
    await t.store.flush();
    const msgs = await t.store.messages(id);
    return msgs.map((m) => ({
      role: String(m.info.role),
      error: m.info.error as StoredMessage["error"],
      finish: m.info.finish as string | undefined,
      cost: m.info.cost as number | undefined,
      parts: m.parts.map((p) => ({
        type: String(p.type),
        text: typeof p.text === "string" ? p.text : undefined,
        tool: typeof p.tool === "string" ? p.tool : undefined,
        status: p.state && typeof p.state === "object" ? String((p.state as { status: string }).status) : undefined,
      })),
    }));
  }, sessionID);
}

/** Waits until the session's run in this tab is over and its newest message is a completed answer. */
export async function waitIdle(page: Page, sessionID: string): Promise<void> {
  await expect
    .poll(
      () =>
        page.evaluate(async (id) => {
          const t = (globalThis as unknown as { __tabcode: { sessions: { isBusy(id: string): boolean }; store: { messages(id: string): Promise<{ info: { role: string; time: { completed?: number } } }[]> } } }).__tabcode;
          if (t.sessions.isBusy(id)) return "busy";
          const last = (await t.store.messages(id)).at(-1)?.info;
          return last?.role === "assistant" && last.time.completed ? "idle" : "waiting";
        }, sessionID),
      { timeout: 20_000 },
    )
    .toBe("idle");
}
