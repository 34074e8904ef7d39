/**
 * A command the person types into the terminal pane: run in the session's
 * sandbox by the bash tool itself, so it meets the same permission rules as
 * the model's commands (the line is asked about — deny refuses, ask opens the
 * permission dialog — and the sandbox's exec guard checks every command and
 * file change while it runs). The model never sees these commands.
 */
import type { PermissionAsk } from "../permission/ask";
import type { Sandbox } from "../ports/sandbox";
import type { PermissionRule, Ruleset } from "../schema";
import { bashTool } from "../tools/bash";

export interface UserCommandDeps {
  sandbox: Sandbox;
  /** The session's permission broker (`ask` and `noteRefusal`). */
  permissions: {
    ask(sessionID: string, req: PermissionAsk & { title: string }): Promise<void>;
    noteRefusal(sessionID: string, permission: string, pattern: string, rule?: PermissionRule): void;
  };
  /** The rulesets in force for the session (the exec guard enforces them). */
  rules: Ruleset[];
  /** The terminal's own scratch state (its working directory), separate from the model's. */
  state: Map<string, unknown>;
}

export type UserCommandResult =
  | { status: "done"; output: string; exitCode: number; timedOut?: true }
  /** Stopped by the person (Stop, Ctrl+C): not a failure, whatever code the shell gives a killed command. */
  | { status: "stopped"; output: string }
  | { status: "refused"; message: string }
  | { status: "error"; message: string };

/** Without the line just-bash prints when a command is aborted: the terminal says "stopped" instead. */
export function withoutAbortLine(text: string): string {
  return text.replace(/\n?bash: execution aborted\s*$/, "");
}

/** The broker's wording is for the model; the person gets the rule in plain words (undefined: not a refusal). */
function refusalForPerson(message: string): string | undefined {
  const m = /^A permission rule forbids this call \((.*)\)\./.exec(message);
  if (m) return `Not run: ${m[1]}.`;
  if (message === "The user rejected this call.") return "Not run: you rejected it.";
  if (message.startsWith("The user rejected this call with feedback")) return "Not run: you rejected it.";
  return undefined;
}

/**
 * Runs `command` like the bash tool would for the model; `onOutput` gets the output so far as it streams. The
 * output comes back whole and in the command's own words: no cut or saved file for the model, no notes
 * written for it (`<bash_metadata>`, `Exit code:`).
 */
export async function runUserCommand(deps: UserCommandDeps, input: { sessionID: string; command: string; signal: AbortSignal; onOutput?(text: string): void }): Promise<UserCommandResult> {
  const { sandbox, permissions, rules, state } = deps;
  const { sessionID } = input;
  const outcome = await bashTool.run(
    { command: input.command, description: "Your command in the terminal" },
    {
      sessionID,
      messageID: "terminal",
      callID: "terminal",
      agent: "terminal",
      signal: input.signal,
      sandbox,
      state,
      rules,
      wholeOutput: true,
      update: (p) => {
        const out = p.metadata?.output;
        if (typeof out === "string") input.onOutput?.(out);
      },
      ask: (req) => permissions.ask(sessionID, { ...req, title: "bash (your terminal command)" }),
      refused: (permission, pattern, rule) => permissions.noteRefusal(sessionID, permission, pattern, rule),
    },
  );
  if (!outcome.ok) {
    const refused = refusalForPerson(outcome.error);
    if (refused) return { status: "refused", message: refused };
    return input.signal.aborted ? { status: "stopped", output: "" } : { status: "error", message: outcome.error };
  }
  const meta = outcome.result.metadata ?? {};
  const text = typeof meta.output === "string" ? meta.output.replace(/\n+$/, "") : "";
  if (meta.aborted === true) return { status: "stopped", output: withoutAbortLine(text) };
  const exitCode = typeof meta.exit === "number" ? meta.exit : 0;
  return meta.timedOut === true ? { status: "done", output: text, exitCode, timedOut: true } : { status: "done", output: text, exitCode };
}
