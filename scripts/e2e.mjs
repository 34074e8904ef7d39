// End-to-end run: find Chromium, build the app (so the tests always run against the current
// source), then run Playwright. Extra arguments go to `playwright test`, e.g.
//   npm run e2e -- e2e/smoke.spec.ts --grep title
//   npm run e2e -- --no-build        (skip the build; reuse dist/)
import { spawn } from "node:child_process";
import { mkdirSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { findChromium } from "./find-chromium.mjs";

const root = resolve(fileURLToPath(new URL("..", import.meta.url)));
process.chdir(root);

// Keep Playwright's and Chromium's temporary files inside the project.
const tmp = resolve(root, ".tmp");
mkdirSync(tmp, { recursive: true });
process.env.TMPDIR = tmp;

const args = process.argv.slice(2);
const skipBuild = args.includes("--no-build");
const passThrough = args.filter((a) => a !== "--no-build");

function run(cmd, cmdArgs) {
  return new Promise((resolvePromise) => {
    const child = spawn(cmd, cmdArgs, { stdio: "inherit", env: process.env });
    const forward = (signal) => child.kill(signal);
    process.on("SIGINT", forward);
    process.on("SIGTERM", forward);
    child.on("error", (err) => {
      console.error(`e2e: could not start ${cmd}: ${err.message}`);
      resolvePromise(1);
    });
    child.on("exit", (code, signal) => {
      process.off("SIGINT", forward);
      process.off("SIGTERM", forward);
      resolvePromise(code ?? (signal ? 1 : 0));
    });
  });
}

process.env.CHROMIUM_PATH = await findChromium();

if (!skipBuild) {
  console.log("\n== e2e: vite build ==");
  const code = await run("npx", ["--no", "--", "vite", "build"]);
  if (code !== 0) {
    console.error("e2e: vite build failed; not running the browser tests.");
    process.exit(code);
  }
}

console.log("\n== e2e: playwright test ==");
const code = await run("npx", ["--no", "--", "playwright", "test", ...passThrough]);
// A plain closing line ("N passed, N failed") that any CI log reader understands.
try {
  const { readFileSync } = await import("node:fs");
  const stats = JSON.parse(readFileSync(resolve(root, ".tmp/e2e-results.json"), "utf8")).stats ?? {};
  const failed = (stats.unexpected ?? 0) + (stats.flaky ?? 0);
  console.log(`e2e: ${stats.expected ?? 0} passed, ${failed} failed${stats.skipped ? `, ${stats.skipped} skipped` : ""}`);
} catch {
  // No report (Playwright did not start): its own output says why.
}
process.exit(code);
