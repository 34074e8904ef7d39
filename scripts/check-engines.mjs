// Keeps `engines`, the README and the dependencies in agreement:
// - the README states package.json's `engines.node` range word for word;
// - every direct dependency whose declared `engines.node` does not admit our lowest Node is named
//   in the README's note about it (so the npm EBADENGINE warning is explained, not ignored);
// - the Node running this script satisfies our range.
import { readFileSync } from "node:fs";

const pkg = JSON.parse(readFileSync("package.json", "utf8"));
const readme = readFileSync("README.md", "utf8");
const range = pkg.engines?.node;
const problems = [];

const parse = (v) => v.replace(/^[^\d]*/, "").split(".").map((n) => Number.parseInt(n, 10) || 0);
const cmp = (a, b) => {
  for (let i = 0; i < 3; i++) if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) - (b[i] ?? 0);
  return 0;
};
/** Whether version `v` satisfies a range made of `||` alternatives of `>=X`, `^X` or `X`. */
function admits(r, v) {
  return r.split("||").some((alt) => {
    const a = alt.trim();
    if (a.startsWith(">=")) return cmp(v, parse(a)) >= 0;
    if (a.startsWith("^")) {
      const low = parse(a);
      return v[0] === low[0] && cmp(v, low) >= 0;
    }
    return cmp(v, parse(a)) === 0;
  });
}
/** The lowest version a range admits (its smallest lower bound). */
const floor = (r) => r.split("||").map((alt) => parse(alt.trim())).sort(cmp)[0];

if (!range) problems.push("package.json has no engines.node");
else {
  if (!readme.includes(`Node.js \`${range}\``)) problems.push(`README.md must state the Node range as: Node.js \`${range}\``);
  const low = floor(range);
  for (const name of Object.keys({ ...pkg.dependencies, ...pkg.devDependencies })) {
    let declared;
    try {
      declared = JSON.parse(readFileSync(`node_modules/${name}/package.json`, "utf8")).engines?.node;
    } catch {
      continue;
    }
    if (declared && !admits(declared, low) && !readme.includes(`\`${name}\``)) {
      problems.push(`${name} declares node ${declared}, which excludes ${low.join(".")}: name it in the README's Node note (and say why it is fine), or raise engines`);
    }
  }
  const current = parse(process.versions.node);
  if (!admits(range, current)) problems.push(`this Node (${process.versions.node}) is outside engines.node ${range}`);
}

if (problems.length) {
  console.error(`engines check failed:\n- ${problems.join("\n- ")}`);
  process.exit(1);
}
console.log(`engines: node ${range} agrees with the README and the dependencies`);
