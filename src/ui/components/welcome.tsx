import { useSettings } from "../hooks/services";

interface Props {
  onNew: () => void;
  onSettings: () => void;
  onDemo: () => void;
  onPythonDemo: () => void;
  samples?: React.ReactNode;
}

/** The empty state: what tabcode is, and three ways to start. */
export function Welcome({ onNew, onSettings, onDemo, onPythonDemo, samples }: Props) {
  const settings = useSettings();
  const demo = settings.provider === "demo";
  return (
    <div className="welcome">
      <h1>A coding agent in your browser tab</h1>
      <p className="lead">
        tabcode talks to the model straight from this page with your own key, runs tools in a sandbox inside the tab, and keeps every session in this browser — nothing to install, nothing on a server.
      </p>
      <div className="welcome-actions">
        <button type="button" className="primary big" onClick={onDemo}>
          Start the demo
        </button>
        <button type="button" className="big" onClick={onPythonDemo}>
          Start the Python demo
        </button>
        <button type="button" className="big" onClick={onNew}>
          New session
        </button>
        <button type="button" className="big" onClick={onSettings}>
          {demo ? "Connect a real model" : "Change model"}
        </button>
      </div>
      <ul className="welcome-points">
        <li>
          <strong>The demo needs no key and no network.</strong> A scripted agent fixes a bug in a small sample project while a short tour points at what happens: streamed parts, tool calls, the todo list, tokens and cost, the context meter and a compaction.
        </li>
        <li>
          <strong>Real code runs in the tab.</strong> The Python demo writes a module and its unittest, runs them with Python (compiled to WebAssembly, no server), fixes the failure and commits with git.
        </li>
        <li>
          <strong>Your key stays here.</strong> It is stored in this browser and sent only to the provider you choose — OpenAI, Anthropic, Google Gemini, DeepSeek, Mistral, Groq, xAI, OpenRouter, or any OpenAI-compatible server such as Ollama or LM Studio.
        </li>
        <li>
          <strong>Every step is visible, and replayable.</strong> Open any session (or an imported file) in Replay to step through it with the Context X-ray.
        </li>
      </ul>
      {samples}
    </div>
  );
}
