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
process.exit(await run("npx", ["--no", "--", "playwright", "test", ...passThrough]));
