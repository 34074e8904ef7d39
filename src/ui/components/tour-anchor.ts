/** Where a tour step's popover goes: next to its element, inside the viewport; a bottom sheet on phones. */

export const SHEET_BELOW = 600;
const GAP = 10;
const MARGIN = 8;
/** How far a popover beside an element may reach over its edge: a message's 24 px padding and a few pixels of its widest lines. */
const EDGE = 40;

export type TourPlacement = { kind: "sheet" } | { kind: "popover"; top: number; left: number; side: "below" | "above" | "right" | "left" | "over" };

interface Box {
  top: number;
  left: number;
  bottom: number;
  right: number;
}

/**
 * Below the element when it fits, else above, else beside it (right, then left: a tall message stays readable),
 * else over its lower part (its start stays visible); always within the viewport.
 */
export function placeTour(anchor: Box | undefined, size: { width: number; height: number }, viewport: { width: number; height: number }, area?: Box): TourPlacement {
  if (viewport.width < SHEET_BELOW) return { kind: "sheet" };
  const clampLeft = (x: number) => Math.max(MARGIN, Math.min(x, viewport.width - size.width - MARGIN));
  const clampTop = (y: number) => Math.max(MARGIN, Math.min(y, viewport.height - size.height - MARGIN));
  // No element to point at (folded into a summary, scrolled out of the list): the bottom-right corner of the
  // conversation (`area`), over nothing the side panels show; of the window when there is no such area.
  if (!anchor) {
    const frame = area ?? { top: 0, left: 0, bottom: viewport.height, right: viewport.width };
    return { kind: "popover", side: "over", top: clampTop(frame.bottom - size.height - 16), left: clampLeft(frame.right - size.width - 16) };
  }
  const left = clampLeft(anchor.left);
  if (anchor.bottom + GAP + size.height <= viewport.height - MARGIN) return { kind: "popover", side: "below", top: Math.max(MARGIN, anchor.bottom + GAP), left };
  if (anchor.top - GAP - size.height >= MARGIN) return { kind: "popover", side: "above", top: anchor.top - GAP - size.height, left };
  const top = clampTop(anchor.top);
  // Beside it, over at most its edge (a message's padding: its text stays clear).
  if (anchor.right + GAP + size.width - EDGE <= viewport.width - MARGIN) return { kind: "popover", side: "right", top, left: Math.min(anchor.right + GAP, viewport.width - MARGIN - size.width) };
  if (anchor.left - GAP - size.width + EDGE >= MARGIN) return { kind: "popover", side: "left", top, left: Math.max(MARGIN, anchor.left - GAP - size.width) };
  return { kind: "popover", side: "over", top: clampTop(anchor.bottom - GAP - size.height), left };
}

const last = (selector: string): HTMLElement | null => {
  const all = document.querySelectorAll<HTMLElement>(selector);
  return all[all.length - 1] ?? null;
};

const byText = (selector: string, text: string): HTMLElement | null => [...document.querySelectorAll<HTMLElement>(selector)].find((e) => e.textContent?.trim() === text) ?? null;

/** Each step's element (the newest one of its kind), with a fallback where the layout hides it. */
export const TOUR_ANCHORS: Record<string, () => HTMLElement | null> = {
  parts: () => last(".message.assistant:not(.summary)"),
  tools: () => last(".tool-card"),
  meter: () => document.querySelector<HTMLElement>(".context-meter"),
  // At narrow widths the X-ray sits in the header's More menu.
  xray: () => byText(".header-actions button", "Context X-ray") ?? document.querySelector<HTMLElement>('.header-actions [aria-haspopup="menu"]'),
  compaction: () => last(".message.summary"),
  fork: () => last(".message .message-actions") ?? last(".message"),
};

/** The part of an element its scrolling container shows (a tall message's popover then sits on what is visible). */
export function visibleBox(el: HTMLElement): Box {
  const r = el.getBoundingClientRect();
  let box: Box = { top: r.top, left: r.left, bottom: r.bottom, right: r.right };
  for (let p = el.parentElement; p; p = p.parentElement) {
    const o = getComputedStyle(p).overflowY;
    if (o !== "auto" && o !== "scroll") continue;
    const c = p.getBoundingClientRect();
    box = { top: Math.max(box.top, c.top), left: box.left, bottom: Math.min(box.bottom, c.bottom), right: box.right };
    break;
  }
  return box.bottom > box.top ? box : { top: r.top, left: r.left, bottom: r.bottom, right: r.right };
}
