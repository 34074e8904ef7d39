import { useSyncExternalStore } from "react";

/** Whether a CSS media query matches now (re-renders when it changes). */
export function useMedia(query: string): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const m = window.matchMedia(query);
      m.addEventListener("change", onChange);
      return () => m.removeEventListener("change", onChange);
    },
    () => window.matchMedia(query).matches,
    () => false,
  );
}

/** Below this width the side panels become drawers. */
export const NARROW = "(max-width: 899px)";
/** Below this width the session header folds its actions into a menu. */
export const COMPACT_HEADER = "(max-width: 1199px)";
