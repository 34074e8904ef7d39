/** Trees written within this long are kept even when nothing names them yet (a module of its own: start-up reads it, the collection's code loads only when one runs). */
export const GC_GRACE_MS = 10 * 60_000;
