// Static routes of the service worker (InstallEvent.addRoutes; Chromium 123 and later, ignored elsewhere).
// - The app's built files under assets/ carry a content hash in their names and are precached under their
//   own URL, so the browser answers a request for one straight from the precache, without starting the
//   service worker or running its fetch handler for each of the ~30 modules a page load asks for. A file
//   the precache does not hold is fetched from the network.
// - Opening the app while the service worker is stopped (after ~30 s without a tabcode page, the usual
//   first visit of the day) races the network against starting it: whichever answers first serves the
//   page; offline, the network fails at once and the fetch handler serves it from the precache. Only GETs:
//   the share target is a POST page load that only the fetch handler can answer.
// Everything else (the page while the worker runs, samples, engines, the share target) goes through the
// fetch handler. Loaded into the generated service worker (importScripts), next to share-target-sw.js.
/* global self, caches, fetch, Headers, Response */
/** Workbox's precache (its documented default name: prefix, "precache-v2", the registration's scope). */
const precacheName = (scope) => `workbox-precache-v2-${scope}`;

self.addEventListener("install", (event) => {
  if (typeof event.addRoutes !== "function") return;
  const scope = self.registration.scope;
  const precache = precacheName(scope);
  const assets = `${new URL(scope).pathname}assets/*`;
  event.waitUntil(
    event
      .addRoutes([
        { condition: { urlPattern: assets, requestMethod: "GET" }, source: { cacheName: precache } },
        { condition: { requestMode: "navigate", requestMethod: "GET", runningStatus: "not-running" }, source: "race-network-and-fetch-handler" },
      ])
      .catch(() => undefined),
  );
});

// The page is cross-origin isolated only under isolated/ (scripts/isolation-headers.mjs; the app moves there
// for WebContainer: src/app/isolation.ts). Workbox's navigation route serves the precached shell with the
// headers it was fetched with, which (fetched as index.html) are a plain page's: this listener, registered
// before Workbox's, serves the same shell for isolated/ with the two isolation headers added, so the
// isolated page opens offline too. Only where the server isolates too: an isolated page can start a
// Worker only from a script sent with COEP, so on a host that sends no such headers (the precached
// scripts have none) the shell is served as it is, a plain page. Without the shell in the precache, or
// when the cache fails, the network answers.
const ISOLATED_DIR = "isolated/";
const COEP = "Cross-Origin-Embedder-Policy";
let serverIsolates = false;

/** Whether the server sent the built scripts with COEP require-corp (one precached script tells; a yes is kept). */
async function scriptsIsolated(cache, scope) {
  if (serverIsolates) return true;
  const assets = new URL("assets/", scope).href;
  const key = (await cache.keys()).find((r) => r.url.startsWith(assets) && /\.js(\?|$)/.test(r.url));
  const script = key && (await cache.match(key));
  serverIsolates = script?.headers.get(COEP) === "require-corp";
  return serverIsolates;
}

async function isolatedShell(request, scope) {
  const cache = await caches.open(precacheName(scope));
  const shell = await cache.match(new URL("index.html", scope).href, { ignoreSearch: true });
  if (!shell) return fetch(request);
  if (!(await scriptsIsolated(cache, scope))) return shell;
  const headers = new Headers(shell.headers);
  headers.set("Cross-Origin-Opener-Policy", "same-origin");
  headers.set(COEP, "require-corp");
  return new Response(shell.body, { status: 200, statusText: "OK", headers });
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.mode !== "navigate" || request.method !== "GET") return;
  const scope = self.registration.scope;
  const dir = new URL(ISOLATED_DIR, scope).pathname;
  const path = new URL(request.url).pathname;
  if (path !== dir.slice(0, -1) && !path.startsWith(dir)) return;
  event.stopImmediatePropagation();
  event.respondWith(isolatedShell(request, scope).catch(() => fetch(request)));
});

// The page sends { type: "tabcode-wake" } as the user types a message (src/app/service-worker.ts): the
// message itself starts a stopped worker before the model request has to wait for that. Nothing to do here.
self.addEventListener("message", (event) => {
  if (event.data && event.data.type === "tabcode-wake") return;
});
