/**
 * What the entry needs of the glance: its storage key and layer id, the index of kept pictures and their
 * removal, and the layer's removal. Kept apart from `paint.ts` (which is inlined into index.html and must
 * stand alone, so it repeats the two names; a test checks they agree), so the entry does not carry the
 * painter's lists.
 */
/** The index of kept pictures (session ids, newest first); each picture is under `<GLANCE_KEY>:<session id>`. */
export const GLANCE_KEY = "tabcode:glance";
export const GLANCE_ID = "tabcode-glance";
/** Pictures kept: the sessions last left. */
export const GLANCE_KEEP = 4;

/** Where a session's picture is kept. */
export const pictureKey = (session: string): string => `${GLANCE_KEY}:${session}`;

/** The sessions with a kept picture, newest first. */
export function glanceIndex(storage: Pick<Storage, "getItem">): string[] {
  try {
    const ids: unknown = JSON.parse(storage.getItem(GLANCE_KEY) ?? "[]");
    return Array.isArray(ids) ? ids.filter((x): x is string => typeof x === "string") : [];
  } catch {
    return [];
  }
}

/** Characters the kept pictures and the index take (keys and values): what `forgetGlances` frees. */
export function glanceChars(storage: Pick<Storage, "getItem">): number {
  const ids = glanceIndex(storage);
  if (ids.length === 0) return 0;
  let n = GLANCE_KEY.length + (storage.getItem(GLANCE_KEY)?.length ?? 0);
  for (const id of ids) {
    const picture = storage.getItem(pictureKey(id));
    if (picture !== null) n += pictureKey(id).length + picture.length;
  }
  return n;
}

/** Removes every kept picture and the index. */
export function forgetGlances(storage: Pick<Storage, "getItem" | "removeItem">): void {
  for (const id of glanceIndex(storage)) storage.removeItem(pictureKey(id));
  storage.removeItem(GLANCE_KEY);
}

/** Removes the painted snapshot (the app has painted the page itself). */
export function dismissGlance(d: Document): void {
  d.getElementById(GLANCE_ID)?.remove();
}
