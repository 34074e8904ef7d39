/**
 * ES modules for the QuickJS `node`: `import` resolves workspace files
 * (relative or absolute, with Node's extension and index lookup), JSON,
 * CommonJS files (their `module.exports` as the default export) and the core
 * modules (`node:fs`, `path`…, named exports included). Bare package names
 * and the modules the sandbox lacks fail with a sentence saying so.
 */
import type { JSModuleLoader, JSModuleNormalizer, QuickJSContext, QuickJSHandle } from "quickjs-emscripten-core";
import { dirname, joinPath, normalizePath } from "../../../../core/sandbox-path";
import { NODE_FULL } from "./node-args";
import type { NodeFs } from "./node-fs";
import { MISSING_MODULES } from "./node-prelude";

const IDENT = /^[A-Za-z_$][\w$]*$/;
const RESERVED = new Set(["default", "delete", "new", "class", "function", "import", "export"]);

export function esmLoader(vm: QuickJSContext, fs: NodeFs, api: QuickJSHandle): [JSModuleLoader, JSModuleNormalizer] {
  const core = vm.getProp(api, "core");
  const load = vm.getProp(api, "load");
  vm.setProp(vm.global, "__tabcode_core", core);
  vm.setProp(vm.global, "__tabcode_cjs", load);
  load.dispose();
  const keysHandle = vm.unwrapResult(
    vm.evalCode("JSON.stringify(Object.fromEntries(Object.entries(__tabcode_core).map(function (e) { return [e[0], Object.keys(e[1])]; })))"),
  );
  const keys = JSON.parse(vm.getString(keysHandle)) as Record<string, string[]>;
  keysHandle.dispose();
  core.dispose();

  const normalizer: JSModuleNormalizer = (base, requested) => {
    const name = requested.replace(/^node:/, "");
    if (keys[name]) return `node:${name}`;
    if (MISSING_MODULES.includes(name)) return `missing:${name}`;
    if (!/^\.{0,2}\//.test(requested)) return `package:${requested}\n${base}`;
    const from = base.startsWith("/") ? dirname(base) : "/workspace";
    const abs = normalizePath(requested.startsWith("/") ? requested : joinPath(from, requested));
    for (const p of [abs, `${abs}.js`, `${abs}.mjs`, `${abs}.cjs`, `${abs}.json`, `${abs}/index.js`, `${abs}/index.mjs`]) if (fs.text(p) !== undefined) return p;
    return `notfound:${abs}\n${base}`;
  };

  const loader: JSModuleLoader = (name) => {
    if (name.startsWith("node:")) {
      const mod = name.slice(5);
      const named = (keys[mod] ?? []).filter((k) => IDENT.test(k) && !RESERVED.has(k));
      return `const m = globalThis.__tabcode_core[${JSON.stringify(mod)}];\nexport default m;\n${named.map((k) => `export const ${k} = m.${k};`).join("\n")}\n`;
    }
    if (name.startsWith("missing:"))
      return { error: new Error(`The '${name.slice(8)}' module is not available in the local sandbox's node (QuickJS, no network or processes); ${NODE_FULL}.`) };
    if (name.startsWith("package:")) {
      const [pkg, base] = name.slice(8).split("\n");
      return {
        error: new Error(
          `Cannot find package '${pkg}' imported from ${base}\nnpm packages are not installed in the local sandbox (node here is QuickJS with Node's core modules only); ${NODE_FULL} and npm.`,
        ),
      };
    }
    if (name.startsWith("notfound:")) {
      const [abs, base] = name.slice(9).split("\n");
      return { error: new Error(`Cannot find module '${abs}' imported from ${base}`) };
    }
    const src = fs.text(name);
    if (src === undefined) return { error: new Error(`Cannot find module '${name}'`) };
    if (name.endsWith(".json")) return `export default ${src};\n`;
    if (!fs.isModule(name, src)) return `const m = globalThis.__tabcode_cjs(${JSON.stringify(name)});\nexport default m;\n`;
    return src.replace(/^#!.*/, "");
  };
  return [loader, normalizer];
}
