import { memo } from "react";
import { omittedWords } from "../../../app/terminal-output";
import type { FullOutput } from "../../../app/user-shell";
import { CopyButton } from "../../markdown/copy-button";
import { SavedOutput } from "../parts/tool-part";
import { download } from "../workspace/workspace-io";
import { commandName, type Line, shownText } from "./terminal-lines";

/** A file name for a command's downloaded output: when it started. */
function outputName(start: number): string {
  return `terminal-output-${new Date(start).toISOString().slice(0, 19).replace(/[T:]/g, "-")}.txt`;
}

/**
 * One command in the terminal log: who ran it, the command, its output (a long one as its start and end,
 * with a download of the whole while this page holds it), its status, and Copy (command and output).
 */
export const TerminalEntry = memo(function TerminalEntry({ line: l, sessionID, full }: { line: Line; sessionID: string; full?: FullOutput }) {
  const name = commandName(l.command);
  return (
    <div className={`terminal-entry terminal-${l.who}`}>
      <div className="terminal-cmd-row">
        <div className="terminal-cmd">
          <span className="terminal-who">{l.who === "you" ? "you" : "model"}</span>
          <span aria-hidden="true">$ </span>
          <span className="visually-hidden">command: </span>
          {l.command}
        </div>
        <CopyButton className="link terminal-copy" label={`Copy “${name}” and its output`} text={() => `$ ${l.command}\n${full?.text ?? shownText(l)}`} />
      </div>
      {(l.output || l.head !== undefined) && (
        <pre className="terminal-out">
          {l.head !== undefined && `${l.head}\n`}
          {l.omitted && <span className="terminal-omitted">{`${omittedWords(l.omitted)}\n`}</span>}
          {l.output}
        </pre>
      )}
      <div className="terminal-status-row">
        <span className={`terminal-status${l.failed ? " failed" : ""}`}>{l.status}</span>
        {full && (
          <button
            type="button"
            className="link"
            aria-label={`Download the ${full.whole ? "full output" : "output's last 5 MB"} of “${name}”`}
            onClick={() => download(outputName(l.start), full.text, "text/plain")}
          >
            {full.whole ? "Download the full output" : "Download the output (its last 5 MB)"}
          </button>
        )}
        {l.savedPath && <SavedOutput sessionID={sessionID} path={l.savedPath} label={`Download the full output of “${name}”`} />}
      </div>
    </div>
  );
});
