// Finds a Chromium executable for the end-to-end tests, in this order:
//   1. CHROMIUM_PATH (environment)
//   2. Playwright's own Chromium, if `npx playwright install chromium` was run
//   3. /usr/bin/chromium, /usr/bin/chromium-browser (Debian/Ubuntu packages)
//   4. installing one: `npx playwright install chromium`, then (as root on Debian/Ubuntu)
//      `apt-get install -y chromium`
// and exits with instructions when all of that fails.
//
//   node scripts/find-chromium.mjs            prints the path
//   node scripts/find-chromium.mjs --no-install
import { spawnSync } from "node:child_process";
import { accessSync, constants, existsSync, realpathSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

const SYSTEM_PATHS = ["/usr/bin/chromium", "/usr/bin/chromium-browser"];

const log = (msg) => console.error(`[chromium] ${msg}`);

function isExecutable(path) {
  if (!path || !existsSync(path)) return false;
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

async function playwrightChromium() {
  for (const pkg of ["playwright-core", "@playwright/test"]) {
    try {
      const mod = await import(pkg);
      const chromium = mod.chromium ?? mod.default?.chromium;
      const path = chromium?.executablePath();
      if (path) return path;
    } catch {
      // package missing or no browser registry entry: try the next one
    }
  }
  return undefined;
}

/** Looks without installing anything; returns `{ path, source }` or undefined. */
export async function locateChromium() {
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv) {
    if (isExecutable(fromEnv)) return { path: fromEnv, source: "CHROMIUM_PATH" };
    log(`CHROMIUM_PATH is set to ${fromEnv}, which is not an executable file; looking elsewhere.`);
  }
  const bundled = await playwrightChromium();
  if (isExecutable(bundled)) return { path: bundled, source: "Playwright's Chromium" };
  for (const p of SYSTEM_PATHS) if (isExecutable(p)) return { path: p, source: "system Chromium" };
  return undefined;
}

function run(cmd, args, timeoutMs) {
  log(`running: ${cmd} ${args.join(" ")}`);
  const r = spawnSync(cmd, args, { stdio: "inherit", timeout: timeoutMs });
  if (r.error) log(`${cmd} failed: ${r.error.message}`);
  return r.status === 0;
}

function canUseApt() {
  return existsSync("/usr/bin/apt-get") && typeof process.getuid === "function" && process.getuid() === 0;
}

const HELP = `No Chromium found for the end-to-end tests. Any one of these fixes it:
  1. Point CHROMIUM_PATH at a Chromium or Chrome executable:
       CHROMIUM_PATH=/path/to/chrome npm run e2e
  2. Install Playwright's Chromium (needs internet access):
       npx playwright install chromium
  3. On Debian/Ubuntu, install the distribution's package (as root):
       apt-get update && apt-get install -y chromium`;

/**
 * Returns the path of a Chromium executable, installing one when allowed and needed.
 * Exits the process with instructions when none can be found or installed.
 */
export async function findChromium({ install = true } = {}) {
  let found = await locateChromium();
  if (!found && install) {
    log("no Chromium found; trying `npx playwright install chromium` (may fail offline).");
    if (run("npx", ["--no", "--", "playwright", "install", "chromium"], 10 * 60_000)) found = await locateChromium();
    if (!found && canUseApt()) {
      log("trying the Debian/Ubuntu package: apt-get install -y chromium");
      const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
      const apt = (args) => spawnSync("apt-get", args, { stdio: "inherit", env, timeout: 15 * 60_000 }).status === 0;
      if (apt(["update"]) && apt(["install", "-y", "chromium"])) found = await locateChromium();
    }
  }
  if (!found) {
    console.error(`\n${HELP}\n`);
    process.exit(1);
  }
  log(`using ${found.path} (${found.source})`);
  return found.path;
}

const invokedDirectly =
  process.argv[1] !== undefined &&
  existsSync(process.argv[1]) &&
  import.meta.url === pathToFileURL(realpathSync(resolve(process.argv[1]))).href;
if (invokedDirectly) {
  const path = await findChromium({ install: !process.argv.includes("--no-install") });
  console.log(path);
}
