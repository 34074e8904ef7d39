import { type ReactNode, useEffect, useId, useLayoutEffect, useRef, useState } from "react";

export interface MenuItem {
  label: string;
  run: () => void;
  disabled?: boolean;
  title?: string;
  /** Why a disabled item cannot run now: shown under its label and read as its description. */
  reason?: string;
}

/**
 * A menu button (WAI-ARIA menu pattern): opens on click, focus goes to the first item that can run, ↑/↓ move,
 * Esc closes and returns focus to the button, a click outside closes. A disabled item stays focusable
 * (`aria-disabled`, as the pattern advises), so the keyboard reaches it and its reason.
 */
export function MenuButton({ label, items, children, className, buttonLabel }: { label: string; items: MenuItem[]; children?: ReactNode; className?: string; buttonLabel?: string }) {
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const idBase = useId();

  // A menu near the bottom of its scrolling box (a message's ⋯ just above the composer) opens upwards, when
  // there is more room above: opening down, its items were cut off by the box's edge.
  const [up, setUp] = useState(false);
  const openAtLast = useRef(false);
  useLayoutEffect(() => {
    const menu = root.current?.querySelector<HTMLElement>('[role="menu"]');
    if (!open || !menu || !button.current) return setUp(false);
    const box = clippingBox(root.current);
    const b = button.current.getBoundingClientRect();
    const h = menu.getBoundingClientRect().height;
    setUp(b.bottom + h + 4 > box.bottom && b.top - box.top > box.bottom - b.bottom);
  }, [open]);

  useEffect(() => {
    if (!open) return;
    const items = root.current?.querySelectorAll<HTMLButtonElement>('[role="menuitem"]:not([aria-disabled="true"])');
    (openAtLast.current ? items?.[items.length - 1] : items?.[0])?.focus();
    openAtLast.current = false;
    const close = (e: MouseEvent) => {
      if (!(e.target instanceof Node) || !root.current?.contains(e.target)) setOpen(false);
    };
    document.addEventListener("mousedown", close);
    return () => document.removeEventListener("mousedown", close);
  }, [open]);

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: Escape and the arrows work from anywhere inside the menu
    <div
      className={`menu${className ? ` ${className}` : ""}`}
      ref={root}
      onKeyDown={(e) => {
        if (e.key === "Escape" && open) {
          e.preventDefault();
          setOpen(false);
          button.current?.focus();
        }
        // On the closed button, ↓ opens the menu at its first item and ↑ at its last (the menu button pattern).
        if (!open && e.target === button.current && (e.key === "ArrowDown" || e.key === "ArrowUp")) {
          e.preventDefault();
          openAtLast.current = e.key === "ArrowUp";
          setOpen(true);
          return;
        }
        if (open && (e.key === "ArrowDown" || e.key === "ArrowUp")) {
          const all = [...(root.current?.querySelectorAll<HTMLButtonElement>('[role="menuitem"]') ?? [])];
          const i = document.activeElement instanceof HTMLButtonElement ? all.indexOf(document.activeElement) : -1;
          all[(i + (e.key === "ArrowDown" ? 1 : all.length - 1)) % all.length]?.focus();
          e.preventDefault();
        }
      }}
    >
      <button ref={button} type="button" aria-haspopup="menu" aria-expanded={open} aria-label={buttonLabel} title={buttonLabel} onClick={() => setOpen(!open)}>
        {children ?? label}
      </button>
      {open && (
        <div role="menu" aria-label={label} className={up ? "menu-up" : undefined}>
          {items.map((it, i) => {
            const reasonId = it.disabled && it.reason ? `${idBase}-r${i}` : undefined;
            return (
              <button
                key={it.label}
                type="button"
                role="menuitem"
                aria-disabled={it.disabled || undefined}
                aria-describedby={reasonId}
                title={it.title}
                onClick={() => {
                  if (it.disabled) return;
                  setOpen(false);
                  button.current?.focus();
                  it.run();
                }}
              >
                {it.label}
                {reasonId && (
                  <span id={reasonId} className="menu-reason" aria-hidden="true">
                    {it.reason}
                  </span>
                )}
              </button>
            );
          })}
        </div>
      )}
    </div>
  );
}

/** The edges a menu inside `el` is clipped to: its nearest scrolling ancestor's, else the window's. */
function clippingBox(el: HTMLElement | null): { top: number; bottom: number } {
  for (let a = el?.parentElement; a; a = a.parentElement) {
    if (/(auto|scroll|hidden)/.test(getComputedStyle(a).overflowY)) {
      const r = a.getBoundingClientRect();
      return { top: Math.max(r.top, 0), bottom: Math.min(r.bottom, window.innerHeight) };
    }
  }
  return { top: 0, bottom: window.innerHeight };
}
