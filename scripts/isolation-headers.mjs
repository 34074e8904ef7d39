// Which responses carry the cross-origin-isolation headers (COOP same-origin + COEP require-corp).
// WebContainer needs a cross-origin isolated page; nothing else in tabcode does, and isolation has a
// price on every cold open (Chromium commits an isolated page only in a fresh process of its own,
// ~60-160 ms). So the app's page is isolated only under `isolated/` (where the app moves itself when
// the user chooses WebContainer: src/app/isolation.ts); at the root it is a plain page. Everything
// that is not a page (scripts, workers, wasm) keeps COEP, so a Worker may start from either page.
// One rule for the static server (scripts/serve.mjs) and Vite's dev and preview servers
// (build-plugins/isolation.ts). The service worker repeats the directory's name (public/sw-routes.js).

/** The directory, under the app's base, whose page is cross-origin isolated. */
export const ISOLATED_DIR = "isolated/";

const ISOLATION = {
  "Cross-Origin-Opener-Policy": "same-origin",
  "Cross-Origin-Embedder-Policy": "require-corp",
};

const ALWAYS = {
  "Cross-Origin-Resource-Policy": "same-origin",
  "X-Content-Type-Options": "nosniff",
};

/** Whether a URL path is the isolated page or below it (`base`: the app's base path, ending in "/"). */
export function isIsolatedPath(urlPath, base = "/") {
  const dir = `${base}${ISOLATED_DIR}`;
  return urlPath === dir.slice(0, -1) || urlPath.startsWith(dir);
}

/**
 * The headers for a response: `page` is true when it is the app's HTML page (index.html, also as the
 * fallback of a deep link). A page is isolated only under `isolated/`; anything else always is.
 */
export function isolationHeaders(urlPath, page, base = "/") {
  return !page || isIsolatedPath(urlPath, base) ? { ...ISOLATION, ...ALWAYS } : { ...ALWAYS };
}
