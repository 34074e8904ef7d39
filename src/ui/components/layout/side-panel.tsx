import { type ReactNode, useEffect, useRef } from "react";
import { useLayout } from "../../hooks/layout";
import type { Panel } from "../../hooks/use-panel";
import { inertOutside } from "./inert-outside";
import { returnFocus } from "../../return-focus";
import { ResizeHandle } from "./resize-handle";

interface Props {
  side: "left" | "right";
  /** Names the panel for assistive tech and its resize handle, e.g. "Sessions". */
  label: string;
  id: string;
  panel: Panel;
  narrow: boolean;
  min: number;
  max: number;
  children: ReactNode;
}

/** Each open drawer's box → what had focus before it opened. */
const openers = new WeakMap<Element, HTMLElement | null>();

/**
 * A side column. Desktop: resizable, collapsible (it is then not rendered; a toggle elsewhere brings it
 * back). Narrow screens: a drawer over the content when open, one at a time. It is modal: the rest of the
 * page is inert, focus moves to its close control (the toggle inside it; never a text field, which would
 * raise a phone's keyboard), Esc, the close control or the scrim close it and focus returns to where it was.
 */
export function SidePanel({ side, label, id, panel, narrow, min, max, children }: Props) {
  const box = useRef<HTMLDivElement>(null);
  const layout = useLayout();
  const open = narrow ? panel.open : !panel.collapsed;
  const other = side === "left" ? layout.files : layout.sessions;
  const panels = useRef({ panel, other });
  panels.current = { panel, other };

  // What had focus when this drawer was asked to open (kept while the other drawer closes first).
  const opener = useRef<HTMLElement | null | undefined>(undefined);
  // This drawer is the one on screen (inert applied); a drawer opening over it closes it, not the reverse.
  const settled = useRef(false);
  const otherOpen = narrow && other.open;
  useEffect(() => {
    const el = box.current;
    if (!narrow || !open || !el) {
      opener.current = undefined;
      settled.current = false;
      return;
    }
    if (opener.current === undefined) {
      // Opened from the other drawer (a shortcut): focus goes back to what that one was opened from.
      const active = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      const from = active?.closest(".drawer");
      opener.current = from && openers.has(from) ? (openers.get(from) ?? null) : active;
    }
    // One drawer at a time: the other closes first (its page is inert, focus could not move), then this runs again.
    if (otherOpen) {
      if (!settled.current) panels.current.other.setOpen(false);
      return;
    }
    settled.current = true;
    const before = opener.current;
    openers.set(el, before);
    const restore = inertOutside(el, ".drawer-scrim, .notices");
    (el.querySelector<HTMLElement>(`[aria-controls="${id}"]`) ?? el).focus();
    // Esc closes the drawer wherever focus is, unless a dialog or menu inside took it.
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "Escape" || e.defaultPrevented || document.querySelector("dialog[open]")) return;
      e.preventDefault();
      panels.current.panel.setOpen(false);
    };
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("keydown", onKey);
      restore();
      // Only focus the drawer took with it: closing it because the other drawer opened leaves focus there.
      returnFocus(before, el);
    };
  }, [narrow, open, id, otherOpen]);

  if (!open) return null;
  if (narrow)
    return (
      <>
        <div className="drawer-scrim" aria-hidden="true" onClick={() => panel.setOpen(false)} />
        <div ref={box} id={id} className={`drawer drawer-${side}`} tabIndex={-1}>
          {children}
        </div>
      </>
    );
  return (
    <section id={id} className={`side-panel side-panel-${side}`} style={{ width: panel.width }} aria-label={`${label} panel`}>
      {children}
      <ResizeHandle label={`Resize ${label.toLowerCase()} panel`} side={side} width={panel.width} min={min} max={max} onResize={panel.setWidth} />
    </section>
  );
}

/** The button that shows or hides a side panel (drawer on narrow screens). */
export function PanelToggle({
  label,
  controls,
  panel,
  narrow,
  close,
  children,
}: {
  label: string;
  controls: string;
  panel: Panel;
  narrow: boolean;
  /** The one inside the panel, which closes its drawer (touch-sized there). */
  close?: boolean;
  children: ReactNode;
}) {
  const open = narrow ? panel.open : !panel.collapsed;
  return (
    <button
      type="button"
      className={close ? "panel-toggle panel-close" : "panel-toggle"}
      aria-expanded={open}
      aria-controls={open ? controls : undefined}
      aria-label={`${open ? "Hide" : "Show"} ${label.toLowerCase()}`}
      title={`${open ? "Hide" : "Show"} ${label.toLowerCase()}`}
      onClick={() => (narrow ? panel.setOpen(!panel.open) : panel.setCollapsed(!panel.collapsed))}
    >
      {children}
    </button>
  );
}
