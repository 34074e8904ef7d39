import { type FormEvent, type KeyboardEvent, useEffect, useRef, useState } from "react";
import { useServices, useSessionStatus } from "../hooks/services";

/** Polls whether another tab runs this session (Web Locks); the composer is read-only meanwhile. */
function useRunningElsewhere(sessionID: string, busyHere: boolean): boolean {
  const { sessions } = useServices();
  const [elsewhere, setElsewhere] = useState(false);
  useEffect(() => {
    if (busyHere) {
      setElsewhere(false);
      return;
    }
    let live = true;
    const check = () => sessions.runningElsewhere(sessionID).then((v) => live && setElsewhere(v), () => undefined);
    void check();
    const t = setInterval(check, 1000);
    return () => {
      live = false;
      clearInterval(t);
    };
  }, [sessions, sessionID, busyHere]);
  return elsewhere;
}

/** The prompt box. Enter sends, Shift+Enter adds a line, Esc stops a run. A prompt sent during a run is queued. */
export function Composer({ sessionID, initialAgent, onError }: { sessionID: string; initialAgent?: string; onError: (message: string) => void }) {
  const { sessions } = useServices();
  const status = useSessionStatus(sessionID);
  const busy = status.type !== "idle";
  const [text, setText] = useState("");
  const [queued, setQueued] = useState(0);
  // The session's last agent: a plan session stays read-only when you come back to it.
  const [agent, setAgent] = useState<"build" | "plan">(initialAgent === "plan" ? "plan" : "build");
  const elsewhere = useRunningElsewhere(sessionID, busy);
  const box = useRef<HTMLTextAreaElement>(null);

  useEffect(() => {
    if (!busy) setQueued(0);
  }, [busy]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: focus the box when the session changes
  useEffect(() => {
    box.current?.focus();
  }, [sessionID]);

  useEffect(() => {
    const onKey = (e: globalThis.KeyboardEvent) => {
      // Esc in an open dialog or menu closes that, it does not stop the run.
      const inOverlay = document.querySelector("dialog[open]") !== null || (e.target instanceof Element && e.target.closest('[role="menu"], .menu') !== null);
      // Esc in another field (search, rename) belongs to that field.
      const inOtherField = e.target instanceof Element && e.target !== box.current && e.target.closest("input, textarea, select") !== null;
      if (inOtherField) return;
      if (e.key === "Escape" && !e.defaultPrevented && !inOverlay && sessions.isBusy(sessionID)) {
        e.preventDefault();
        sessions.abort(sessionID);
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [sessions, sessionID]);

  const send = async () => {
    const value = text.trim();
    if (!value || elsewhere) return;
    if (busy) setQueued((q) => q + 1);
    setText("");
    try {
      await sessions.prompt(sessionID, { text: value, agent });
    } catch (e) {
      setText(value);
      onError(e instanceof Error ? e.message : String(e));
    }
  };

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    void send();
  };
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    // Tab on an empty box switches the agent (as in OpenCode); with text in it, Tab moves focus as usual.
    if (e.key === "Tab" && !e.shiftKey && !e.ctrlKey && !e.altKey && !e.metaKey && text === "") {
      e.preventDefault();
      setAgent((a) => (a === "build" ? "plan" : "build"));
      return;
    }
    if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      void send();
    }
  };

  return (
    <form className="composer" onSubmit={onSubmit}>
      <label htmlFor="composer-input" className="visually-hidden">
        Message
      </label>
      <textarea
        id="composer-input"
        ref={box}
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={onKeyDown}
        readOnly={elsewhere}
        placeholder={
          elsewhere
            ? "This session is running in another tab — you can watch it here; it is read-only until that run ends"
            : busy
              ? "The agent is working — a message sent now is delivered after this step"
              : "Ask tabcode to do something…  (Enter to send, Shift+Enter for a new line)"
        }
        rows={3}
      />
      <div className="composer-actions">
        <label className="agent-select" title="Build may change files; Plan is read-only. Tab on an empty box switches.">
          <span className="visually-hidden">Agent</span>
          <select aria-label="Agent" value={agent} onChange={(e) => setAgent(e.target.value === "plan" ? "plan" : "build")}>
            <option value="build">Build</option>
            <option value="plan">Plan (read-only)</option>
          </select>
        </label>
        {queued > 0 && <span className="queued">{queued} queued</span>}
        {busy && (
          <button type="button" className="stop" onClick={() => sessions.abort(sessionID)} title="Stop (Esc)">
            Stop
          </button>
        )}
        {elsewhere && (
          <span className="queued" role="status">
            Running in another tab
          </span>
        )}
        <button type="submit" className="primary" disabled={!text.trim() || elsewhere}>
          Send
        </button>
      </div>
    </form>
  );
}
