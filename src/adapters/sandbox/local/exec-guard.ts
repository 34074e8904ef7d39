/**
 * Permission checks at the moment a command runs. Every command just-bash
 * can dispatch — bundled ones and ours — is wrapped, so whatever route leads
 * to it (a script, `sh`/`bash -c`, `source`, `eval`, `xargs`, `find -exec`,
 * `env`, `timeout`, `command`, a function, an alias) meets the `bash` rules
 * with its real argv. The static parse in the bash tool still words the ask
 * dialog for the line the model wrote; this is what makes a deny hold.
 *
 * Rules are evaluated here (the Worker has them); only an `ask` goes back to
 * the page, once per distinct command per call.
 */
import type { Bash, Command, CustomCommand, ExecResult } from "just-bash";
import { decideAsk } from "../../../core/permission/evaluate";
import type { ExecGuard } from "../../../core/ports/sandbox";

export type { ExecGuard };

type JustBash = typeof import("just-bash");

/** The command line a permission pattern is matched against: argv joined by spaces. */
export function commandText(name: string, args: string[]): string {
  return [name, ...args].join(" ");
}

/** A word as the shell would need it written: bare when it is plain, else in single quotes. */
function shellWord(word: string): string {
  if (word !== "" && /^[\w@%+=:,./-]+$/.test(word)) return word;
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

/** The command as a person reads it, each argument quoted as the shell needs it (`grep -n 'const month' src/dates.js`). */
export function commandLine(name: string, args: string[]): string {
  return [name, ...args].map(shellWord).join(" ");
}

/** Checks one command (its name and arguments) against the guard; resolves to a refusal message, or undefined. */
export type CommandCheck = (name: string, args: string[]) => Promise<string | undefined>;

/** Decides one command against the guard; resolves to a refusal message, or undefined when it may run. */
export async function checkCommand(guard: ExecGuard | undefined, seen: Map<string, string | undefined>, name: string, args: string[]): Promise<string | undefined> {
  if (!guard) return undefined;
  const text = commandText(name, args);
  // An answer stands for this very command: keyed by its arguments as they are (`rm 'a b'` is not `rm a b`),
  // though the rules are matched against the joined text.
  const key = commandLine(name, args);
  if (seen.has(key)) return seen.get(key);
  const decision = decideAsk({ permission: "bash", patterns: [text] }, guard.policy.rules);
  let refusal: string | undefined;
  if (decision.action === "deny") {
    const rule = decision.denied?.rule;
    refusal = `tabcode: "${text}" refused — denied by your rule "bash ${rule?.pattern ?? "*"}". Permission rules apply to every command that runs, including those run by scripts, xargs, find -exec, env, timeout, sh -c and functions.`;
    guard.denied?.(text, refusal, rule);
  } else if (decision.action === "ask") {
    refusal = guard.ask ? await guard.ask(text, key) : `tabcode: "${text}" refused — your rules ask before it runs, and nobody can be asked here.`;
  }
  seen.set(key, refusal);
  return refusal;
}

const refused = (message: string): ExecResult => ({ stdout: "", stderr: `${message}\n`, exitCode: 126 });

function wrap(cmd: Command, check: CommandCheck): Command {
  return {
    name: cmd.name,
    trusted: cmd.trusted,
    async execute(args, ctx) {
      const refusal = await check(cmd.name, args);
      if (refusal !== undefined) return refused(refusal);
      return cmd.execute(args, ctx);
    },
  };
}

/** Our own commands, wrapped before they are handed to just-bash. */
export function guardCustom(commands: CustomCommand[], check: CommandCheck): CustomCommand[] {
  return commands.map((c) => {
    if ("load" in c) {
      const lazy = c;
      return { name: lazy.name, trusted: lazy.trusted, load: async () => wrap(await lazy.load(), check) };
    }
    return wrap(c, check);
  });
}

/** Shadows every bundled command with a checked one that then runs the original. */
export function guardBundled(jb: JustBash, bash: Bash, skip: Set<string>, check: CommandCheck): void {
  for (const name of jb.getCommandNames()) {
    if (skip.has(name)) continue;
    bash.registerCommand({
      name,
      async execute(args, ctx) {
        const refusal = await check(name, args);
        if (refusal !== undefined) return refused(refusal);
        if (!ctx.origCommand) return refused(`tabcode: ${name} is not available.`);
        return ctx.origCommand(args);
      },
    });
  }
}
