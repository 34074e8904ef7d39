import type { ReactNode } from "react";

/**
 * A `pre` whose long lines scroll sideways (and a long one down): a code block's, a tool output's. Like a markdown
 * table's scroll box it is always a tab stop, so it can be scrolled from the keyboard (WCAG 2.1.1; axe's
 * scrollable-region-focusable). Measuring which boxes scroll was tried: a box re-rendered while it was not laid out
 * (content-visibility: auto) measured as not scrolling and stayed unreachable.
 */
export function ScrollPre({ className, children }: { className?: string; children: ReactNode }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a focusable scroll box is the accessible pattern for content that scrolls (WCAG 2.1.1)
    <pre className={className} tabIndex={0}>
      {children}
    </pre>
  );
}
