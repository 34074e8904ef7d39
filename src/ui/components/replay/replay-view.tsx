import { useEffect, useId, useMemo, useRef, useState } from "react";
import type { AssistantMessage, MessageWithParts, Session } from "../../../core/schema";
import { conversationView } from "../../../core/conversation/view";
import { answeredModelConfig, sessionModelConfig } from "../../../core/settings";
import { reportedInputTokens } from "../../../core/tokens/calibration";
import { formatTokens } from "../../format";
import { useDetached } from "../../hooks/detached";
import { useServices, useSettings } from "../../hooks/services";
import { useNextRequestSize } from "../../hooks/use-request-size";
import { MessageList } from "../message-list";
import { XrayView } from "../xray-view";
import { revealed, seenByModel, timeline } from "./timeline";

const SPEEDS = [0.5, 1, 2, 4];

/** The answer a message belongs to or was answered by: the assistant message at `i`, else the next one, else the last before. */
function answerOf(messages: MessageWithParts[], i: number): AssistantMessage | undefined {
  const at = (j: number) => {
    const info = messages[j]?.info;
    return info?.role === "assistant" ? info : undefined;
  };
  for (let j = i; j < messages.length; j++) if (at(j)) return at(j);
  for (let j = i - 1; j >= 0; j--) if (at(j)) return at(j);
  return undefined;
}
const BASE_MS = 900;

/**
 * A step control that stays focusable where it cannot act (aria-disabled and the reason as its
 * description): a focused Next step at the last step keeps the focus instead of dropping it to <body>.
 */
function StepButton({ label, before, after, unavailable, onClick }: { label: string; before?: string; after?: string; unavailable?: string; onClick: () => void }) {
  const reason = useId();
  return (
    <>
      <button
        type="button"
        className={unavailable ? "looks-disabled" : undefined}
        aria-disabled={unavailable ? true : undefined}
        aria-describedby={unavailable ? reason : undefined}
        onClick={() => unavailable === undefined && onClick()}
      >
        {before && <span aria-hidden="true">{before}</span>}
        {label}
        {after && <span aria-hidden="true">{after}</span>}
      </button>
      {unavailable && (
        <span id={reason} hidden>
          {unavailable}
        </span>
      )}
    </>
  );
}

/**
 * Step-by-step replay of a session (stored, imported or shared): parts appear
 * in order under play/pause/step controls, and the Context X-ray shows what
 * the model had been sent at each step. Nothing is written.
 */
