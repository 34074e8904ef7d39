// `npm run bench:bundle [-- --json FILE] [--top N]`: builds the app with Vite and prints
// 1. the initial JS: the entry script and every chunk it modulepreloads (what a fresh page load
//    downloads before the first screen), raw and gzip;
// 2. the entry's composition by package (and the biggest modules), from the bundler's own module
//    info: each chunk's gzip size is shared out over its modules in proportion to their
//    individually gzipped rendered code;
// 3. every lazy chunk with its gzip size and its biggest packages.
// Asserts nothing; `--json FILE` also writes the numbers for comparing two builds.
import { readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { build } from "vite";

const root = resolve(fileURLToPath(new URL("..", import.meta.url)));
process.chdir(root);
const args = process.argv.slice(2);
const jsonAt = args.indexOf("--json");
const jsonFile = jsonAt >= 0 ? args[jsonAt + 1] : undefined;
const topAt = args.indexOf("--top");
const top = topAt >= 0 ? Number(args[topAt + 1]) : 25;
const whyAt = args.indexOf("--why");
const why = whyAt >= 0 ? args[whyAt + 1] : undefined;

const KiB = 1024;
const gz = (s) => gzipSync(s, { level: 9 }).length;
const kib = (n) => `${(n / KiB).toFixed(1)} KiB`;

/** node_modules/@scope/name/… → @scope/name; our own files → src/<first two dirs>. */
function packageOf(id) {
  const clean = id.replace(/^\0/, "").replace(/\?.*$/, "");
  const nm = clean.lastIndexOf("node_modules/");
  if (nm >= 0) {
    const rest = clean.slice(nm + "node_modules/".length).split("/");
    return rest[0]?.startsWith("@") ? `${rest[0]}/${rest[1]}` : (rest[0] ?? clean);
  }
  const rel = clean.startsWith(root) ? clean.slice(root.length + 1) : clean;
  const parts = rel.split("/");
  if (parts[0] === "src") return parts.slice(0, Math.min(3, parts.length - 1)).join("/") || rel;
  return rel;
}

/** Chunk file name → { modules: [{ id, gzipShare, raw }], imports, dynamicImports, isEntry }. */
const chunks = new Map();
/** Module id → the modules that import it statically (for `--why`). */
const importers = new Map();
const collect = {
  name: "tabcode-bundle-report",
  apply: "build",
  generateBundle(_options, bundle) {
    for (const id of this.getModuleIds()) importers.set(id, this.getModuleInfo(id)?.importers ?? []);
    for (const out of Object.values(bundle)) {
      if (out.type !== "chunk") continue;
      const modules = Object.entries(out.modules)
        .filter(([, m]) => m.renderedLength > 0)
        .map(([id, m]) => ({ id, raw: m.renderedLength, gz: m.code ? gz(m.code) : 0 }));
      chunks.set(out.fileName, { modules, ids: Object.keys(out.modules), imports: out.imports, dynamicImports: out.dynamicImports, isEntry: out.isEntry, name: out.name });
    }
  },
};

await build({ logLevel: "warn", plugins: [collect] });

const dist = resolve(root, "dist");
const html = readFileSync(resolve(dist, "index.html"), "utf8");
const entryFiles = [...html.matchAll(/<script[^>]*type="module"[^>]*src="\/?([^"]+)"/g)].map((m) => m[1]);
const preloadFiles = [...html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="\/?([^"]+)"/g)].map((m) => m[1]);
const initialFiles = [...new Set([...entryFiles, ...preloadFiles])].filter((f) => f.endsWith(".js"));

function sizeOf(file) {
  const code = readFileSync(resolve(dist, file));
  return { raw: code.length, gzip: gz(code) };
}

/** Share a chunk's real gzip size out over its modules. */
function composition(file) {
  const info = chunks.get(file);
  const { gzip } = sizeOf(file);
  if (!info) return [];
  const sum = info.modules.reduce((n, m) => n + m.gz, 0) || 1;
  return info.modules.map((m) => ({ id: m.id, pkg: packageOf(m.id), raw: m.raw, gzip: (m.gz / sum) * gzip }));
}

