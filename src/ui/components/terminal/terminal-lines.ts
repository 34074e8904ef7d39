/**
 * The terminal log's lines: the model's bash calls (from their tool parts) and the person's commands (the
 * shell's log), each as a person reads it: the command's own output (a long one as its start and end), and a
 * status in words ("stopped" is no failure; no notes written for the model, no exit code of a killed command).
 */
import { toolMeaning } from "../../../core/conversation/tool-meaning";
import { toolOutcome } from "../../../core/conversation/tool-outcome";
import type { ShellEntry } from "../../../app/user-shell";
import { cutForScreen, omittedWords, SHOWN, TAIL_ONLY } from "../../../app/terminal-output";
import type { ToolPart } from "../../../core/schema";
import { withoutAbortLine } from "../../../core/session/user-command";
import { savedOutputPath, shownOutput } from "../parts/tool-part";

export interface Line {
  key: string;
  who: "model" | "you";
  command: string;
  /** The output, or (with `head`) its last lines. */
  output: string;
  head?: string;
  omitted?: { lines: number; chars: number; trimmed?: boolean };
  /** "running…", "exit 0", "stopped", or why it did not run. */
  status: string;
  failed: boolean;
  start: number;
  /** Where the bash tool saved a model command's whole output (it cut it for the model). */
  savedPath?: string;
}

const EXIT = /\n*Exit code: (-?\d+)\s*$/;

/** A model command's output: its tail, kept beside the part (`metadata.output`), else the result without its notes. */
function modelOutput(s: Extract<ToolPart["state"], { status: "completed" }>, aborted: boolean): Pick<Line, "output" | "head" | "omitted"> {
  const kept = typeof s.metadata?.output === "string" ? s.metadata.output : undefined;
  let text = kept ?? shownOutput(s.output.replace(EXIT, ""));
  if (text === "(no output)") text = "";
  text = text.replace(/\n+$/, "");
  if (aborted) text = withoutAbortLine(text);
  // The kept text is the end of a longer output when it starts with the bash tool's "…".
  const cut = cutForScreen(text, kept?.startsWith("…") ? TAIL_ONLY : SHOWN);
  return { output: cut.tail, head: cut.head, omitted: cut.omitted };
}

const lines = new WeakMap<object, Line>();

export function fromTool(p: ToolPart, created: number): Line | undefined {
  const s = p.state;
  // Any agent's shell call (an imported Codex `shell` argv, a Claude Code `Bash`), read as the tool log reads it.
  const command = toolMeaning(p.tool, s.input).command;
  if (command === undefined) return undefined;
  // A state is replaced, never changed in place: its line is made once.
  const known = lines.get(s);
  if (known) return known;
  const start = s.status === "running" || s.status === "completed" || s.status === "error" ? s.time.start : created;
  const base = { key: p.id, who: "model" as const, command, start };
  let line: Line;
  switch (s.status) {
    case "pending":
      line = { ...base, output: "", status: "waiting…", failed: false };
      break;
    case "running": {
      const cut = cutForScreen(typeof s.metadata?.output === "string" ? s.metadata.output : "", TAIL_ONLY);
      line = { ...base, output: cut.tail, head: cut.head, omitted: cut.omitted, status: "running…", failed: false };
      break;
    }
    case "completed": {
      const m = EXIT.exec(s.output);
      const code = typeof s.metadata?.exit === "number" ? s.metadata.exit : m ? Number(m[1]) : 0;
      // How it ended is the card's rule (toolOutcome); a terminal shows the exit code, 0 too.
      const o = toolOutcome(s);
      const stopped = o.tone === "stopped";
      line = {
        ...base,
        ...modelOutput(s, stopped),
        status: stopped ? o.label : o.timedOut ? "timed out" : `exit ${code}`,
        failed: o.tone === "failure" || (!stopped && code !== 0),
        savedPath: savedOutputPath(s.output),
      };
      break;
    }
    case "error": {
      const o = toolOutcome(s);
      const stopped = o.tone === "stopped";
      const cut = cutForScreen(typeof s.metadata?.output === "string" ? s.metadata.output : "", TAIL_ONLY);
      line = {
        ...base,
        output: cut.tail,
        head: cut.head,
        omitted: cut.omitted,
        status: stopped ? o.label : s.error,
        failed: !stopped,
      };
      break;
    }
  }
  lines.set(s, line);
  return line;
}

function entryStatus(e: ShellEntry): string {
  switch (e.status) {
    case "running":
      return e.elsewhere ? "running in another tab…" : "running…";
    case "done":
      return `exit ${e.exitCode ?? 0}`;
    case "stopped":
      return e.message ?? "stopped";
    case "timed-out":
      return "timed out";
    case "refused":
    case "error":
      return e.message ?? e.status;
  }
}

export function fromEntry(e: ShellEntry): Line {
  const known = lines.get(e);
  if (known) return known;
  const line: Line = {
    key: e.id,
    who: "you",
    command: e.command,
    output: e.output,
    head: e.head,
    omitted: e.omitted,
    status: entryStatus(e),
    failed: e.status === "refused" || e.status === "error" || e.status === "timed-out" || (e.status === "done" && (e.exitCode ?? 0) !== 0),
    start: e.start,
  };
  lines.set(e, line);
  return line;
}

/** A line's output as shown (start, what was left out, end). */
export function shownText(l: Pick<Line, "output" | "head" | "omitted">): string {
  return l.head !== undefined || l.omitted ? [l.head, l.omitted && omittedWords(l.omitted), l.output].filter((x) => x !== undefined).join("\n") : l.output;
}

/** A command as an accessible name mentions it: its first line, at most 40 characters. */
export function commandName(command: string): string {
  const first = command.trim().split("\n")[0] ?? "";
  const short = first.length > 40 ? `${first.slice(0, 39)}…` : first;
  return short === command.trim() ? short : short.endsWith("…") ? short : `${short} …`;
}
