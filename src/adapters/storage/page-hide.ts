/**
 * Flushes buffered writes when the page may be about to go away: on
 * `pagehide` and when the page becomes hidden (the last moment a mobile
 * browser reliably runs code before discarding a tab).
 */

/** Anything with a `flush()`, such as `DexieStore`. */
export interface Flushable {
  flush(): Promise<void>;
}

export interface PageHideOptions {
  /** Whether the page is hidden now. Default: `document.visibilityState === "hidden"`. */
  isHidden?: () => boolean;
  /** Where a failed flush is reported. Default `console.warn`. */
  warn?: (message: string) => void;
}

function documentHidden(): boolean {
  const doc = (globalThis as { document?: { visibilityState?: string } }).document;
  return doc?.visibilityState === "hidden";
}

/**
 * Registers the listeners on `target` (the window; `visibilitychange` bubbles
 * up to it from the document) and returns a function that removes them.
 */
export function installFlushOnPageHide(
  store: Flushable,
  target: Pick<EventTarget, "addEventListener" | "removeEventListener"> = globalThis,
  options: PageHideOptions = {},
): () => void {
  const isHidden = options.isHidden ?? documentHidden;
  const warn = options.warn ?? ((m: string) => console.warn(m));
  const flush = () => {
    store.flush().catch((e: unknown) => {
      warn(`tabcode: could not save before the page was hidden: ${e instanceof Error ? e.message : String(e)}`);
    });
  };
  const onVisibility = () => {
    if (isHidden()) flush();
  };
  target.addEventListener("pagehide", flush);
  target.addEventListener("visibilitychange", onVisibility);
  return () => {
    target.removeEventListener("pagehide", flush);
    target.removeEventListener("visibilitychange", onVisibility);
  };
}