function byPackage(mods) {
  const map = new Map();
  for (const m of mods) {
    const p = map.get(m.pkg) ?? { pkg: m.pkg, raw: 0, gzip: 0, modules: 0 };
    p.raw += m.raw;
    p.gzip += m.gzip;
    p.modules += 1;
    map.set(m.pkg, p);
  }
  return [...map.values()].sort((a, b) => b.gzip - a.gzip);
}

function table(head, rows) {
  const w = head.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const line = (r) => `| ${r.map((c, i) => String(c).padEnd(w[i])).join(" | ")} |`;
  console.log(line(head));
  console.log(`|${w.map((n) => "-".repeat(n + 2)).join("|")}|`);
  for (const r of rows) console.log(line(r));
}

const initial = initialFiles.map((f) => ({ file: f, ...sizeOf(f) }));
const initialGzip = initial.reduce((n, f) => n + f.gzip, 0);
console.log("\n## Initial JS (entry + modulepreloads)\n");
table(
  ["file", "raw", "gzip"],
  [...initial.map((f) => [f.file, kib(f.raw), kib(f.gzip)]), ["total", kib(initial.reduce((n, f) => n + f.raw, 0)), kib(initialGzip)]],
);

const initialMods = initialFiles.flatMap(composition);
const packages = byPackage(initialMods);
console.log("\n## Initial JS by package (gzip, shared out by module)\n");
table(
  ["package", "modules", "raw", "gzip", "share"],
  packages.map((p) => [p.pkg, p.modules, kib(p.raw), kib(p.gzip), `${((p.gzip / initialGzip) * 100).toFixed(1)} %`]),
);

console.log(`\n## Biggest ${top} modules in the initial JS\n`);
table(
  ["module", "gzip"],
  [...initialMods].sort((a, b) => b.gzip - a.gzip).slice(0, top).map((m) => [m.id.replace(`${root}/`, ""), kib(m.gzip)]),
);

const lazy = [...chunks.keys()].filter((f) => !initialFiles.includes(f)).map((f) => ({ file: f, ...sizeOf(f), pkgs: byPackage(composition(f)) }));
lazy.sort((a, b) => b.gzip - a.gzip);
console.log("\n## Lazy chunks (loaded on demand)\n");
table(
  ["file", "gzip", "biggest packages"],
  lazy.map((c) => [c.file, kib(c.gzip), c.pkgs.slice(0, 4).map((p) => `${p.pkg} ${kib(p.gzip)}`).join(", ")]),
);

if (jsonFile) {
  writeFileSync(jsonFile, `${JSON.stringify({ initial, initialGzip, packages, lazy: lazy.map(({ pkgs, ...c }) => ({ ...c, packages: pkgs.slice(0, 8) })) }, null, 2)}\n`);
  console.log(`\nwrote ${jsonFile}`);
}

/** `--why TEXT`: the shortest static import chain from the entry to a module whose id contains TEXT. */
if (why) {
  const initialIds = new Set(initialFiles.flatMap((f) => chunks.get(f)?.ids ?? []));
  const targets = initialMods.map((m) => m.id).filter((id) => id.includes(why));
  console.log(`\n## Why is "${why}" in the initial JS?\n`);
  if (!targets.length) console.log("It is not.");
  for (const target of targets.slice(0, 3)) {
    const prev = new Map([[target, ""]]);
    const queue = [target];
    let found;
    while (queue.length && !found) {
      const id = queue.shift();
      const by = (importers.get(id) ?? []).filter((i) => initialIds.has(i));
      if (!by.length) found = id;
      for (const i of by) if (!prev.has(i)) { prev.set(i, id); queue.push(i); }
    }
    const chain = [];
    for (let id = found; id; id = prev.get(id)) chain.push(id.replace(`${root}/`, ""));
    console.log(chain.join("\n  → "), "\n");
  }
}
