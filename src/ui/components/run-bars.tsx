import { useEffect, useState } from "react";
import { stopShellCommand } from "../../app/shell-runs";
import type { SessionStatus } from "../../core/bus";
import { systemEventKind } from "../../core/conversation/system-event";
import type { MessageWithParts } from "../../core/schema";
import { useServices } from "../hooks/services";
import { focusComposer } from "../return-focus";

/** How long the provider may send nothing during a run before the page says so. */
export const QUIET_NOTICE_MS = 45_000;

/**
 * Whether `key` (undefined: nothing to watch) has stayed the same for `ms`: the bars below speak only about a
 * state that lasts, so a send never flashes one before its run starts and a live stream never shows the other.
 */
function useSettledFor(key: string | undefined, ms: number): boolean {
  const [settled, setSettled] = useState<string>();
  useEffect(() => {
    setSettled(undefined);
    if (key === undefined) return;
    const t = setTimeout(() => setSettled(key), ms);
    return () => clearTimeout(t);
  }, [key, ms]);
  return key !== undefined && settled === key;
}

/**
 * The newest message is the user's and has no answer while nothing runs: a message queued during a run that was
 * then stopped (or a run stopped before it answered). Said, with a way to have it answered, once the session has
 * been idle a moment.
 */
export function UnansweredBar({ sessionID, last, idle, onError }: { sessionID: string; last: MessageWithParts | undefined; idle: boolean; onError: (m: string) => void }) {
  const { sessions } = useServices();
  const waiting = idle && last?.info.role === "user" && systemEventKind(last) === undefined ? last.info.id : undefined;
  const shown = useSettledFor(waiting, 600);
  // The live region is always there, empty until it has something to say (one inserted with its text is not announced).
  return (
    <div role="status" className="live-slot">
      {shown && (
        <div className="banner unanswered">
          <span>Your last message has no answer: the run stopped before it.</span>
          <button type="button" onClick={() => sessions.ensureRunning(sessionID).catch((e: unknown) => onError(`Could not answer it: ${e instanceof Error ? e.message : String(e)}`))}>
            Answer it now
          </button>
        </div>
      )}
    </div>
  );
}

/**
 * A run that has received nothing for a while (no text, no reasoning, no tool call; a running tool is its own
 * business): said, since a stalled stream never ends on its own. The model may still be thinking, so nothing is
 * stopped; Stop is the user's call.
 */
export function QuietBar({ last, waiting }: { last: MessageWithParts | undefined; waiting: boolean }) {
  const toolRunning = last?.parts.some((p) => p.type === "tool" && p.state.status === "running") === true;
  // What has arrived so far: it changes with every delta, every new part, every tool state.
  const activity = last
    ? `${last.info.id}|${last.parts.length}|${last.parts.map((p) => (p.type === "text" || p.type === "reasoning" ? p.text.length : p.type === "tool" ? `${p.state.status}${p.state.status === "pending" ? (p.state.raw?.length ?? 0) : ""}` : 0)).join(",")}`
    : "";
  const quiet = useSettledFor(waiting && !toolRunning ? activity : undefined, QUIET_NOTICE_MS);
  return (
    <div role="status" className="live-slot">
      {quiet && (
        <div className="banner unanswered">
          <span>Nothing has come from the provider for {Math.round(QUIET_NOTICE_MS / 1000)} s. It may still be thinking, or the connection may have stalled: Stop, then Retry, to try again.</span>
        </div>
      )}
    </div>
  );
}

/** A command line as the bar names it: its first line, cut to a length that fits a phone's line or two. */
function commandShown(command: string): string {
  const lines = command.trim().split("\n");
  const first = lines[0] ?? "";
  return first.length > 60 ? `${first.slice(0, 59)}…` : lines.length > 1 ? `${first} …` : first;
}

/**
 * The turn waits for the person's own command in the Terminal to end before its first snapshot (the command's
 * changes are theirs, not the agent's): nothing else moves meanwhile, so the page says what it waits for and
 * offers to stop that command; the composer's Stop ends the turn instead. Gone when the command or the turn ends.
 */
export function CommandWaitBar({ sessionID, status }: { sessionID: string; status: SessionStatus }) {
  const command = status.type === "awaiting-command" ? status.command : undefined;
  // The live region is always there, empty until it has something to say (one inserted with its text is not announced).
  return (
    <div role="status" className="live-slot">
      {command !== undefined && (
        <div className="banner unanswered awaiting-command">
          <span>
            Waiting for your command in the Terminal to end (<code title={command}>{commandShown(command)}</code>) — stop it to go on.
          </span>
          <button
            type="button"
            onClick={() => {
              stopShellCommand(sessionID);
              // The bar goes once the command has stopped: the keyboard goes on in the message box, not on <body>.
              focusComposer();
            }}
          >
            Stop your command
          </button>
        </div>
      )}
    </div>
  );
}
