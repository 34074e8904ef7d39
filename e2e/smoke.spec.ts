import { expect, test } from "./fixtures";

test("the built app loads as a plain page; only isolated/ (WebContainer's page) is served cross-origin isolated", async ({ page }) => {
  const response = await page.goto("/");
  expect(response?.status()).toBe(200);
  expect(response?.headers()["cross-origin-opener-policy"]).toBeUndefined();
  expect(response?.headers()["cross-origin-embedder-policy"]).toBeUndefined();
  await expect(page).toHaveTitle("tabcode");
  expect(await page.evaluate(() => globalThis.crossOriginIsolated)).toBe(false);
  // The app's scripts and workers keep the headers, so they start from either page.
  const script = await page.evaluate(() => (document.querySelector("script[type=module]") as HTMLScriptElement).src);
  const scriptResponse = await page.request.get(script);
  expect(scriptResponse.headers()["cross-origin-embedder-policy"]).toBe("require-corp");
  const isolated = await page.request.get("/isolated/");
  expect(isolated.status()).toBe(200);
  expect(isolated.headers()["cross-origin-opener-policy"]).toBe("same-origin");
  expect(isolated.headers()["cross-origin-embedder-policy"]).toBe("require-corp");
  expect(await isolated.text()).toContain("<title>tabcode</title>");
});

test("deep links fall back to the app shell", async ({ page }) => {
  const response = await page.goto("/session/ses_does_not_exist");
  expect(response?.status()).toBe(200);
  await expect(page).toHaveTitle("tabcode");
});

test("a request to a non-local host is aborted", async ({ page, blockedRequests }) => {
  test.info().annotations.push({ type: "note", description: "checks the fixture's network fence itself" });
  await page.goto("/");
  const outcome = await page.evaluate(() =>
    fetch("https://example.com/", { mode: "no-cors" }).then(
      () => "loaded",
      () => "failed",
    ),
  );
  expect(outcome).toBe("failed");
  expect(blockedRequests).toEqual(["https://example.com/"]);
  // Emptied so the fixture's end-of-test check passes: this test made the request on purpose.
  blockedRequests.length = 0;
});
