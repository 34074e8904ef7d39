import { useEffect, useState } from "react";
import type { LLMToolSpec } from "../../core/ports/llm";
import type { Session } from "../../core/schema";
import { demoModelConfig, modelConfig } from "../../core/settings";
import { useServices } from "../hooks/services";
import { useModal } from "../hooks/use-modal";

/** Debug view: the exact system prompt and tool schemas the model gets for this session. */
export function DebugDialog({ session, onClose }: { session: Session; onClose: () => void }) {
  const app = useServices();
  const ref = useModal();
  const [view, setView] = useState<{ system: string[]; tools: LLMToolSpec[]; source: string }>();

  useEffect(() => {
    const last = app.sessions.lastRequest(session.id);
    if (last) {
      setView({ system: last.system, tools: last.tools, source: `as sent at ${new Date(last.time).toLocaleTimeString()}` });
      return;
    }
    const agent = app.sessions.agentOf(session.id) ?? session.agent ?? "build";
    void (async () => {
      const sandbox = await app.sandbox.sandboxFor(session.id).catch(() => undefined);
      const system = await app.wiring.system({ session, model: session.demo ? demoModelConfig(app.settings.get()) : modelConfig(app.settings.get()), sandbox, agent, toolState: new Map() });
      const tools = (await app.wiring.tools(agent, session)).map((t) => t.spec());
      setView({ system, tools, source: "for the next request" });
    })();
  }, [app, session]);

  return (
    <dialog ref={ref} className="dialog wide" aria-labelledby="debug-title" onClose={onClose} onCancel={onClose}>
      <h2 id="debug-title">Debug: what the model sees</h2>
      {!view ? (
        <p>Assembling…</p>
      ) : (
        <>
          <p className="hint">System prompt and tools {view.source}. The system prompt stays byte-identical for the whole session, so providers can cache it.</p>
          <section aria-label="System prompt">
            {view.system.map((s, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: system messages are positional
              <details key={i} open>
                <summary>{i === 0 ? "System message 1 — stable header" : `System message ${i + 1} — environment, instructions, skills`}</summary>
                <pre className="debug-pre">{s}</pre>
              </details>
            ))}
          </section>
          <section aria-label="Tools">
            <h3>Tools ({view.tools.length})</h3>
            {view.tools.map((t) => (
              <details key={t.name}>
                <summary>{t.name}</summary>
                <pre className="debug-pre">{`${t.description}\n\n${JSON.stringify(t.inputSchema, null, 2)}`}</pre>
              </details>
            ))}
          </section>
        </>
      )}
      <div className="dialog-actions">
        <button type="button" className="primary" onClick={onClose}>
          Close
        </button>
      </div>
    </dialog>
  );
}
