/**
 * Serves the sandbox engines' runtime files from this app's own origin:
 * in `vite build` they are copied into `dist/pyodide/`, in the dev server
 * they are served from node_modules. Only the files Pyodide loads at start
 * (interpreter, WASM, standard library, lock file) are copied.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { Plugin } from "vite";

import { PYODIDE_FILES } from "../src/adapters/sandbox/local/runtimes/engine-files";

const TYPES: Record<string, string> = { js: "text/javascript", wasm: "application/wasm", zip: "application/zip", json: "application/json" };

function pyodideDir(): string {
  const require = createRequire(import.meta.url);
  return dirname(require.resolve("pyodide/package.json"));
}

export function engineAssets(): Plugin {
  return {
    name: "tabcode-engine-assets",
    configureServer(server) {
      const dir = pyodideDir();
      server.middlewares.use((req, res, next) => {
        const name = req.url?.split("?")[0]?.match(/\/pyodide\/([^/]+)$/)?.[1];
        if (!name || !(PYODIDE_FILES as readonly string[]).includes(name)) return next();
        res.setHeader("Content-Type", TYPES[name.split(".").pop() ?? ""] ?? "application/octet-stream");
        res.setHeader("Cross-Origin-Resource-Policy", "same-origin");
        res.end(readFileSync(join(dir, name)));
      });
    },
    generateBundle() {
      const dir = pyodideDir();
      for (const name of PYODIDE_FILES) this.emitFile({ type: "asset", fileName: `pyodide/${name}`, source: readFileSync(join(dir, name)) });
    },
  };
}
