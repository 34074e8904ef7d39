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
import type { Bash, Command, CommandContext, CustomCommand, ExecResult } from "just-bash";
import { decideAsk } from "../../../core/permission/evaluate";
import type { PathRefusal } from "../../../core/permission/path-policy";
import type { ExecGuard } from "../../../core/ports/sandbox";
import type { TextReads } from "./guarded-fs";

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

/** The words a command uses for a failed write that hides what happened ("No such file or directory" from `sed -i`). */
const GENERIC_FAILURE = /No such file or directory|Permission denied|Operation not permitted|failed to write|EACCES|ENOENT/;

/**
 * The path refusals each running command of one exec met, the innermost command's own. Many commands catch the
 * filesystem's error and print words of their own (`sed -i` and `tee` say "No such file or directory", `chmod` too,
 * `ln` "Permission denied"), where a `>` redirection says the file is protected: each command's refusals are kept
 * here while it runs so its output can say them in the guard's words (`withRefusalWords`). Each exec has frames of
 * its own (its lane in `LocalSandbox`), and the commands of one line run one after another in just-bash, so a
 * stack follows them; a command run by another (`sh -c`, `xargs`) words its own, and the outer one finds them said.
 * Each frame also keeps the files its command read (`TextReads`): writing text back over one that is not UTF-8 is
 * refused, and said here the same way.
 */
export class RefusalFrames implements TextReads {
  private readonly stack: Frame[] = [];

  /** A refusal met now belongs to the innermost command running. */
  note(r: PathRefusal): void {
    this.stack.at(-1)?.refusals.push(r);
  }

  read(path: string): void {
    this.stack.at(-1)?.read.add(path);
  }

  wasRead(path: string): boolean {
    return this.stack.at(-1)?.read.has(path) === true;
  }

  notUtf8(path: string): PathRefusal {
    const r: PathRefusal = { path, message: `${workspaceRelative(path)}: not UTF-8 text, left unchanged (writing it back as text would replace its other bytes)` };
    this.stack.at(-1)?.refusals.push(r);
    return r;
  }

  /** Runs command `name` (in directory `cwd`) in a frame of its own. */
  async run(name: string, cwd: string, fn: () => Promise<ExecResult>): Promise<ExecResult> {
    const frame: Frame = { refusals: [], read: new Set() };
    this.stack.push(frame);
    try {
      return withRefusalWords(name, await fn(), frame.refusals, cwd);
    } finally {
      this.stack.pop();
    }
  }
}

/** One running command's refusals, and the files it read. */
interface Frame {
  refusals: PathRefusal[];
  read: Set<string>;
}

/**
 * A command's result with each refusal it met said as the guard says it (`sed: config/app.json: write refused —
 * protected by your rule …`): the command's own line about that file, when it used generic words, is replaced;
 * otherwise the words are added. A refused change is a failure, even where the command would have hidden it
 * (`rm -f`), so the model and the person never read a refused change as done.
 */
export function withRefusalWords(name: string, result: ExecResult, refusals: PathRefusal[], cwd?: string): ExecResult {
  // One line a path: a refused write of a file is not said again for its clean-up.
  const paths = new Set<string>();
  const unsaid = refusals.filter((r) => !paths.has(r.path) && paths.add(r.path) && !result.stderr.includes(r.message));
  if (unsaid.length === 0) return result;
  const lines = result.stderr === "" ? [] : result.stderr.replace(/\n$/, "").split("\n");
  for (const r of unsaid) {
    const words = `${name}: ${r.message}`;
    // The command's own line names the path as it was typed: its end relative to the workspace at least
    // (`nothere/app.json` is another file than `config/app.json`, though both end in `app.json`), or the whole
    // of it relative to the command's directory (`cd /tmp && sed -i … notes.txt`).
    const fromCwd = cwd !== undefined && r.path.startsWith(`${cwd}/`) ? r.path.slice(cwd.length + 1) : undefined;
    const own = lines.findIndex(
      (l) =>
        l.startsWith(`${name}:`) &&
        GENERIC_FAILURE.test(l) &&
        !l.includes("refused") &&
        (namesPath(l, workspaceRelative(r.path)) || (fromCwd !== undefined && namesPath(l, fromCwd, WORD_START))),
    );
    if (own >= 0) lines[own] = words;
    else lines.push(words);
  }
  return { ...result, stderr: `${lines.join("\n")}\n`, exitCode: result.exitCode === 0 ? 1 : result.exitCode };
}

/** A refused path as the workspace names it (`/workspace/config/app.json` → `config/app.json`). */
function workspaceRelative(abs: string): string {
  return abs.replace(/^\/workspace\//, "");
}

/** What may come before a path's end in a line (`'/workspace/config/app.json'`). */
const NAME_START = /[\s'"`/:(]/;
/** What may come before a whole path as typed (`'notes.txt'`, not `'../other/notes.txt'`). */
const WORD_START = /[\s'"`:(]/;

/** Whether a line names `rel`, whole: not as the end of a longer name (`xconfig/app.json`). */
function namesPath(line: string, rel: string, start: RegExp = NAME_START): boolean {
  for (let i = line.indexOf(rel); i >= 0; i = line.indexOf(rel, i + 1)) if (i === 0 || start.test(line[i - 1] ?? "")) return true;
  return false;
}

function wrap(cmd: Command, check: CommandCheck, frames: RefusalFrames): Command {
  return {
    name: cmd.name,
    trusted: cmd.trusted,
    async execute(args, ctx) {
      const refusal = await check(cmd.name, args);
      if (refusal !== undefined) return refused(refusal);
      return frames.run(cmd.name, ctx.cwd, () => cmd.execute(args, ctx));
    },
  };
}

/** Our own commands, wrapped before they are handed to just-bash. */
export function guardCustom(commands: CustomCommand[], check: CommandCheck, frames: RefusalFrames): CustomCommand[] {
  return commands.map((c) => {
    if ("load" in c) {
      const lazy = c;
      return { name: lazy.name, trusted: lazy.trusted, load: async () => wrap(await lazy.load(), check, frames) };
    }
    return wrap(c, check, frames);
  });
}

/**
 * A bundled command run our way: `run` is just-bash's own, which the fix may call with other arguments, several
 * times, or correct the result of (`ls -l`'s modes and dates, `sed -i.bak`'s backup).
 */
export type CommandFix = (args: string[], ctx: CommandContext, run: (args: string[]) => Promise<ExecResult>) => Promise<ExecResult>;

/** Shadows every bundled command with a checked one that then runs the original (through its fix, if it has one). */
export function guardBundled(jb: JustBash, bash: Bash, skip: Set<string>, check: CommandCheck, frames: RefusalFrames, fixes: Record<string, CommandFix> = {}): void {
  for (const name of jb.getCommandNames()) {
    if (skip.has(name)) continue;
    const fix = Object.hasOwn(fixes, name) ? fixes[name] : undefined;
    bash.registerCommand({
      name,
      async execute(args, ctx) {
        const refusal = await check(name, args);
        if (refusal !== undefined) return refused(refusal);
        const orig = ctx.origCommand;
        if (!orig) return refused(`tabcode: ${name} is not available.`);
        return frames.run(name, ctx.cwd, () => (fix ? fix(args, ctx, orig) : orig(args)));
      },
    });
  }
}
