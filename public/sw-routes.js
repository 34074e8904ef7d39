// Static routes of the service worker (InstallEvent.addRoutes; Chromium 123 and later, ignored elsewhere).
// The app's built files under assets/ carry a content hash in their names and are precached under their own
// URL, so the browser can answer a request for one straight from the precache, without starting the
// service worker or running its fetch handler for each of the ~20 modules a page load asks for. A file the
// precache does not hold is fetched from the network. Everything else (the page itself, samples, engines,
// the share target) still goes through the fetch handler. Loaded into the generated service worker
// (importScripts), next to share-target-sw.js.
/* global self */
self.addEventListener("install", (event) => {
  if (typeof event.addRoutes !== "function") return;
  const scope = self.registration.scope;
  // Workbox's precache (its documented default name: prefix, "precache-v2", the registration's scope).
  const precache = `workbox-precache-v2-${scope}`;
  const assets = `${new URL(scope).pathname}assets/*`;
  event.waitUntil(
    event
      .addRoutes([{ condition: { urlPattern: assets, requestMethod: "GET" }, source: { cacheName: precache } }])
      .catch(() => undefined),
  );
});
