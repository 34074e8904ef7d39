// The core stays pure: no JSX files under src/core (the react/jsx-runtime import is implicit and lint cannot see it).
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";

const bad = [];
function walk(dir) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p);
    else if (p.endsWith(".tsx") || p.endsWith(".jsx")) bad.push(p);
  }
}
walk("src/core");
if (bad.length) {
  console.error(`src/core must not contain JSX files (keep the core free of React):\n  ${bad.join("\n  ")}`);
  process.exit(1);
}
