/** Browser benchmarks: the e2e setup (built app, mock server, Chromium), one worker, results printed as tables. */
import { defineConfig } from "@playwright/test";
import base from "../../playwright.config";

export default defineConfig({
  ...base,
  testDir: ".",
  testMatch: "**/*.bench.spec.ts",
  workers: 1,
  timeout: 180_000,
  outputDir: "../../test-results/bench",
  webServer: base.webServer && !Array.isArray(base.webServer) ? { ...base.webServer, cwd: "../.." } : base.webServer,
});
