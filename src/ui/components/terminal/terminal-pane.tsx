import {
  type KeyboardEvent,
  useEffect,
  useId,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
} from "react";
import { type ShellEntry, userShell } from "../../../app/user-shell";
import type { MessageWithParts } from "../../../core/schema";
import { emit } from "../../app-events";
import { useServices, useSessionStatus } from "../../hooks/services";
import { AT_DRAFT, commandHistory, onFirstLine, onLastLine, type Recall, recall } from "./command-history";
import { TerminalEntry } from "./terminal-entry";
import { fromEntry, fromTool, type Line } from "./terminal-lines";
import "./terminal.css";

/**
 * The session's shell, live: every bash command the model ran (streamed
 * output from its tool parts) and the person's own commands (typed below, run
 * under the same permission rules), in order, in one scrollable log.
 */
export function TerminalPane({
  sessionID,
  messages,
  reveal,
}: {
  sessionID: string;
  messages: MessageWithParts[];
  /** Opened by the user just now (not restored open with the page): scrolled into sight. */
  reveal?: boolean;
}) {
  const app = useServices();
  const shell = userShell(app);
  const entries = useSyncExternalStore(shell.subscribe, () =>
    shell.entries(sessionID),
  );
  const running = useSyncExternalStore(shell.subscribe, () =>
    shell.running(sessionID),
  );
  // A command of the session running in another tab (still open): this tab's Run waits for it; Stop reaches it.
  const elsewhere = useSyncExternalStore(shell.subscribe, () =>
    shell.runningElsewhere(sessionID),
  );
  const unsaved = useSyncExternalStore(shell.subscribe, () =>
    shell.unsaved(sessionID),
  );
  const busy = running || elsewhere;
  // While the agent runs, its step owns the sandbox: a command of yours would land in that step's changes
  // (and its undo). It waits until the run ends.
  const agentRunning = useSessionStatus(sessionID).type !== "idle";
  const [command, setCommand] = useState("");
  // What Clear removed, for its Undo (this session's, until the next command).
  const [cleared, setCleared] = useState<{ sessionID: string; entries: ShellEntry[] }>();
  const logRef = useRef<HTMLDivElement>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const stick = useRef(true);
  // The command box stays in sight while a command you ran grows the log (a phone's tap on Run leaves no focus in it).
  const follow = useRef(false);
  const recalled = useRef<Recall>(AT_DRAFT);
  const caretToEnd = useRef(false);
  const keysID = useId();
  const waitID = useId();
  const elsewhereID = useId();
  const history = useMemo(() => commandHistory(entries.map((e) => e.command)), [entries]);

  const lines = useMemo(() => {
    const out: Line[] = [];
    for (const m of messages)
      for (const p of m.parts)
        if (p.type === "tool") {
          const l = fromTool(p, m.info.time.created);
          if (l) out.push(l);
        }
    for (const e of entries) out.push(fromEntry(e));
    return out.sort((a, b) => a.start - b.start);
  }, [messages, entries]);

  const last = lines.at(-1);
  const grown = `${lines.length}|${last?.output.length ?? 0}|${last?.status ?? ""}`;
  // Follows the output while the view is at the bottom; scrolling up stops following. The log grows taller
  // (up to 40% of the window) as it fills: while you type here, or your command runs, the command line stays in sight.
  useEffect(() => {
    const el = logRef.current;
    if (grown && el && stick.current) el.scrollTop = el.scrollHeight;
    if (grown && (follow.current || document.activeElement === inputRef.current)) formRef.current?.scrollIntoView({ block: "nearest" });
  }, [grown]);
  useEffect(() => {
    if (!running) follow.current = false;
  }, [running]);
  // Opened by its toggle: the whole pane is brought into sight (it opens at the foot of the side column).
  useEffect(() => {
    if (reveal) formRef.current?.scrollIntoView({ block: "nearest" });
  }, [reveal]);
  // The box grows with its lines (a pasted script), up to its CSS max-height; a recalled command puts the caret at its end.
  useLayoutEffect(() => {
    const el = inputRef.current;
    if (!el) return;
    el.style.height = "auto";
    el.style.height = `${el.scrollHeight + el.offsetHeight - el.clientHeight}px`;
    if (caretToEnd.current) {
      caretToEnd.current = false;
      el.setSelectionRange(command.length, command.length);
    }
  }, [command]);

  const focusBox = () => inputRef.current?.focus();

  // Run and Stop swap when a command starts or ends, here or in another tab: keyboard focus on Stop would fall to
  // the page (the button becomes Run, disabled while the box is empty), so it stays in the form, in the box. Read
  // before the swap is committed.
  const buttonFocused = useRef(false);
  buttonFocused.current = typeof document !== "undefined" && formRef.current?.contains(document.activeElement) === true && document.activeElement !== inputRef.current;
  const swapped = running ? "stop" : elsewhere ? "stop-elsewhere" : "run";
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the button swaps, reading the focus it had.
  useLayoutEffect(() => {
    const now = document.activeElement;
    if (buttonFocused.current && (now === null || now === document.body || !now.isConnected || (now instanceof HTMLButtonElement && now.disabled))) focusBox();
  }, [swapped]);

  const submit = () => {
    const c = command.trim();
    if (!c || busy || agentRunning) return;
    setCommand("");
    setCleared(undefined);
    recalled.current = AT_DRAFT;
    stick.current = true;
    follow.current = true;
    // Run gives way to Stop: focus that was on it stays in the form, in the box.
    if (formRef.current?.contains(document.activeElement) && document.activeElement !== inputRef.current) focusBox();
    void shell.run(sessionID, c).then(() => emit("workspace-changed", { sessionID }));
  };

  const stop = () => {
    // Another tab's command: that one, as shown (the tab may have started another since).
    shell.stop(sessionID, running ? undefined : entries.find((e) => e.elsewhere)?.id);
    focusBox();
  };

  // Undo, not a question: a clear is easy to take back (the log is still in memory), and a dialog would
  // interrupt every clear for the rare mistake.
  const clear = () => {
    setCleared({ sessionID, entries: shell.clear(sessionID) });
    focusBox();
  };
  const undoClear = () => {
    if (cleared) shell.restore(cleared.sessionID, cleared.entries);
    setCleared(undefined);
    focusBox();
  };
  const clearedHere = cleared?.sessionID === sessionID ? cleared.entries.length : 0;

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.nativeEvent.isComposing) return;
    const t = e.currentTarget;
    const plain = !e.shiftKey && !e.altKey && !e.ctrlKey && !e.metaKey;
    if (e.key === "Enter" && !e.shiftKey) {
      e.preventDefault();
      submit();
    } else if (e.key.toLowerCase() === "c" && e.ctrlKey && !e.metaKey && !e.altKey && !e.shiftKey) {
      // As in a terminal: Ctrl+C stops the running command; with text selected it copies, as anywhere.
      if (busy && t.selectionStart === t.selectionEnd) {
        e.preventDefault();
        stop();
      }
    } else if ((e.key === "ArrowUp" || e.key === "ArrowDown") && plain) {
      const up = e.key === "ArrowUp";
      if (!(up ? onFirstLine : onLastLine)(t.value, t.selectionStart, t.selectionEnd)) return;
      const next = recall(history, recalled.current, t.value, up ? "older" : "newer");
      if (!next) return;
      e.preventDefault();
      recalled.current = next.state;
      caretToEnd.current = true;
      setCommand(next.value);
    }
  };

  return (
    <div className="terminal">
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling log must be reachable by keyboard to scroll it */}
      <div tabIndex={0} ref={logRef} className="terminal-log" role="log" aria-label="Terminal output" onScroll={(e) => (stick.current = e.currentTarget.scrollHeight - e.currentTarget.scrollTop - e.currentTarget.clientHeight < 24)}>
        {lines.length === 0 && (
          <p className="terminal-empty">
            No commands yet. The model's shell commands appear here as they run.
          </p>
        )}
        {lines.map((l) => (
          <TerminalEntry key={l.key} line={l} sessionID={sessionID} full={l.who === "you" ? shell.fullOutput(l.key) : undefined} />
        ))}
      </div>
      <form
        ref={formRef}
        className="terminal-input"
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <span aria-hidden="true" className="terminal-prompt">
          $
        </span>
        <textarea
          ref={inputRef}
          rows={1}
          aria-label="Command to run in the sandbox"
          aria-describedby={elsewhere ? `${keysID} ${elsewhereID}` : agentRunning && !running ? `${keysID} ${waitID}` : keysID}
          placeholder="Run a command…"
          value={command}
          spellCheck={false}
          autoCapitalize="off"
          autoComplete="off"
          autoCorrect="off"
          enterKeyHint="go"
          onChange={(e) => {
            setCommand(e.target.value);
          }}
          onKeyDown={onKeyDown}
        />
        {running ? (
          <button type="button" onClick={stop}>
            Stop
          </button>
        ) : elsewhere ? (
          <button type="button" onClick={stop} aria-label="Stop the command running in another tab">
            Stop
          </button>
        ) : (
          <button type="submit" disabled={!command.trim() || agentRunning} aria-describedby={agentRunning ? waitID : undefined}>
            Run
          </button>
        )}
      </form>
      <p id={keysID} className="hint terminal-keys">
        Enter runs, Shift+Enter adds a line, ↑ and ↓ recall your earlier commands, Ctrl+C stops a running one.
      </p>
      {agentRunning && !busy && (
        <p id={waitID} className="hint" role="status">
          The agent is working in this sandbox. Your command can run when its turn ends (or stop the run).
        </p>
      )}
      <p id={elsewhereID} className="hint terminal-note" role="status">
        {elsewhere ? "A command of yours is running in this session in another tab. Yours can run here when it ends (or stop it)." : ""}
      </p>
      {unsaved && (
        <p className="hint terminal-note terminal-unsaved" role="alert">
          Browser storage for this site is full: your latest commands here are not saved and will be gone after a reload.
        </p>
      )}
      <div className="terminal-foot">
        <p className="hint">
          Your commands run in this session's sandbox under the same permission
          rules as the model's, and are kept here. The model does not see them.
        </p>
        {entries.length > 0 && !busy && (
          <button type="button" className="link" onClick={clear}>
            Clear your commands
          </button>
        )}
        <span className="terminal-cleared">
          <span role="status">{clearedHere > 0 ? `Cleared ${clearedHere === 1 ? "1 command" : `${clearedHere} commands`}.` : ""}</span>
          {clearedHere > 0 && (
            <button type="button" className="link" aria-label="Undo clearing your commands" onClick={undoClear}>
              Undo
            </button>
          )}
        </span>
      </div>
    </div>
  );
}
