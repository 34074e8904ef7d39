import { useEffect, useRef } from "react";
import type { MessageWithParts, Session } from "../../core/schema";
import { demoModelConfig, modelConfig } from "../../core/settings";
import { useServices, useSettings } from "../hooks/services";
import { XrayView } from "./xray-view";

/** The Context X-ray of a session, live as it changes. */
export function XrayDialog({ session, messages, onClose }: { session: Session; messages: MessageWithParts[]; onClose: () => void }) {
  const { sessions, counter } = useServices();
  const settings = useSettings();
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = ref.current;
    if (d && !d.open) d.showModal();
  }, []);
  const model = session.demo ? demoModelConfig(settings) : modelConfig(settings);
  const last = sessions.lastRequest(session.id);
  return (
    <dialog ref={ref} className="dialog wide" aria-labelledby="xray-title" onClose={onClose} onCancel={onClose}>
      <h2 id="xray-title">Context X-ray</h2>
      <XrayView
        messages={messages}
        revertMessageID={session.revert?.messageID}
        system={last?.system}
        tools={last?.tools}
        model={model}
        settings={settings}
        encoding={counter.encodingFor(model.modelID)}
        ratio={sessions.calibrationRatio(model.modelID)}
      />
      {!last && <p className="hint">The system prompt and tools are added once this tab has sent a request in this session.</p>}
      <div className="dialog-actions">
        <button type="button" className="primary" onClick={onClose}>
          Close
        </button>
      </div>
    </dialog>
  );
}
