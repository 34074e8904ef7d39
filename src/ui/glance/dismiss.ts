/**
 * What the app's first screen needs of the glance: its storage key and layer id, and the removal. Kept apart
 * from `paint.ts` (which is inlined into index.html and must stand alone, so it repeats the two names; a
 * test checks they agree), so the entry does not carry the painter's lists.
 */
export const GLANCE_KEY = "tabcode:glance";
export const GLANCE_ID = "tabcode-glance";

/** Removes the painted snapshot (the app has painted the page itself). */
export function dismissGlance(d: Document): void {
  d.getElementById(GLANCE_ID)?.remove();
}
