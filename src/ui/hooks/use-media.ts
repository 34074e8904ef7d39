import { useSyncExternalStore } from "react";

/**
 * One watched query per media query for the page's life: its result is kept from its `change` events, so a
 * render reads a field. Reading `MediaQueryList.matches` evaluates the query against the page each time, and
 * the header asks on every render (one profiled send in a long session spent ~13 ms under that read, in the
 * render right after the prompt was added).
 */
interface Watched {
  matches: boolean;
  listeners: Set<() => void>;
}
const watched = new Map<string, Watched>();
function watch(query: string): Watched {
  let w = watched.get(query);
  if (!w) {
    const list = window.matchMedia(query);
    const entry: Watched = { matches: list.matches, listeners: new Set() };
    list.addEventListener("change", (e) => {
      entry.matches = e.matches;
      for (const l of [...entry.listeners]) l();
    });
    watched.set(query, entry);
    w = entry;
  }
  return w;
}

/** Whether a CSS media query matches now (re-renders when it changes). */
export function useMedia(query: string): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const w = watch(query);
      w.listeners.add(onChange);
      return () => {
        w.listeners.delete(onChange);
      };
    },
    () => watch(query).matches,
    () => false,
  );
}

/** Below this width the side panels become drawers. */
export const NARROW = "(max-width: 899px)";
/** Below this width the session header folds its actions into a menu. */
export const COMPACT_HEADER = "(max-width: 1199px)";
/** Phones (the stylesheet's 600 px blocks): the header's figures scroll sideways, the composer uses short placeholders. */
export const PHONE = "(max-width: 600px)";
