import { useEffect, useRef, useState } from "react";
import { modelChoices } from "../../core/model-choices";
import { acceptsImages } from "../../core/model-table";
import type { Session } from "../../core/schema";
import { sessionModelConfig } from "../../core/settings";
import { emit, useAppEvent } from "../app-events";
import { useServices, useSettings } from "../hooks/services";
import { fuzzyFilter } from "./fuzzy";
import { moveActive, OptionList } from "./option-list";

const LIST_ID = "model-options";

/**
 * The session's model, in the composer (the one place to switch it): a button showing the
 * model, opening a combobox of the provider's models (any id can be typed). The choice is
 * stored on the session (`session.model`), which the loop reads for the next step.
 */
export function ModelPicker({ session }: { session: Session }) {
  const { store } = useServices();
  const settings = useSettings();
  const model = sessionModelConfig(settings, session);
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState("");
  const [active, setActive] = useState(0);
  const button = useRef<HTMLButtonElement>(null);
  const input = useRef<HTMLInputElement>(null);
  useAppEvent("pick-model", () => (model.provider === "demo" ? emit("open-settings") : setOpen(true)));
  useEffect(() => {
    if (open) input.current?.focus();
  }, [open]);

  if (model.provider === "demo")
    return (
      <span className="model-chip" title="Demo sessions always use the offline demo model">
        Demo model
      </span>
    );

  const all = modelChoices(settings.provider);
  const items = query.trim() ? fuzzyFilter([...new Set([query.trim(), ...all])], query.trim(), 8) : [model.modelID, ...all.filter((m) => m !== model.modelID)].slice(0, 12);
  const current = items[Math.min(active, items.length - 1)];
  const close = () => {
    setOpen(false);
    setQuery("");
    setActive(0);
    button.current?.focus();
  };
  const pick = (id: string) => {
    const next = id.trim();
    close();
    if (!next || next === model.modelID) return;
    void store.updateSession(session.id, (s) => ({
      ...s,
      model: { providerID: settings.provider, modelID: next },
    }));
  };
  const images = (id: string) => {
    const a = acceptsImages(id);
    return a === undefined ? (id === model.modelID ? "current" : "") : `${a ? "images" : "text only"}${id === model.modelID ? " · current" : ""}`;
  };

  return (
    <div className="model-picker">
      <button
        ref={button}
        type="button"
        className="model-chip"
        aria-haspopup="listbox"
        aria-expanded={open}
        aria-label={`Model: ${model.modelID}. Switch model for this session`}
        title="Model of this session (the next step uses it)"
        onClick={() => (open ? close() : setOpen(true))}
      >
        {model.modelID} ▾
      </button>
      {open && (
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
            aria-activedescendant={current ? `${LIST_ID}-${items.indexOf(current)}` : undefined}
            placeholder="Type to filter, or any model id"
            value={query}
            onChange={(e) => {
              setQuery(e.target.value);
              setActive(0);
            }}
            onBlur={(e) => {
              if (!e.relatedTarget || !e.currentTarget.parentElement?.contains(e.relatedTarget)) {
                setOpen(false);
                setQuery("");
              }
            }}
            onKeyDown={(e) => {
              const to = moveActive(e.key, active, items.length);
              if (to !== undefined) {
                e.preventDefault();
                setActive(to);
              } else if (e.key === "Enter") {
                e.preventDefault();
                pick(current ?? query);
              } else if (e.key === "Escape") {
                e.preventDefault();
                e.stopPropagation();
                close();
              }
            }}
          />
          <OptionList id={LIST_ID} label="Models" items={items} active={Math.min(active, items.length - 1)} onPick={pick} hint={images} />
        </div>
      )}
    </div>
  );
}
