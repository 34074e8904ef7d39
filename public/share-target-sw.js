// Share target of the installed app (the manifest's `share_target`): the system share sheet POSTs the
// shared files to ./share-target. The service worker keeps them in a cache under a fresh id and sends
// the app to ./?shared=<id>; the page takes them from there into "Import history" (src/app/shared-files.ts)
// and deletes them. Nothing leaves the browser. Loaded into the generated service worker (importScripts).
/* global self, caches */
const SHARED_CACHE = "tabcode-shared-files";

async function receiveShare(request, scope) {
  try {
    const form = await request.formData();
    const files = form.getAll("files").filter((f) => typeof f !== "string");
    if (files.length === 0) return Response.redirect(`${scope}?shared=none`, 303);
    const id = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
    const cache = await caches.open(SHARED_CACHE);
    for (const [i, f] of files.entries()) {
      const headers = { "content-type": f.type || "application/octet-stream", "x-file-name": encodeURIComponent(f.name || `shared-${i + 1}`) };
      await cache.put(new URL(`shared-files/${id}/${i}`, scope).href, new Response(f, { headers }));
    }
    return Response.redirect(`${scope}?shared=${id}`, 303);
  } catch {
    return Response.redirect(`${scope}?shared=failed`, 303);
  }
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "POST") return;
  const scope = self.registration.scope;
  if (request.url !== new URL("share-target", scope).href) return;
  event.respondWith(receiveShare(request, scope));
});
