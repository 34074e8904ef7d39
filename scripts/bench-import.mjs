// `npm run bench:import [-- --mb N]`: the opencode.db import benchmark (bench/import). Node cannot run
// the TypeScript directly, so this passes the size to a Vitest run through the environment.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const args = process.argv.slice(2);
const env = { ...process.env };
const i = args.indexOf("--mb");
if (i >= 0) env.BENCH_IMPORT_MB = String(Number.parseInt(args[i + 1] ?? "", 10) || 256);
const vitest = fileURLToPath(new URL("../node_modules/vitest/vitest.mjs", import.meta.url));
const r = spawnSync(process.execPath, [vitest, "run", "--config", "bench/import/vitest.config.ts"], { stdio: "inherit", env });
process.exit(r.status ?? 1);
