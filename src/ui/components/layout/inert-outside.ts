/** Elements made inert here, with how many open drawers hold each (one drawer can open as the other closes). */
const held = new Map<Element, number>();

/**
 * Makes the page outside `box` inert, as a modal dialog does: Tab, clicks and assistive technology stay in
 * the box. Elements matching `keep` stay live; an element holding a <dialog> is entered rather than made
 * inert, so its dialog can open over the box (one mounted later under an inert element still works: a
 * modal dialog escapes its ancestors' inertness). What is added outside the box while it is open (a banner, a
 * notice's neighbour, a new message) is made inert too. Returns the undo.
 */
export function inertOutside(box: Element, keep: string): () => void {
  const mine: Element[] = [];
  /** The box and its ancestors: never made inert. */
  const path = new Set<Element>();
  const watched: Element[] = [];
  let observer: MutationObserver | undefined;
  const hide = (el: Element) => {
    if (path.has(el) || el.matches(`${keep}, dialog, script, noscript, style`)) return;
    if (el.querySelector("dialog")) {
      watched.push(el);
      // Entered after the box opened: watched from now on too.
      observer?.observe(el, { childList: true });
      for (const child of el.children) hide(child);
      return;
    }
    const n = held.get(el);
    if (n === undefined && el.hasAttribute("inert")) return;
    held.set(el, (n ?? 0) + 1);
    el.setAttribute("inert", "");
    mine.push(el);
  };
  for (let node: Element = box; node !== document.body && node.parentElement; node = node.parentElement) {
    path.add(node);
    watched.push(node.parentElement);
  }
  for (const parent of [...watched]) for (const child of parent.children) hide(child);
  observer = new MutationObserver((records) => {
    for (const r of records) for (const n of r.addedNodes) if (n instanceof Element) hide(n);
  });
  for (const el of watched) observer.observe(el, { childList: true });
  return () => {
    observer?.disconnect();
    for (const el of mine) {
      const n = (held.get(el) ?? 1) - 1;
      if (n > 0) held.set(el, n);
      else {
        held.delete(el);
        el.removeAttribute("inert");
      }
    }
  };
}
