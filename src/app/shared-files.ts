/**
 * The page's side of the share target (`public/share-target-sw.js`): files
 * shared to the installed app wait in a cache under an id named in the URL
 * (`?shared=<id>`); they are taken out once, handed to "Import history", and
 * deleted.
 */
import type { DroppedFile } from "./history-import";

const SHARED_CACHE = "tabcode-shared-files";

/** The part of `CacheStorage` used here (a fake in tests). */
export interface SharedCaches {
  open(name: string): Promise<{ keys(): Promise<readonly Request[]>; match(r: Request): Promise<Response | undefined>; delete(r: Request): Promise<boolean> }>;
}

export type SharedFiles = { ok: true; files: DroppedFile[] } | { ok: false; error: string } | undefined;

/**
 * The files a share brought, when the page was opened by one (`search` is
 * `location.search`, `scope` the app's base URL). Not a share: `undefined`.
 */
export async function takeSharedFiles(search: string, scope: string, caches: SharedCaches | undefined): Promise<SharedFiles> {
  const id = new URLSearchParams(search).get("shared");
  if (id === null) return undefined;
  if (id === "failed") return { ok: false, error: "The shared files could not be received. Open Import history and pick them instead." };
  if (id === "none" || !/^[a-z0-9]+$/.test(id)) return { ok: false, error: "The share held no files: tabcode imports shared files (opencode.db, .json, .jsonl, .zip)." };
  if (!caches) return { ok: false, error: "This browser did not keep the shared files. Open Import history and pick them instead." };
  const cache = await caches.open(SHARED_CACHE);
  const prefix = new URL(`shared-files/${id}/`, scope).href;
  const files: DroppedFile[] = [];
  const keys = (await cache.keys()).filter((k) => k.url.startsWith(prefix)).sort((a, b) => Number(a.url.slice(prefix.length)) - Number(b.url.slice(prefix.length)));
  for (const key of keys) {
    const r = await cache.match(key);
    await cache.delete(key);
    if (!r) continue;
    const name = decodeURIComponent(r.headers.get("x-file-name") ?? "shared");
    const file = new File([await r.blob()], name, { type: r.headers.get("content-type") ?? "" });
    files.push({ path: name, file });
  }
  if (files.length === 0) return { ok: false, error: "The shared files are gone (they are kept only until the app opens them once). Share them again." };
  return { ok: true, files };
}

/** The LaunchQueue of an installed app opened with files (the manifest's `file_handlers`). */
export interface LaunchQueueLike {
  setConsumer(consumer: (params: { files: readonly { getFile(): Promise<File> }[] }) => void): void;
}

/** Hands the files the installed app was opened with to `onFiles` (nothing when opened without files). */
export function consumeLaunchFiles(queue: LaunchQueueLike | undefined, onFiles: (files: DroppedFile[]) => void, onError: (message: string) => void): void {
  queue?.setConsumer((params) => {
    if (params.files.length === 0) return;
    Promise.all(params.files.map((h) => h.getFile())).then(
      (files) => onFiles(files.map((file) => ({ path: file.name, file }))),
      () => onError("The file this app was opened with could not be read. Open Import history and pick it instead."),
    );
  });
}
