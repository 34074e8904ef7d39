/**
 * The app's page is cross-origin isolated only under `isolated/` (scripts/isolation-headers.mjs says
 * why). This plugin applies that rule in Vite's dev and preview servers, and writes the built page a
 * second time as `isolated/index.html`, so any static host serves the isolated page without a fallback
 * rule (public/_headers gives it the headers there).
 */
import { extname } from "node:path";
import type { Connect, Plugin } from "vite";
import { ISOLATED_DIR, isolationHeaders } from "../scripts/isolation-headers.mjs";

function middleware(base: string): Connect.NextHandleFunction {
  return (req, res, next) => {
    const path = (req.url ?? "/").split("?")[0]?.split("#")[0] ?? "/";
    // The page, also when the service worker precaches it (index.html, fetched as a plain file).
    const ext = extname(path);
    const page = ext === ".html" || req.headers["sec-fetch-dest"] === "document" || (ext === "" && (req.headers.accept ?? "").includes("text/html"));
    for (const [k, v] of Object.entries(isolationHeaders(path, page, base))) res.setHeader(k, v);
    next();
  };
}

export function isolation(): Plugin {
  let base = "/";
  return {
    name: "tabcode-isolation",
    enforce: "post",
    configResolved(config) {
      base = config.base;
    },
    configureServer(server) {
      server.middlewares.use(middleware(base));
    },
    configurePreviewServer(server) {
      server.middlewares.use(middleware(base));
    },
    generateBundle(_options, bundle) {
      const page = bundle["index.html"];
      if (page?.type !== "asset") return;
      this.emitFile({ type: "asset", fileName: `${ISOLATED_DIR}index.html`, source: page.source });
    },
  };
}
