/**
 * Playwright drives the built app (dist/, served by scripts/serve.mjs with the cross-origin
 * isolation headers) in Chromium. Run it through `npm run e2e`, which finds Chromium, sets
 * CHROMIUM_PATH and builds first. Specs import `test`/`expect` from e2e/fixtures.ts, which
 * provides the mock OpenAI server and fails tests whose page tried to reach a non-local host.
 */
import { existsSync } from "node:fs";
import { chromium, defineConfig, devices } from "@playwright/test";

const PORT = Number.parseInt(process.env.TABCODE_E2E_PORT ?? "4317", 10);

/**
 * Network fence: every non-loopback request goes to a proxy on a closed local port and fails
 * (Chromium always bypasses the proxy for localhost, 127.0.0.1 and [::1]). e2e/fixtures.ts
 * reports such requests; it does not intercept them, so CORS preflights stay real.
 */
const NO_NETWORK = ["--proxy-server=http://127.0.0.1:9", "--proxy-bypass-list=localhost;127.0.0.1;[::1]"];

/** CHROMIUM_PATH, else Playwright's own Chromium when installed, else Debian's. */
function chromiumPath(): string | undefined {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  if (existsSync(chromium.executablePath())) return undefined;
  return ["/usr/bin/chromium", "/usr/bin/chromium-browser"].find((p) => existsSync(p));
}

export default defineConfig({
  testDir: "e2e",
  testMatch: "**/*.spec.ts",
  timeout: 30_000,
  // The first send after a page load fetches and starts the agent loop, the provider package and the sandbox
  // Worker (1.3 MB): on a loaded 2-core machine its answer can take more than 5 s to appear. Assertions are
  // about behaviour; speed is measured in bench/, so they get 10 s.
  expect: { timeout: 10_000 },
  fullyParallel: false,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  workers: 2,
  // `list` for people; `json` (to .tmp/) so scripts/e2e.mjs can print a plain closing count line.
  reporter: [["list"], ["json", { outputFile: ".tmp/e2e-results.json" }]],
  outputDir: "test-results",
  use: {
    baseURL: `http://localhost:${PORT}`,
    trace: "off",
    headless: true,
  },
  projects: [
    {
      name: "chromium",
      use: {
        ...devices["Desktop Chrome"],
        launchOptions: {
          executablePath: chromiumPath(),
          args: [
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            ...NO_NETWORK,
          ],
        },
      },
    },
  ],
  webServer: {
    command: "node scripts/serve.mjs --strict-port",
    env: { PORT: String(PORT) },
    url: `http://localhost:${PORT}/`,
    reuseExistingServer: false,
    timeout: 30_000,
    stdout: "ignore",
    stderr: "pipe",
  },
});
