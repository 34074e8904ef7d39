import { type RefObject, useEffect, useState } from "react";

/**
 * Whether a box scrolls (its content is wider or taller than it): such a box is made a tab stop, so it can be
 * scrolled from the keyboard (WCAG 2.1.1; axe's scrollable-region-focusable), while short ones add none.
 * Measured again when `key` changes (the text, the wrapping), when the box's own size changes (a resize) and
 * when it comes into view. `enabled` false (a block
 * still streaming) measures nothing: a read of its size on every streamed frame would force a layout each time.
 */
export function useScrolls(box: RefObject<HTMLElement | null>, key: unknown, enabled = true): boolean {
  const [scrolls, setScrolls] = useState(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: measured again when the content (`key`) changes
  useEffect(() => {
    const el = box.current;
    if (!el || !enabled) return;
    const measure = () => setScrolls(el.scrollHeight > el.clientHeight + 1 || el.scrollWidth > el.clientWidth + 1);
    measure();
    // Off screen, a box with `content-visibility: auto` lays nothing out: it measures as not scrolling, and coming
    // into view may not change its own size (it keeps the size it had). So it is measured again as it comes into view.
    const sized = typeof ResizeObserver === "function" ? new ResizeObserver(measure) : undefined;
    const shown = typeof IntersectionObserver === "function" ? new IntersectionObserver((es) => es.some((e) => e.isIntersecting) && measure()) : undefined;
    sized?.observe(el);
    shown?.observe(el);
    return () => {
      sized?.disconnect();
      shown?.disconnect();
    };
  }, [box, key, enabled]);
  return enabled && scrolls;
}
