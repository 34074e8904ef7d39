import { useEffect, useRef, useState } from "react";
import { modelChoices } from "../../core/model-choices";
import { acceptsImages } from "../../core/model-table";
import type { ProviderKind } from "../../core/settings";
import { fuzzyFilter } from "./fuzzy";
import { moveActive, OptionList } from "./option-list";

const LIST_ID = "model-options";

/** The model picker's popover (its own chunk): a combobox of the provider's models; any id can be typed. */
export function ModelMenu({ provider, current, onPick, onClose }: { provider: ProviderKind; current: string; onPick: (id: string) => void; onClose: (refocus: boolean) => void }) {
  const [query, setQuery] = useState("");
  const [active, setActive] = useState(0);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => input.current?.focus(), []);
  const all = modelChoices(provider);
  const q = query.trim();
  const items = q ? fuzzyFilter([...new Set([q, ...all])], q, 8) : [current, ...all.filter((m) => m !== current)].slice(0, 12);
  const at = Math.min(active, items.length - 1);
  const chosen = items[at];
  const hint = (id: string) => {
    const a = acceptsImages(id);
    const here = id === current ? "current" : "";
    return [a === undefined ? "" : a ? "images" : "text only", here].filter(Boolean).join(" · ");
  };
  return (
    <div className="model-popover">
      <label htmlFor="model-input" className="visually-hidden">
        Model for this session
      </label>
      <input
        ref={input}
        id="model-input"
        role="combobox"
        aria-expanded={items.length > 0}
        aria-controls={LIST_ID}
        aria-autocomplete="list"
        aria-activedescendant={chosen ? `${LIST_ID}-${at}` : undefined}
        placeholder="Type to filter, or any model id"
        value={query}
        onChange={(e) => {
          setQuery(e.target.value);
          setActive(0);
        }}
        onBlur={(e) => {
          if (!e.relatedTarget || !e.currentTarget.parentElement?.contains(e.relatedTarget)) onClose(false);
        }}
        onKeyDown={(e) => {
          const to = moveActive(e.key, at, items.length);
          if (to !== undefined) {
            e.preventDefault();
            setActive(to);
          } else if (e.key === "Enter") {
            e.preventDefault();
            onPick(chosen ?? q);
          } else if (e.key === "Escape") {
            e.preventDefault();
            e.stopPropagation();
            onClose(true);
          }
        }}
      />
      <OptionList id={LIST_ID} label="Models" items={items} active={at} onPick={onPick} hint={hint} />
    </div>
  );
}
