import { useState } from "react";
import { applyCacheMarkers } from "../../core/compaction/cache-markers";
import { conversationView } from "../../core/conversation/view";
import { withAfterSummary } from "../../core/compaction/after-summary";
import { toModelMessages } from "../../core/conversation/to-model";
import { modelMessageOptions } from "../../core/model-media";
import type { MessageWithParts, Session } from "../../core/schema";
import { sessionModelConfig } from "../../core/settings";
import { useServices, useSettings } from "../hooks/services";
import { XrayView } from "./xray-view";
import { useModal } from "../hooks/use-modal";
import { useNextRequestSize } from "../hooks/use-request-size";

/** The Context X-ray of a session, live as it changes. */
export function XrayDialog({ session, messages, onClose }: { session: Session; /** Every message of the session. */ messages: MessageWithParts[]; onClose: () => void }) {
  const { sessions, counter } = useServices();
  const settings = useSettings();
  const ref = useModal();
  const view = conversationView(session, messages);
  const model = sessionModelConfig(settings, session);
  const last = sessions.lastRequest(session.id);
  // The same shape and counts as the header's meter (after a reload: built as the loop would).
  const { shape, afterSummary } = useNextRequestSize(session, view.sent, view.shown);
  const [copied, setCopied] = useState<{ ok: boolean; json: string }>();
  /** The next request as tabcode hands it to the provider adapter (never includes the API key). */
  const copy = async () => {
    const history = view.sent;
    const system = shape?.system ?? [];
    // After a summary the request also carries the user's earlier words and anything re-added (core/pins/after-compaction).
    const messages = applyCacheMarkers(withAfterSummary(toModelMessages(history, modelMessageOptions(model)), afterSummary));
    const body = { model: model.modelID, provider: model.provider, system, messages, tools: shape?.tools ?? [], maxOutputTokens: Math.min(model.maxOutputTokens, 32_000) };
    const json = JSON.stringify(body, null, 2);
    try {
      await navigator.clipboard.writeText(json);
      setCopied({ ok: true, json });
    } catch {
      setCopied({ ok: false, json });
    }
  };
  return (
    <dialog ref={ref} className="dialog wide" aria-labelledby="xray-title" onClose={onClose} onCancel={onClose}>
      <h2 id="xray-title">Context X-ray</h2>
      <XrayView
        showCache
        prices={model.prices}
        view={view}
        system={shape?.system}
        tools={shape?.tools}
        memo={sessions.countMemo}
        model={model}
        settings={settings}
        encoding={counter.encodingFor(model.modelID)}
        ratio={sessions.calibrationRatio(model.modelID)}
        afterSummary={afterSummary}
      />
      {/* About the request already sent, not the next one above. */}
      {last && <p className="hint">Before it went out, the last request this tab sent in this session was {last.count === "exact" ? "counted by the tokenizer" : "sized by an estimate (the tokenizer was not ready yet; far from the window that is enough)"}.</p>}
      {!shape && <p className="hint">Building the system prompt and tools of the next request…</p>}
      {copied && (
        <p role="status" className="hint">
          {copied.ok ? "Copied the request as JSON." : "The clipboard is not available here; the request is below."}
        </p>
      )}
      {copied && !copied.ok && <pre className="copy-json">{copied.json}</pre>}
      <div className="dialog-actions">
        <button type="button" onClick={() => void copy()}>
          Copy request
        </button>
        <button type="button" className="primary" onClick={onClose}>
          Close
        </button>
      </div>
    </dialog>
  );
}
