import { type ReactNode, useEffect, useRef } from "react";
import type { Panel } from "../../hooks/use-panel";
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

/**
 * A side column. Desktop: resizable, collapsible (it is then not rendered; a toggle elsewhere brings it
 * back). Narrow screens: a drawer over the content when open — focus moves into it, Esc or the scrim
 * closes it and focus returns to where it was. Not modal: Tab can leave it (no trap).
 */
export function SidePanel({ side, label, id, panel, narrow, min, max, children }: Props) {
  const box = useRef<HTMLDivElement>(null);
  const open = narrow ? panel.open : !panel.collapsed;
  const close = useRef(() => panel.setOpen(false));
  close.current = () => panel.setOpen(false);

  useEffect(() => {
    if (!narrow || !open) return;
    const before = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const first = box.current?.querySelector<HTMLElement>("button, [href], input, select, textarea, [tabindex]:not([tabindex='-1'])");
    (first ?? box.current)?.focus();
    // Esc closes the drawer wherever focus is, unless a dialog or menu inside took it.
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "Escape" || e.defaultPrevented || document.querySelector("dialog[open]")) return;
      e.preventDefault();
      close.current();
    };
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("keydown", onKey);
      if (before?.isConnected) before.focus();
    };
  }, [narrow, open]);

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
export function PanelToggle({ label, controls, panel, narrow, children }: { label: string; controls: string; panel: Panel; narrow: boolean; children: ReactNode }) {
  const open = narrow ? panel.open : !panel.collapsed;
  return (
    <button
      type="button"
      className="panel-toggle"
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
