import {
  type FormEvent,
  useEffect,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
} from "react";
import { type ShellEntry, userShell } from "../../../app/user-shell";
import type { MessageWithParts, ToolPart } from "../../../core/schema";
import { emit } from "../../app-events";
import { useServices, useSessionStatus } from "../../hooks/services";
import "./terminal.css";

interface Line {
  key: string;
  who: "model" | "you";
  command: string;
  output: string;
  /** "running…", "exit 0", or why it did not run. */
  status: string;
  failed: boolean;
  start: number;
}

const EXIT = /\n*Exit code: (-?\d+)\s*$/;

function fromTool(p: ToolPart, created: number): Line | undefined {
  const s = p.state;
  const command =
    typeof s.input.command === "string" ? s.input.command : undefined;
  if (p.tool !== "bash" || command === undefined) return undefined;
  const start =
    s.status === "running" || s.status === "completed" || s.status === "error"
      ? s.time.start
      : created;
  const base = { key: p.id, who: "model" as const, command, start };
  switch (s.status) {
    case "pending":
      return { ...base, output: "", status: "waiting…", failed: false };
    case "running":
      return {
        ...base,
        output: typeof s.metadata?.output === "string" ? s.metadata.output : "",
        status: "running…",
        failed: false,
      };
    case "completed": {
      const m = EXIT.exec(s.output);
      const output = m ? s.output.slice(0, m.index) : s.output;
      const code = m ? Number(m[1]) : 0;
      return {
        ...base,
        output: output === "(no output)" ? "" : output,
        status: `exit ${code}`,
        failed: code !== 0,
      };
    }
    case "error":
      return {
        ...base,
        output: typeof s.metadata?.output === "string" ? s.metadata.output : "",
        status: s.error,
        failed: true,
      };
  }
}

function fromEntry(e: ShellEntry): Line {
  const status =
    e.status === "running"
      ? "running…"
      : e.status === "done"
        ? `exit ${e.exitCode ?? 0}`
        : (e.message ?? e.status);
  return {
    key: e.id,
    who: "you",
    command: e.command,
    output: e.output,
    status,
    failed:
      e.status === "refused" || e.status === "error" || (e.exitCode ?? 0) !== 0,
    start: e.start,
  };
}

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
  // While the agent runs, its step owns the sandbox: a command of yours would land in that step's changes
  // (and its undo). It waits until the run ends.
  const agentRunning = useSessionStatus(sessionID).type !== "idle";
  const [command, setCommand] = useState("");
  const logRef = useRef<HTMLDivElement>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const stick = useRef(true);

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
  // (up to 40% of the window) as it fills: while you type here, the command line stays in sight.
  useEffect(() => {
    const el = logRef.current;
    if (grown && el && stick.current) el.scrollTop = el.scrollHeight;
    if (grown && document.activeElement === inputRef.current) formRef.current?.scrollIntoView({ block: "nearest" });
  }, [grown]);
  // Opened by its toggle: the whole pane is brought into sight (it opens at the foot of the side column).
  useEffect(() => {
    if (reveal) formRef.current?.scrollIntoView({ block: "nearest" });
  }, [reveal]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const c = command.trim();
    if (!c || running || agentRunning) return;
    setCommand("");
    stick.current = true;
    void shell.run(sessionID, c).then(() => emit("workspace-changed", { sessionID }));
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
          <div key={l.key} className={`terminal-entry terminal-${l.who}`}>
            <div className="terminal-cmd">
              <span className="terminal-who">
                {l.who === "you" ? "you" : "model"}
              </span>
              <span aria-hidden="true">$ </span>
              <span className="visually-hidden">command: </span>
              {l.command}
            </div>
            {l.output && (
              <pre className="terminal-out">
                {l.output.length > 20_000
                  ? `…${l.output.slice(-20_000)}`
                  : l.output}
              </pre>
            )}
            <div className={`terminal-status${l.failed ? " failed" : ""}`}>
              {l.status}
            </div>
          </div>
        ))}
      </div>
      <form ref={formRef} className="terminal-input" onSubmit={submit}>
        <span aria-hidden="true" className="terminal-prompt">
          $
        </span>
        <input
          ref={inputRef}
          type="text"
          aria-label="Command to run in the sandbox"
          placeholder="Run a command in the sandbox…"
          value={command}
          spellCheck={false}
          autoCapitalize="off"
          autoComplete="off"
          onChange={(e) => setCommand(e.target.value)}
        />
        {running ? (
          <button type="button" onClick={() => shell.stop(sessionID)}>
            Stop
          </button>
        ) : (
          <button type="submit" disabled={!command.trim() || agentRunning} aria-describedby={agentRunning ? "terminal-wait" : undefined}>
            Run
          </button>
        )}
      </form>
      {agentRunning && !running && (
        <p id="terminal-wait" className="hint" role="status">
          The agent is working in this sandbox. Your command can run when its turn ends (or stop the run).
        </p>
      )}
      <div className="terminal-foot">
        <p className="hint">
          Your commands run in this session's sandbox under the same permission
          rules as the model's, and are kept here. The model does not see them.
        </p>
        {entries.length > 0 && !running && (
          <button
            type="button"
            className="link"
            onClick={() => shell.clear(sessionID)}
          >
            Clear your commands
          </button>
        )}
      </div>
    </div>
  );
}
