// Import fences over src/ (run by `npm run lint`), on dpdm's dependency tree (type imports included):
//  1. no import cycles between files;
//  2. the core's folders form a DAG (schema ← conversation ← tokens/compaction/export ← session …);
//  3. app code never imports test code (src/testing/**, *.test.ts, test kits such as test-fixtures.ts or local/testing.ts);
//  4. the UI never writes the store itself (domain state changes go through services).
import { readFileSync } from "node:fs";
import { parseCircular, parseDependencyTree } from "dpdm";

const TEST_KIT = /(^|\/)(test-fixtures|test-helpers|test-harness|[a-z-]+-test-helpers|[a-z-]+-contract|fixtures-[a-z0-9-]+|testing)\.tsx?$/;
const isTest = (f) => f.startsWith("bench/") || f.startsWith("e2e/") || /\.test\.tsx?$/.test(f) || f.startsWith("src/testing/") || TEST_KIT.test(f);

const tree = await parseDependencyTree(["src/**/*.ts", "src/**/*.tsx"], {
  context: process.cwd(),
  extensions: [".ts", ".tsx", ".mjs", ".js", ".json"],
  tsconfig: "tsconfig.json",
  transform: false,
  skipDynamicImports: false,
  include: /\.m?[jt]sx?$/,
  exclude: /node_modules/,
});

const problems = [];
for (const cycle of parseCircular(tree)) problems.push(`import cycle: ${[...cycle, cycle[0]].join(" → ")}`);

const folder = (f) => /^src\/core\/([^/]+)\//.exec(f)?.[1];
const edges = new Map();
for (const [file, deps] of Object.entries(tree)) {
  if (!deps) continue;
  for (const d of deps) {
    if (!d.id || d.id.startsWith("node_modules/")) continue;
    if (!isTest(file) && isTest(d.id)) problems.push(`app code imports test code: ${file} → ${d.id}`);
    const from = folder(file);
    const to = folder(d.id);
    if (from && to && from !== to && !isTest(file)) {
      if (!edges.has(from)) edges.set(from, new Map());
      edges.get(from).set(to, `${file} → ${d.id}`);
    }
  }
}

// Folder-level cycles in src/core (depth-first search; each cycle reported once by its first folder).
const state = new Map();
const stack = [];
const visit = (n) => {
  state.set(n, "open");
  stack.push(n);
  for (const [m, why] of edges.get(n) ?? []) {
    if (state.get(m) === "open") problems.push(`core folder cycle: ${[...stack.slice(stack.indexOf(m)), m].join(" → ")} (closing import: ${why})`);
    else if (!state.has(m)) visit(m);
  }
  stack.pop();
  state.set(n, "done");
};
for (const n of [...edges.keys()].sort()) if (!state.has(n)) visit(n);

// 4. The UI changes domain state only through services: no direct store writes in src/ui.
const STORE_WRITE = /\bstore\s*\.\s*(updateSession|upsertMessage|upsertPart|appendDelta|deleteMessages|deleteSession|createSession|importSession)\s*\(/;
for (const file of Object.keys(tree)) {
  if (!file.startsWith("src/ui/") || isTest(file)) continue;
  const text = readFileSync(file, "utf8");
  const m = STORE_WRITE.exec(text);
  if (m) problems.push(`UI writes the store directly (use a service, e.g. SessionService): ${file} → store.${m[1]}(…)`);
}

if (problems.length) {
  console.error(`Import fences broken:\n  ${problems.join("\n  ")}`);
  process.exit(1);
}
console.log(`Import fences: ${Object.keys(tree).length} files, no cycles, core folders form a DAG, no test code in the app.`);