export function ReplayView({ session, messages: all, onExit }: { session: Session; messages: MessageWithParts[]; onExit: () => void }) {
  const { counter, sessions } = useServices();
  const detached = useDetached() !== null;
  const settings = useSettings();
  const whole = useMemo(() => conversationView(session, all), [all, session]);
  const messages = whole.shown;
  // The system prompt and tools are part of what every step was sent; the end of the replay is the header's next request.
  const { size: next, shape } = useNextRequestSize(session, whole.sent, whole.shown);
  const frames = useMemo(() => timeline(messages), [messages]);
  const [count, setCount] = useState(1);
  const [playing, setPlaying] = useState(false);
  const [speed, setSpeed] = useState(1);
  // Entering Replay puts focus on Play (it was left on <body>): Space or Enter starts it.
  const play = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    play.current?.focus({ preventScroll: true });
  }, []);

  useEffect(() => {
    if (!playing) return;
    if (count >= frames.length) {
      setPlaying(false);
      return;
    }
    const t = setTimeout(() => setCount((c) => Math.min(frames.length, c + 1)), BASE_MS / speed);
    return () => clearTimeout(t);
  }, [playing, count, frames.length, speed]);

  const atEnd = count >= frames.length;
  // At the end, Play replays from the start (it used to do nothing there).
  const playOrPause = () => {
    if (playing) setPlaying(false);
    else {
      if (atEnd) setCount(1);
      setPlaying(true);
    }
  };
  const toggle = useRef(playOrPause);
  toggle.current = playOrPause;

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.altKey || e.ctrlKey || e.metaKey) return;
      const target = e.target instanceof HTMLElement ? e.target : null;
      if (target?.closest("input, textarea, select, [contenteditable]")) return;
      if (e.key === "ArrowRight") setCount((c) => Math.min(frames.length, c + 1));
      if (e.key === "ArrowLeft") setCount((c) => Math.max(1, c - 1));
      // Space on a focused control activates that control only (Next step steps, a tool card opens); elsewhere it plays or pauses.
      if (e.key === " " && !target?.closest("button, a[href], summary, [role=button], [role=menuitem], [role=tab], [role=checkbox], [role=switch]")) {
        e.preventDefault();
        toggle.current();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [frames.length]);

  const shown = revealed(messages, frames, count);
  const seen = seenByModel(messages, frames, count);
  const current = frames[count - 1];
  const currentInfo = current ? messages[current.message]?.info : undefined;
  // A past step was sent to the model that answered it, not to the one Settings has now.
  const answer = current ? answerOf(messages, current.message) : undefined;
  const model = answer && !session.demo ? answeredModelConfig(settings, answer) : sessionModelConfig(settings, session);
  const billed = currentInfo?.role === "assistant" && currentInfo.finish ? reportedInputTokens(currentInfo.tokens) : 0;

  return (
    <div className="session-view replay">
      <header className="session-header">
        <div className="title-row">
          <h1 className="session-title">Replay: {session.title}</h1>
          <div className="header-actions">
            <button type="button" onClick={onExit}>
              Exit replay
            </button>
          </div>
        </div>
        <div className="replay-controls" role="toolbar" aria-label="Replay controls">
          <StepButton label="Restart" unavailable={count <= 1 ? "At the first step" : undefined} onClick={() => setCount(1)} />
          <StepButton label="Previous step" before="◂ " unavailable={count <= 1 ? "At the first step" : undefined} onClick={() => setCount((c) => Math.max(1, c - 1))} />
          <button ref={play} type="button" className="primary" onClick={playOrPause} disabled={frames.length === 0}>
            {playing ? "Pause" : atEnd && frames.length > 1 ? "Replay from the start" : "Play"}
          </button>
          <StepButton label="Next step" after=" ▸" unavailable={atEnd ? "At the last step" : undefined} onClick={() => setCount((c) => Math.min(frames.length, c + 1))} />
          <label>
            Speed{" "}
            <select aria-label="Speed" value={speed} onChange={(e) => setSpeed(Number(e.target.value))}>
              {SPEEDS.map((s) => (
                <option key={s} value={s}>
                  {s}×
                </option>
              ))}
            </select>
          </label>
          <input type="range" aria-label="Replay position" min={1} max={Math.max(1, frames.length)} value={count} onChange={(e) => setCount(Number(e.target.value))} />
          <span role="status" aria-live="polite">
            Step {Math.min(count, frames.length)} of {frames.length}
            {currentInfo ? ` · ${currentInfo.role === "user" ? "user message" : currentInfo.summary ? "summary" : "assistant"}` : ""}
          </span>
        </div>
      </header>
      <div className="session-body">
        <MessageList messages={shown} />
        <aside className="side-column replay-xray" aria-label="What the model saw">
          <h2>What the model saw for this step</h2>
          <XrayView
            past
            view={conversationView(undefined, seen)}
            system={shape?.system}
            tools={shape?.tools}
            memo={sessions.countMemo}
            model={model}
            settings={settings}
            encoding={counter.encodingFor(model.modelID)}
            ratio={sessions.calibrationRatio(model.modelID)}
          />
          {billed > 0 && <p className="hint">The provider billed {formatTokens(billed)} input tokens for this step.</p>}
          {/* A shared link is read, not continued: there is no next request to size. */}
          {!detached && (
            <p className="hint">
              After the last step, the next request is ≈ <strong data-testid="replay-next-total" data-tokens={next.total}>{formatTokens(next.total)}</strong> tokens ({Math.round(next.fraction * 100)}% of usable), as the header and the X-ray count it.
            </p>
          )}
        </aside>
      </div>
    </div>
  );
}
