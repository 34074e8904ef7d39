import { useEffect, useState, useSyncExternalStore } from "react";
import { toolOutcome } from "../../../core/conversation/tool-outcome";
import { isSubagentTool, subagentSession, subagentSourceID } from "../../../core/import/subagent";
import type { Store } from "../../../core/ports/store";
import type { Session, ToolPart } from "../../../core/schema";
import { useServices } from "../../hooks/services";
import { formatDuration } from "../../format";
import { PatchDiff } from "../../diff/lazy-diff";
import { CopyButton } from "../../markdown/copy-button";
import { ScrollPre } from "../../markdown/scroll-pre";
import { download } from "../workspace/workspace-io";

function summary(part: ToolPart): string {
  const s = part.state;
  if ((s.status === "running" || s.status === "completed") && s.title) return s.title;
  const input = s.input;
  const first = ["command", "filePath", "pattern", "path", "description"].map((k) => input[k]).find((v) => typeof v === "string");
  return typeof first === "string" ? first : "";
}

/** The file an edit/write changed, relative to the workspace when it can be. */
function diffName(part: ToolPart): string {
  const p = part.state.input.filePath;
  return typeof p === "string" ? p.replace(/^\/workspace\//, "") : part.tool;
}

function stringify(v: unknown): string {
  try {
    return JSON.stringify(v, null, 2);
  } catch {
    return String(v);
  }
}

/** A line long enough to wrap in a phone-width card. */
const LONG_LINE = /[^\n]{48}/;

/**
 * A tool's output or error with its label, Copy, and Wrap: lines wrap by default (nothing hides
 * past the edge on a phone); unwrapped, columns such as `ls -l` or a test table line up and the
 * box scrolls sideways.
 */
function ToolText({ label, copy, text, error }: { label: string; copy: string; text: string; error?: boolean }) {
  const [wrap, setWrap] = useState(true);
  const classes = [error ? "error-text" : "", wrap ? "" : "nowrap"].filter(Boolean).join(" ");
  return (
    <>
      <div className="tool-label-row">
        <span className="tool-label">{label}</span>
        {LONG_LINE.test(text) && (
          <button type="button" className="link" aria-pressed={wrap} onClick={() => setWrap(!wrap)} title="Wrap long lines">
            Wrap
          </button>
        )}
        <CopyButton text={() => text} label={copy} />
      </div>
      <ScrollPre className={classes || undefined}>{text}</ScrollPre>
    </>
  );
}

/** Every session (archived too), read once for all the subagent cards a screen shows at a time. */
let listed: { at: number; sessions: Promise<Session[]> } | undefined;
function sessionsOnce(store: Store): Promise<Session[]> {
  if (!listed || Date.now() - listed.at > 2000) {
    const sessions = Promise.all([store.listSessions(), store.listSessions({ archived: true })]).then(([a, b]) => [...a, ...b]);
    listed = { at: Date.now(), sessions };
  }
  return listed.sessions;
}

/** Where a cut output's whole text was saved, if it was: the truncation note, the output's last words (not a line the command printed). */
export function savedOutputPath(output: string): string | undefined {
  return /The full output was saved to (\S+?\.txt)\. Use grep to search it, or read with offset\/limit to view parts of it\.\s*$/.exec(output)?.[1];
}

/** The whole output of a cut tool result: in the workspace's hidden scratch folder, so the Files tree does not list it. */
export function SavedOutput({ sessionID, path, label }: { sessionID: string; path: string; label?: string }) {
  const { sandbox } = useServices();
  const [error, setError] = useState<string>();
  const fetchIt = async () => {
    try {
      const bytes = await (await sandbox.sandboxFor(sessionID)).fs.readFile(path);
      download(path.split("/").pop() ?? "output.txt", bytes, "text/plain");
    } catch (e) {
      setError(`The full output is no longer there (${e instanceof Error ? e.message : String(e)}).`);
    }
  };
  return (
    <div className="tool-saved-output">
      <button type="button" className="link" aria-label={label} onClick={() => void fetchIt()}>
        Download the full output
      </button>
      {error && <span className="error-text"> {error}</span>}
    </div>
  );
}

/**
 * An imported subagent call (OpenCode's `task`, Claude Code's `Task`) links to the session it ran in, when
 * that session was imported too (it is listed under its caller in the sidebar).
 */
function SubagentLink({ part }: { part: ToolPart }) {
  const { store } = useServices();
  const [child, setChild] = useState<{ id: string; title: string } | null>(null);
  useEffect(() => {
    let live = true;
    void (async () => {
      const session = await store.getSession(part.sessionID);
      if (!session || subagentSourceID(session, part) === undefined) return;
      const found = subagentSession(session, part, await sessionsOnce(store));
      if (live && found) setChild({ id: found.id, title: found.title });
    })().catch(() => undefined);
    return () => {
      live = false;
    };
  }, [store, part]);
  if (!child) return null;
  return (
    <p className="tool-subagent">
      Ran in its own session: <a href={`#/s/${child.id}`}>{child.title || "the subagent's session"}</a>
    </p>
  );
}

/**
 * The status of a call whose permission question waits: the question's dialog is in the tab that runs the
 * session, so another tab watching it says where to answer.
 */
function WaitingLabel({ callID }: { callID: string }) {
  const { permissions } = useServices();
  const here = useSyncExternalStore(
    (l) => permissions.subscribe(l),
    () => permissions.pending().some((p) => p.callID === callID),
  );
  return <>{here ? "waiting for your approval" : "waiting for approval in the tab running this session"}</>;
}

/** A tool's output as a person reads it: the notes the shell tool writes for the model lose their tags. */
export function shownOutput(output: string): string {
  return output.replace(/<bash_metadata>\n?([\s\S]*?)\n?<\/bash_metadata>/g, "$1");
}

/** A tool call as a card: name, status, input, output or error. */
export function ToolPartView({ part }: { part: ToolPart }) {
  const s = part.state;
  const [open, setOpen] = useState(s.status === "error");
  // A call that fails while you watch opens by itself, so its error is seen.
  useEffect(() => {
    if (s.status === "error") setOpen(true);
  }, [s.status]);
  // A non-zero exit reads as a failure, a stopped call as neither (core/conversation/tool-outcome.ts, shared with the exports).
  const outcome = toolOutcome(s);
  // A permission question waits for the user (the step notes it on the part: core/session/repair.ts).
  const waiting = s.status === "running" && typeof s.metadata?.awaitingApproval === "object";
  const notStarted = s.status === "error" && s.metadata?.notStarted === true;
  const stopped = outcome.tone === "stopped";
  // A command that ran but failed says so on the card, closed as well ("done" would read as success).
  const failed = outcome.tone === "failure" && s.status === "completed";
  const label = outcome.label;
  const duration = s.status === "completed" || s.status === "error" ? formatDuration(s.time.end - s.time.start) : undefined;
  const liveOutput = s.status === "running" && typeof s.metadata?.output === "string" ? s.metadata.output : undefined;
  const diff = s.status === "completed" && typeof s.metadata.diff === "string" ? s.metadata.diff : undefined;
  const pruned = s.status === "completed" && s.time.compacted !== undefined;
  return (
    // A group, not a region: a long session has dozens of tool cards, and each region would be a landmark.
    // biome-ignore lint/a11y/useSemanticElements: a tool card is no form: <fieldset> would say it is one
    <div
      role="group"
      className={`tool-card tool-${stopped ? "stopped" : s.status}${failed ? " tool-failed" : ""}`}
      aria-label={`Tool ${part.tool}: ${outcome.exit !== undefined && !outcome.timedOut ? `finished with exit code ${outcome.exit}` : label}`}
    >
      <button type="button" className="tool-head" aria-expanded={open} onClick={() => setOpen(!open)}>
        <span className={`tool-dot dot-${stopped ? "pending" : failed ? "error" : s.status}`} aria-hidden="true" />
        <span className="tool-name">{part.tool}</span>
        <span className="tool-summary">{summary(part)}</span>
        <span className="tool-status">
          {waiting ? <WaitingLabel callID={part.callID} /> : label}
          {duration ? ` · ${duration}` : ""}
          {pruned ? " · pruned" : ""}
        </span>
      </button>
      {(s.status === "completed" || s.status === "error") && isSubagentTool(part.tool) && <SubagentLink part={part} />}
      {s.status === "pending" && s.raw && <pre className="tool-raw">{s.raw}</pre>}
      {liveOutput && <pre className="tool-output live">{liveOutput.slice(-4000)}</pre>}
      {/* An edit's diff is what matters about it: shown with the card closed too. */}
      {diff && (
        <div className="tool-diff">
          <PatchDiff patch={diff} name={diffName(part)} />
        </div>
      )}
      {open && (
        <div className="tool-body">
          <div className="tool-label">Input</div>
          <pre>{notStarted && typeof s.metadata?.raw === "string" ? `${s.metadata.raw} …(not finished)` : stringify(s.input)}</pre>
          {s.status === "completed" && (
            <>
              <ToolText label={`Output${pruned ? " (pruned from the model's context; kept here)" : ""}`} copy={`Copy the output of ${part.tool}`} text={shownOutput(s.output)} />
              {savedOutputPath(s.output) && <SavedOutput sessionID={part.sessionID} path={savedOutputPath(s.output) ?? ""} />}
            </>
          )}
          {s.status === "error" && (
            <>
              <ToolText label={`Error${s.metadata?.interrupted ? " (interrupted)" : ""}`} copy={`Copy the error of ${part.tool}`} text={s.error} error />
            </>
          )}
        </div>
      )}
    </div>
  );
}
