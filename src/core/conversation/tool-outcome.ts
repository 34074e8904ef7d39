import type { ToolState } from "../schema";

/**
 * How a tool call ended, in the words and colour a person reads: the one rule for the tool card and the
 * exports. A command that ran but exited non-zero is a failure ("exit 1"), though its state is
 * "completed"; a call stopped (by the user, or the step stopping around it) is not a failure, and a
 * stopped command's exit code (the killed shell's 124 or 130) is not shown; a timeout is said as one.
 */
export interface ToolOutcome {
  /** "preparing", "running", "done", "failed", "exit 2", "timed out", "stopped", "stopped before it ran". */
  label: string;
  /** "busy": not finished; "failure": the red of an error; "stopped": neither success nor failure. */
  tone: "busy" | "ok" | "failure" | "stopped";
  /** A non-zero exit code of a command that ran to its end. */
  exit?: number;
  timedOut: boolean;
}

const STATUS_LABEL = { pending: "preparing", running: "running", completed: "done", error: "failed" } as const;

export function toolOutcome(s: ToolState): ToolOutcome {
  const meta = s.status === "pending" ? undefined : s.metadata;
  const exit = s.status === "completed" && typeof meta?.exit === "number" && meta.exit !== 0 ? meta.exit : undefined;
  const notStarted = s.status === "error" && meta?.notStarted === true;
  const stopped = (s.status === "error" && meta?.interrupted === true) || (s.status === "completed" && meta?.aborted === true);
  const timedOut = !stopped && s.status === "completed" && meta?.timedOut === true;
  if (notStarted) return { label: "stopped before it ran", tone: "stopped", timedOut: false };
  if (stopped) return { label: "stopped", tone: "stopped", timedOut: false };
  if (timedOut) return { label: "timed out", tone: "failure", exit, timedOut };
  if (exit !== undefined) return { label: `exit ${exit}`, tone: "failure", exit, timedOut };
  const tone = s.status === "error" ? "failure" : s.status === "completed" ? "ok" : "busy";
  return { label: STATUS_LABEL[s.status], tone, timedOut };
}
