// `npm run bench:context [-- --trace FILE …] [--generate] [--no-prep]`: the context-policy
// benchmark (bench/context/README.md). Node cannot run the TypeScript directly, so this
// passes the flags to a Vitest run of bench/context/context.run.ts through the environment.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";

const args = process.argv.slice(2);
const traces = [];
const env = { ...process.env };
for (let i = 0; i < args.length; i++) {
  const a = args[i];
  if (a === "--trace") {
    const f = args[++i];
    if (!f || !existsSync(f)) {
      console.error(`--trace needs an existing file (got ${f ?? "nothing"})`);
      process.exit(2);
    }
    traces.push(resolve(f));
  } else if (a === "--generate") env.BENCH_CONTEXT_GENERATE = "1";
  else if (a === "--no-prep") env.BENCH_CONTEXT_PREP = "0";
  else {
    console.error(`unknown argument ${a}\nusage: npm run bench:context [-- --trace FILE …] [--generate] [--no-prep]`);
    process.exit(2);
  }
}
if (traces.length) env.BENCH_CONTEXT_TRACES = JSON.stringify(traces);
const vitest = fileURLToPath(new URL("../node_modules/vitest/vitest.mjs", import.meta.url));
const r = spawnSync(process.execPath, [vitest, "run", "--config", "bench/context/vitest.config.ts"], { stdio: "inherit", env });
process.exit(r.status ?? 1);
