import { useRef, useState } from "react";
import type { Session } from "../../core/schema";
import { sessionModelConfig } from "../../core/settings";
import { emit, useAppEvent } from "../app-events";
import { useServices, useSettings } from "../hooks/services";
import { onDemand } from "../on-demand";

const ModelMenu = onDemand<import("react").ComponentProps<typeof import("./model-menu").ModelMenu>>("The model list", () => import("./model-menu"), "ModelMenu", () => null);

/**
 * The session's model, in the composer (the one place to switch it): a button showing the
 * model, opening a combobox of the provider's models (any id can be typed). The choice is
 * stored on the session (`session.model`), which the loop reads for the next step.
 */
export function ModelPicker({ session }: { session: Session }) {
  const { sessions } = useServices();
  const settings = useSettings();
  const model = sessionModelConfig(settings, session);
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  useAppEvent("pick-model", () => (model.provider === "demo" ? emit("open-settings") : setOpen(true)));

  if (model.provider === "demo")
    return (
      <span className="model-chip" title="Demo sessions always use the offline demo model">
        Demo model
      </span>
    );

  const close = (refocus: boolean) => {
    setOpen(false);
    if (refocus) button.current?.focus();
  };
  const pick = (id: string) => {
    const next = id.trim();
    close(true);
    if (!next || next === model.modelID) return;
    void sessions.setModel(session.id, { providerID: settings.provider, modelID: next });
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
        onMouseEnter={() => void ModelMenu.preload().catch(() => undefined)}
        onFocus={() => void ModelMenu.preload().catch(() => undefined)}
        onClick={() => (open ? close(true) : setOpen(true))}
      >
        {model.modelID} ▾
      </button>
      {open && <ModelMenu provider={settings.provider} current={model.modelID} onPick={pick} onClose={close} />}
    </div>
  );
}
