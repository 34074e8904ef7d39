import { type FormEvent, type KeyboardEvent, useEffect, useRef, useState } from "react";
import { drafts, useAppEvent } from "../app-events";
import { PALETTE_ID, optionID, SlashPalette } from "../composer/slash-palette";
import { parseSlash, type SlashCommand, slashMatches } from "../composer/slash";
import { useRunningElsewhere } from "../composer/use-running-elsewhere";
import { type Agent, useSlashRunner } from "../composer/use-slash";
import { useServices, useSessionStatus } from "../hooks/services";

const AGENT_NAME: Record<Agent, string> = { build: "Build", plan: "Plan (read-only)" };

interface Props {
  sessionID: string;
  initialAgent?: string;
  onError: (message: string) => void;
  onOpenSession: (id: string) => void;
}

/**
 * The prompt box. Enter sends, Shift+Enter adds a line, Esc stops a run, Tab moves focus as everywhere.
 * Ctrl/⌘+. or /agent switches the agent (announced). A leading / opens the command palette.
 * A prompt sent during a run is queued.
 */
export function Composer({ sessionID, initialAgent, onError, onOpenSession }: Props) {
  const { sessions } = useServices();
  const status = useSessionStatus(sessionID);
  const busy = status.type !== "idle";
  const [text, setText] = useState(() => drafts.take(sessionID));
  const [queued, setQueued] = useState(0);
  // The session's last agent: a plan session stays read-only when you come back to it.
  const [agent, setAgent] = useState<Agent>(initialAgent === "plan" ? "plan" : "build");
  const [announce, setAnnounce] = useState("");
  const [active, setActive] = useState(0);
  const [paletteClosed, setPaletteClosed] = useState(false);
  const elsewhere = useRunningElsewhere(sessionID, busy);
  const box = useRef<HTMLTextAreaElement>(null);

  const switchAgent = (to?: Agent) => {
    const next = to ?? (agent === "build" ? "plan" : "build");
    setAgent(next);
    setAnnounce(`Agent: ${AGENT_NAME[next]}`);
  };
  useAppEvent("switch-agent", (d) => switchAgent(d?.agent));
  const runSlash = useSlashRunner(sessionID, switchAgent, onError, onOpenSession);

  const matches = paletteClosed ? [] : slashMatches(text);
  const current = matches[Math.min(active, matches.length - 1)];

  useEffect(() => {
    if (!busy) setQueued(0);
  }, [busy]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: focus the box when the session changes
  useEffect(() => {
    box.current?.focus();
  }, [sessionID]);

  useEffect(() => {
    const onKey = (e: globalThis.KeyboardEvent) => {
      // Esc in an open dialog, menu or drawer closes that, it does not stop the run.
      const inOverlay = document.querySelector("dialog[open]") !== null || (e.target instanceof Element && e.target.closest('[role="menu"], .menu') !== null);
      // Esc in another field (search, rename) belongs to that field.
      const inOtherField = e.target instanceof Element && e.target !== box.current && e.target.closest("input, textarea, select") !== null;
      if (inOtherField) return;
      if (e.key === "Escape" && !e.shiftKey && !e.defaultPrevented && !inOverlay && sessions.isBusy(sessionID)) {
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
    const slash = parseSlash(value);
    if (slash) {
      if (!slash.ok) {
        onError(slash.error);
        return;
      }
      setText("");
      await runSlash(slash.name, slash.arg);
      return;
    }
    if (busy) setQueued((q) => q + 1);
    setText("");
    try {
      await sessions.prompt(sessionID, { text: value, agent });
    } catch (e) {
      setText(value);
      onError(e instanceof Error ? e.message : String(e));
    }
  };

  const pick = (c: SlashCommand) => {
    if (c.arg) {
      setText(`/${c.name} `);
      box.current?.focus();
      return;
    }
    setText("");
    void runSlash(c.name, "");
  };

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    void send();
  };
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (matches.length > 0 && (e.key === "ArrowDown" || e.key === "ArrowUp")) {
      e.preventDefault();
      setActive((a) => (a + (e.key === "ArrowDown" ? 1 : matches.length - 1)) % matches.length);
      return;
    }
    if (matches.length > 0 && e.key === "Escape") {
      e.preventDefault();
      setPaletteClosed(true);
      return;
    }
    if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      if (current) pick(current);
      else void send();
    }
  };

  return (
    <form className="composer" onSubmit={onSubmit}>
      {matches.length > 0 && <SlashPalette items={matches} active={Math.min(active, matches.length - 1)} onPick={pick} />}
      <label htmlFor="composer-input" className="visually-hidden">
        Message
      </label>
      <textarea
        id="composer-input"
        ref={box}
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          setActive(0);
          setPaletteClosed(false);
        }}
        onKeyDown={onKeyDown}
        readOnly={elsewhere}
        aria-controls={matches.length > 0 ? PALETTE_ID : undefined}
        aria-activedescendant={current ? optionID(current.name) : undefined}
        aria-describedby="composer-hint"
        placeholder={
          elsewhere
            ? "This session is running in another tab — you can watch it here; it is read-only until that run ends"
            : busy
              ? "The agent is working — a message sent now is delivered after this step"
              : "Ask tabcode to do something…  (Enter to send, Shift+Enter for a new line, / for commands)"
        }
        rows={3}
      />
      <span id="composer-hint" className="visually-hidden">
        Type / for commands. Ctrl or Command plus period switches the agent. Press question mark outside the box for all shortcuts.
      </span>
      <span className="visually-hidden" role="status" aria-live="polite">
        {announce}
      </span>
      <div className="composer-actions">
        <label className="agent-select" title="Build may change files; Plan is read-only. Ctrl/⌘+. or /agent switches.">
          <span className="visually-hidden">Agent</span>
          <select aria-label="Agent" aria-keyshortcuts="Control+Period Meta+Period" value={agent} onChange={(e) => switchAgent(e.target.value === "plan" ? "plan" : "build")}>
            <option value="build">Build</option>
            <option value="plan">Plan (read-only)</option>
          </select>
        </label>
        <span className="shortcut-hint" aria-hidden="true">
          <kbd>Ctrl/⌘ .</kbd>
        </span>
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
