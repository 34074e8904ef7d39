/**
 * The guard the bash tool hands the sandbox: the session's rules as a path
 * policy, and the way back to the user for a command the rules leave to ask
 * (each distinct command once; those the line's own ask covered are not
 * asked again). Refusals made by the sandbox are logged like any decision.
 */
import { prefix } from "../permission/arity";
import { pathPolicy } from "../permission/path-policy";
import type { ExecGuard, Sandbox } from "../ports/sandbox";
import { PermissionRefused } from "../permission/ask";
import type { ToolContext } from "./tool";

export const CWD_MARKER = "__TABCODE_CWD__";

export interface BashGuard {
  guard: ExecGuard;
  /** Set when the user rejected a command asked about while the line ran. */
  stop?: PermissionRefused;
}

/** The tool's own trailer (`echo; echo "<marker>$PWD"`), never asked about (a deny rule still applies to it). */
function isCwdTrailer(command: string): boolean {
  return command === "echo" || command.startsWith(`echo ${CWD_MARKER}`);
}

/**
 * `alreadyAsked`: the line's own commands (joined text), which its own question covered. `line`: the command
 * line the call was given, which runs the commands asked about (named in the question).
 */
export function execGuard(ctx: ToolContext, sandbox: Sandbox, alreadyAsked: Set<string>, line?: string): BashGuard | undefined {
  const rules = ctx.rules;
  if (!rules) return undefined;
  // Commands approved while this line runs, as the user saw them (`rm 'a b'` approves that, not `rm a b`).
  const approved = new Set<string>();
  const out: BashGuard = {
    guard: {
      policy: pathPolicy(sandbox.root, rules),
      ask: async (command, shown) => {
        if (alreadyAsked.has(command) || approved.has(shown ?? command) || isCwdTrailer(command)) return undefined;
        if (out.stop) return `tabcode: "${command}" not run — the user rejected an earlier command of this call.`;
        try {
          await ctx.ask({
            permission: "bash",
            patterns: [command],
            always: [`${prefix(command.split(" "))} *`],
            metadata: { command: shown ?? command, nested: true, ...(line !== undefined ? { within: line } : {}) },
          });
          approved.add(shown ?? command);
          return undefined;
        } catch (e) {
          if (!(e instanceof PermissionRefused)) throw e;
          if (e.stopsTurn) out.stop = e;
          return `tabcode: "${command}" refused — ${e.message}`;
        }
      },
      denied: (command, _message, rule) => ctx.refused?.("bash", command, rule),
      pathRefused: (r) => ctx.refused?.(r.rule?.permission ?? "external_directory", r.path, r.rule),
    },
  };
  return out;
}
