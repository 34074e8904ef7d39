import { type FormEvent, useEffect, useId, useRef, useState } from "react";
import type { Session } from "../../core/schema";
import { BUILTIN_MODELS } from "../../core/settings";
import { useServices, useSettings } from "../hooks/services";

/**
 * The session's model, switchable per session: the next step uses the new
 * model; each answer records the model that wrote it. Any id can be typed.
 */
export function SessionModel({ session, modelID }: { session: Session; modelID: string }) {
  const { sessions } = useServices();
  const settings = useSettings();
  const [editing, setEditing] = useState(false);
  const [value, setValue] = useState(modelID);
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  // The user asked to switch: the field takes the focus it was opened for.
  useEffect(() => {
    if (editing) input.current?.focus();
  }, [editing]);
  const save = (e: FormEvent) => {
    e.preventDefault();
    const next = value.trim();
    setEditing(false);
    if (!next || next === modelID) return;
    void sessions.setModel(session.id, { providerID: settings.provider, modelID: next });
  };
  if (!editing)
    return (
      <button type="button" className="link model-name" title="Model of this session: click to switch (the next step uses it)" aria-label={`Model: ${modelID}. Switch model for this session`} onClick={() => { setValue(modelID); setEditing(true); }}>
        {modelID}
      </button>
    );
  return (
    <form className="model-switch" onSubmit={save}>
      <label htmlFor={id} className="visually-hidden">
        Model for this session
      </label>
      <input ref={input} id={id} list={`${id}-list`} value={value} onChange={(e) => setValue(e.target.value)} onKeyDown={(e) => e.key === "Escape" && setEditing(false)} />
      <datalist id={`${id}-list`}>
        {BUILTIN_MODELS.map((m) => (
          <option key={m} value={m} />
        ))}
      </datalist>
      <button type="submit">Use</button>
    </form>
  );
}
