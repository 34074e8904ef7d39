import { useSyncExternalStore } from "react";

/** One `MediaQueryList` per query for the page's life: `matchMedia` parses the query on every call, and the header asks on every render. */
const lists = new Map<string, MediaQueryList>();
function listFor(query: string): MediaQueryList {
  let list = lists.get(query);
  if (!list) {
    list = window.matchMedia(query);
    lists.set(query, list);
  }
  return list;
}

/** Whether a CSS media query matches now (re-renders when it changes). */
export function useMedia(query: string): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const m = listFor(query);
      m.addEventListener("change", onChange);
      return () => m.removeEventListener("change", onChange);
    },
    () => listFor(query).matches,
    () => false,
  );
}

/** Below this width the side panels become drawers. */
export const NARROW = "(max-width: 899px)";
/** Below this width the session header folds its actions into a menu. */
export const COMPACT_HEADER = "(max-width: 1199px)";
/** Phones (the stylesheet's 600 px blocks): the header's figures scroll sideways, the composer uses short placeholders. */
export const PHONE = "(max-width: 600px)";
