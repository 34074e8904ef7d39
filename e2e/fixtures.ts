/**
 * Shared Playwright fixtures for tabcode's end-to-end specs. Import `test` and `expect` from here,
 * not from @playwright/test:
 * - `mock`: a scripted OpenAI-compatible server, started once per worker; its script and recorded
 *   requests are reset before every test.
 * - Chromium cannot reach hosts other than localhost/127.0.0.1/[::1]: playwright.config.ts points its
 *   proxy at a closed local port, so such requests fail with a network error. By default a test
 *   whose page tried fails at the end, listing the URLs (`test.use({ externalRequests: "abort" })`
 *   only lets them fail, for specs that exercise offline fallbacks).
 *   Requests are not intercepted with `route()`: Playwright would then answer every CORS preflight
 *   itself with allow-all headers, hiding CORS mistakes.
 */
import { test as base, type BrowserContext, expect } from "@playwright/test";
import { type MockOpenAI, startMockOpenAI } from "./mock-openai/server";

export type { MockOpenAI, RecordedRequest, Script, Turn } from "./mock-openai/server";
export { expect };

/** Hosts a test may talk to. */
const LOCAL_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);

/** True for URLs the browser may load during tests (local hosts and non-network schemes). */
export function isLocalUrl(url: string): boolean {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  if (u.protocol !== "http:" && u.protocol !== "https:" && u.protocol !== "ws:" && u.protocol !== "wss:") return true;
  return LOCAL_HOSTS.has(u.hostname);
}

interface TestFixtures {
  /** `fail` (default): non-local requests fail and so does the test; `abort`: only the requests fail. */
  externalRequests: "fail" | "abort";
  /** Non-local URLs the browser tried to load in this test (all failed). */
  blockedRequests: string[];
  /** Internal: resets the worker's mock before each test. */
  resetMock: undefined;
  /**
   * A second browser context (a fresh browser: its own storage), watched like the test's own for requests
   * that would leave this machine; closed at the end of the test. Use it instead of `browser.newContext()`.
   */
  freshContext: () => Promise<BrowserContext>;
}

/** Records every non-local request and WebSocket of `context` in `blocked` (the proxy makes them fail). */
function watchRequests(context: BrowserContext, blocked: string[], title: string): void {
  context.on("request", (request) => {
    const url = request.url();
    if (isLocalUrl(url)) return;
    blocked.push(url);
    console.warn(`[e2e] blocked non-local request in "${title}": ${url}`);
  });
  context.on("page", (page) =>
    page.on("websocket", (ws) => {
      if (isLocalUrl(ws.url())) return;
      blocked.push(ws.url());
      console.warn(`[e2e] blocked non-local WebSocket in "${title}": ${ws.url()}`);
    }),
  );
}

interface WorkerFixtures {
  mock: MockOpenAI;
}

export const test = base.extend<TestFixtures, WorkerFixtures>({
  mock: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright requires a destructuring pattern here.
    async ({}, use) => {
      const mock = await startMockOpenAI();
      await use(mock);
      await mock.close();
    },
    { scope: "worker" },
  ],
  resetMock: [
    async ({ mock }, use) => {
      mock.reset();
      await use(undefined);
    },
    { auto: true },
  ],
  externalRequests: ["fail", { option: true }],
  // biome-ignore lint/correctness/noEmptyPattern: Playwright requires a destructuring pattern here.
  blockedRequests: async ({}, use) => {
    await use([]);
  },
  context: async ({ context, blockedRequests, externalRequests }, use, testInfo) => {
    // The browser itself sends non-local traffic to a dead proxy (see playwright.config.ts); this
    // only watches, so requests are not intercepted and CORS preflights reach the real servers.
    watchRequests(context, blockedRequests, testInfo.title);
    await use(context);
    if (externalRequests === "fail") {
      expect(blockedRequests, "tests must not reach the internet; these requests were blocked").toEqual([]);
    }
  },
  // Depends on `context`: set up after it and torn down before it, so its check at the end sees what the
  // fresh contexts tried too.
  freshContext: async ({ browser, blockedRequests, context: _context }, use, testInfo) => {
    const made: BrowserContext[] = [];
    await use(async () => {
      const fresh = await browser.newContext();
      watchRequests(fresh, blockedRequests, testInfo.title);
      made.push(fresh);
      return fresh;
    });
    for (const c of made) await c.close().catch(() => undefined);
  },
});
