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

export type UserCommandResult = { status: "done"; output: string; exitCode: number } | { status: "refused"; message: string } | { status: "error"; message: string };

/** The broker's wording is for the model; the person gets the rule in plain words (undefined: not a refusal). */
function refusalForPerson(message: string): string | undefined {
  const m = /^A permission rule forbids this call \((.*)\)\./.exec(message);
  if (m) return `Not run: ${m[1]}.`;
  if (message === "The user rejected this call.") return "Not run: you rejected it.";
  if (message.startsWith("The user rejected this call with feedback")) return "Not run: you rejected it.";
  return undefined;
}

/** Runs `command` like the bash tool would for the model; `onOutput` gets the output so far as it streams. */
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
    return refused ? { status: "refused", message: refused } : { status: "error", message: outcome.error };
  }
  const text = outcome.result.output;
  const code = /\n*Exit code: (-?\d+)\s*$/.exec(text);
  const output = code ? text.slice(0, code.index) : text;
  return { status: "done", output: output === "(no output)" ? "" : output, exitCode: code ? Number(code[1]) : 0 };
}
