import { type ReactNode, useEffect, useRef, useState } from "react";

export interface MenuItem {
  label: string;
  run: () => void;
  disabled?: boolean;
  title?: string;
}

/**
 * A menu button (WAI-ARIA menu pattern): opens on click, focus goes to the first item, ↑/↓ move,
 * Esc closes and returns focus to the button, a click outside closes.
 */
export function MenuButton({ label, items, children, className, buttonLabel }: { label: string; items: MenuItem[]; children?: ReactNode; className?: string; buttonLabel?: string }) {
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return;
    root.current?.querySelector<HTMLButtonElement>('[role="menuitem"]:not(:disabled)')?.focus();
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
        if (open && (e.key === "ArrowDown" || e.key === "ArrowUp")) {
          const all = [...(root.current?.querySelectorAll<HTMLButtonElement>('[role="menuitem"]:not(:disabled)') ?? [])];
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
        <div role="menu" aria-label={label}>
          {items.map((it) => (
            <button
              key={it.label}
              type="button"
              role="menuitem"
              disabled={it.disabled}
              title={it.title}
              onClick={() => {
                setOpen(false);
                button.current?.focus();
                it.run();
              }}
            >
              {it.label}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
