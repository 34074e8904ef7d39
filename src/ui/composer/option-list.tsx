/** A listbox a text field points into (aria-activedescendant): the field keeps focus, ↑/↓ move, Enter picks. */
export function OptionList({
  id,
  label,
  items,
  active,
  onPick,
  hint,
}: {
  id: string;
  label: string;
  items: readonly string[];
  active: number;
  onPick: (item: string) => void;
  hint?: (item: string) => string;
}) {
  return (
    <div className="slash-palette option-list" role="listbox" id={id} aria-label={label}>
      {items.map((item, i) => (
        // biome-ignore lint/a11y/useKeyWithClickEvents: the keyboard path is the field that owns focus (↑/↓, Enter)
        <div
          key={item}
          id={`${id}-${i}`}
          role="option"
          tabIndex={-1}
          aria-selected={i === active}
          className={`slash-option${i === active ? " active" : ""}`}
          onMouseDown={(e) => e.preventDefault()}
          onClick={() => onPick(item)}
        >
          <span className="slash-name">{item}</span>
          {hint && <span className="slash-hint">{hint(item)}</span>}
        </div>
      ))}
    </div>
  );
}

/** Moves an active index by ↑/↓ over `n` items (wrapping); undefined for other keys. */
export function moveActive(key: string, active: number, n: number): number | undefined {
  if (n === 0) return undefined;
  if (key === "ArrowDown") return (active + 1) % n;
  if (key === "ArrowUp") return (active + n - 1) % n;
  return undefined;
}
