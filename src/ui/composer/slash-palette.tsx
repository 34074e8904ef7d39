import type { SlashCommand } from "./slash";

export const PALETTE_ID = "slash-palette";
export const optionID = (name: string) => `slash-option-${name}`;

/** The slash-command palette above the composer: a listbox the textbox points into (aria-activedescendant). */
export function SlashPalette({ items, active, onPick }: { items: SlashCommand[]; active: number; onPick: (c: SlashCommand) => void }) {
  return (
    <div className="slash-palette" role="listbox" id={PALETTE_ID} aria-label="Commands">
      {items.map((c, i) => (
        // biome-ignore lint/a11y/useKeyWithClickEvents: the keyboard path is the textbox (↑/↓, Enter), which owns focus
        <div
          key={c.name}
          id={optionID(c.name)}
          role="option"
          tabIndex={-1}
          aria-selected={i === active}
          className={`slash-option${i === active ? " active" : ""}`}
          onMouseDown={(e) => e.preventDefault()}
          onClick={() => onPick(c)}
        >
          <span className="slash-name">
            /{c.name}
            {c.arg ? ` ${c.arg}` : ""}
          </span>
          <span className="slash-hint">{c.hint}</span>
        </div>
      ))}
    </div>
  );
}
