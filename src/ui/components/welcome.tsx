import { useSettings } from "../hooks/services";

/** The empty state: what tabcode is and how to start. */
export function Welcome({ onNew, onSettings }: { onNew: () => void; onSettings: () => void }) {
  const settings = useSettings();
  const demo = settings.provider === "demo";
  return (
    <div className="welcome">
      <h1>A coding agent in your browser tab</h1>
      <p className="lead">
        tabcode talks to the model straight from this page with your own key, runs tools in a sandbox inside the tab, and keeps every session in this browser — nothing to install, nothing on a server.
      </p>
      <div className="welcome-actions">
        <button type="button" className="primary big" onClick={onNew}>
          {demo ? "Start a session with the demo model" : "New session"}
        </button>
        <button type="button" className="big" onClick={onSettings}>
          {demo ? "Connect a real model" : "Change model"}
        </button>
      </div>
      <ul className="welcome-points">
        <li>
          <strong>No key yet?</strong> The built-in demo model answers with no network, so you can watch streaming, tool calls and usage right away.
        </li>
        <li>
          <strong>Your key stays here.</strong> It is stored in this browser and sent only to the provider you choose — OpenAI, or any OpenAI-compatible server such as Ollama or LM Studio.
        </li>
        <li>
          <strong>Every step is visible.</strong> Text, reasoning, tool calls and their results, tokens, context fill and cost.
        </li>
      </ul>
    </div>
  );
}
