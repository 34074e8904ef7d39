/**
 * The context-policy benchmark: `npm run bench:context` (see README.md).
 * Environment (set by scripts/bench-context.mjs from its flags):
 * - BENCH_CONTEXT_TRACES: JSON array of trace files to replay instead of the shipped ones (`--trace FILE`);
 * - BENCH_CONTEXT_GENERATE=1: rewrite the shipped traces from the generator first (`--generate`);
 * - BENCH_CONTEXT_PREP=0: skip the request-preparation timings (`--no-prep`).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { test } from "vitest";
import { generateTrace, PROFILES, SHIPPED } from "./generate";
import { measurePrep } from "./prep";
import { PROVIDER_COMPACTION_ASSUMPTIONS, renderPrep, renderTrace, runTrace } from "./report";
import { formatTrace, parseTrace, type Trace } from "./trace";

const DIR = join(import.meta.dirname, "traces");

function load(file: string): Trace {
  const r = parseTrace(readFileSync(file, "utf8"), basename(file).replace(/\.jsonl$/, ""));
  if (!r.ok) throw new Error(`${file}: ${r.error}`);
  return r.value;
}

test("context policies", async () => {
  if (process.env.BENCH_CONTEXT_GENERATE === "1") {
    for (const s of SHIPPED) {
      const profile = PROFILES[s.profile];
      if (!profile) throw new Error(`unknown profile ${s.profile}`);
      writeFileSync(join(DIR, s.file), formatTrace(generateTrace(s.file.replace(/\.jsonl$/, ""), profile, s.seed, s.description)));
      console.log(`wrote ${join("bench/context/traces", s.file)}`);
    }
  }
  const files: string[] = process.env.BENCH_CONTEXT_TRACES ? JSON.parse(process.env.BENCH_CONTEXT_TRACES) : SHIPPED.map((s) => join(DIR, s.file));
  console.log("\n## Context policies: billed input-token-equivalents (cached input at 10 % / 50 %), ratio to OpenCode's\n");
  console.log(`${PROVIDER_COMPACTION_ASSUMPTIONS}\n`);
  for (const f of files) console.log(renderTrace(runTrace(load(f))));
  if (process.env.BENCH_CONTEXT_PREP !== "0") console.log(renderPrep(await measurePrep()));
});
