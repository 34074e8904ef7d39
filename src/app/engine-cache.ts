/**
 * "Make available offline" for the sandbox engines: fetching their files
 * through the service worker stores them in its engine cache, so python3
 * works after the network is gone even if it was never run.
 */
import { ENGINE_CACHE, engineUrls } from "../adapters/sandbox/local/runtimes/engine-files";

function urls(): string[] {
  return engineUrls(new URL(import.meta.env.BASE_URL, location.origin).href);
}

/** True when every engine file is in the cache. */
export async function enginesCached(): Promise<boolean> {
  if (!("caches" in globalThis)) return false;
  const cache = await caches.open(ENGINE_CACHE);
  const hits = await Promise.all(urls().map((u) => cache.match(u)));
  return hits.every((h) => h !== undefined);
}

/** Downloads the engine files into the cache; `onProgress` gets bytes so far. */
export async function prefetchEngines(onProgress: (bytes: number) => void): Promise<void> {
  if (!("caches" in globalThis)) throw new Error("This browser has no Cache Storage, so the engines cannot be kept offline.");
  const cache = await caches.open(ENGINE_CACHE);
  let total = 0;
  for (const url of urls()) {
    if (await cache.match(url)) continue;
    const res = await fetch(url);
    if (!res.ok) throw new Error(`Could not download ${url.split("/").pop()} (HTTP ${res.status}).`);
    const body = await res.arrayBuffer();
    total += body.byteLength;
    onProgress(total);
    // The service worker caches what it serves; store it here too in case no worker controls the page yet.
    if (!(await cache.match(url))) await cache.put(url, new Response(body, { headers: res.headers }));
  }
}
