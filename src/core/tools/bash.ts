/**
 * `bash`: runs a command in the workspace. Shell state resets on every call,
 * so the tool keeps the working directory itself: it appends a marker line
 * printing `$PWD`, reads it back, strips it from the output and stores the
 * new directory in `ctx.state` for the next call.
 */
import { z } from "../zod";
import type { ExecResult, Sandbox } from "../ports/sandbox";
import { bashReadOperands } from "../permission/bash-reads";
import { isInside, joinPath, normalizePath, relativeTo } from "../sandbox-path";
import { defineTool, type ToolContext } from "./tool";
import { requireSandbox, workspacePath } from "./workspace";
import { bashPatterns } from "../permission/arity";
import { CWD_MARKER, execGuard } from "./bash-guard";

export const DEFAULT_BASH_TIMEOUT_MS = 120_000;
export const MAX_BASH_TIMEOUT_MS = 600_000;
/** Characters of output kept in the running part's metadata. */
export const MAX_METADATA_OUTPUT = 30_000;
/** `ctx.state` key of the tracked working directory. */
export const BASH_CWD_KEY = "bash-cwd";

const MARKER = CWD_MARKER;
const STATUS_VAR = "__tabcode_status";

/** The command followed by a line reporting the final directory; the command's exit status is kept. */
export function withCwdMarker(command: string): string {
  return `${command}\n${STATUS_VAR}=$?; echo; echo "${MARKER}$PWD"; exit $${STATUS_VAR}`;
}

/** Removes the marker (and the blank line printed before it); returns the directory it reported. */
export function stripCwdMarker(text: string): { text: string; cwd?: string } {
  const at = text.lastIndexOf(`\n${MARKER}`);
  if (at === -1) {
    // A stream cut inside the trailer, or output starting with it.
    const bare = text.indexOf(MARKER);
    return { text: bare === -1 ? text : text.slice(0, Math.max(0, bare - 1)) };
  }
  const rest = text.slice(at + 1 + MARKER.length);
  const nl = rest.indexOf("\n");
  const cwd = (nl === -1 ? rest : rest.slice(0, nl)).trim();
  const tail = nl === -1 ? "" : rest.slice(nl + 1);
  return { text: text.slice(0, at) + tail, cwd: cwd || undefined };
}

/** The line that says a `cd` outside the workspace does not carry over to the next command. */
export function cwdNotKept(root: string, next: string): string {
  return `note: the working directory is not kept outside ${root}; the next command starts in ${next}`;
}

/** The output with a note of ours on a line of its own at its end. */
function withNote(text: string, note: string): string {
  return `${text}${text === "" || text.endsWith("\n") ? "" : "\n"}${note}\n`;
}

function capTail(text: string, max = MAX_METADATA_OUTPUT): string {
  return text.length <= max ? text : `…${text.slice(text.length - max)}`;
}

function currentCwd(ctx: ToolContext, sandbox: Sandbox): string {
  const saved = ctx.state.get(BASH_CWD_KEY);
  return typeof saved === "string" && isInside(sandbox.root, saved) ? saved : sandbox.root;
}

/** The `read` pattern of a shell operand: workspace-relative inside the workspace, absolute outside. */
function readPattern(root: string, cwd: string, operand: string): string {
  const abs = operand.startsWith("/") ? normalizePath(operand) : joinPath(cwd, operand);
  return isInside(root, abs) ? relativeTo(root, abs) : abs;
}

const parameters = z.object({
  command: z.string().check(z.describe("The command to execute")),
  timeout: z.optional(z.int().check(z.positive(), z.lte(MAX_BASH_TIMEOUT_MS), z.describe("Optional timeout in milliseconds (default 120000)"))),
  workdir: z.optional(z.string().check(z.describe("The directory to run the command in (default: the current directory, which persists across calls)"))),
  description: z.string().check(z.describe("Clear, concise description of what this command does in 5-10 words")),
});

function formatOutput(r: ExecResult, text: string, timeout: number): string {
  const parts = [text.trimEnd() === "" ? "(no output)" : text.replace(/\n+$/, "")];
  const notes: string[] = [];
  if (r.timedOut) notes.push(`bash tool terminated the command after exceeding the timeout of ${timeout} ms`);
  if (r.aborted) notes.push("The user aborted the command");
  if (notes.length) parts.push(`<bash_metadata>\n${notes.join("\n")}\n</bash_metadata>`);
  parts.push(`Exit code: ${r.exitCode}`);
  return parts.join("\n\n");
}

export const bashTool = defineTool({
  id: "bash",
  description: `Runs a shell command in the workspace and returns its output and exit code.

- The working directory persists between calls (cd works) inside the workspace; a cd elsewhere (/tmp) lasts until the end of that call. Use workdir to run somewhere else once.
- Environment variables and shell functions do not persist between calls.
- Default timeout ${DEFAULT_BASH_TIMEOUT_MS / 1000} s, at most ${MAX_BASH_TIMEOUT_MS / 1000} s (timeout is in milliseconds).
- Output over 2,000 lines or 50 KB is truncated; the full output is saved to a file you can read or grep.
- Use the read, edit, write, glob and grep tools for files instead of cat, sed, find or grep in the shell.
- The local sandbox has common Unix commands, python3 (standard library only), git, sqlite3 and node for plain scripts, but no npm or network; the WebContainer sandbox has Node.js and npm.
- Always give a short description of what the command does.`,
  parameters,
  async execute(args, ctx) {
    const sandbox = requireSandbox(ctx);
    const cwd = args.workdir === undefined ? currentCwd(ctx, sandbox) : workspacePath(sandbox, args.workdir).abs;
    const st = await sandbox.fs.stat(cwd);
    // The tracked directory was removed since: the command runs at the root, and says so.
    let gone: string | undefined;
    if (st?.type !== "directory") {
      if (args.workdir !== undefined) throw new Error(`The working directory does not exist: ${cwd}`);
      ctx.state.delete(BASH_CWD_KEY);
      if (cwd !== sandbox.root) gone = cwd;
    }
    const runIn = st?.type === "directory" ? cwd : sandbox.root;
    // Every simple command of the line is checked; "always" stores arity prefixes (`git checkout *`).
    const asked = bashPatterns(args.command);
    await ctx.ask({ permission: "bash", ...asked, metadata: { command: args.command } });
    // Files that cat, head, grep… print are reads: `read` rules (`*.env`) apply to them as to the read tool.
    const reads = bashReadOperands(args.command).map((p) => readPattern(sandbox.root, runIn, p));
    if (reads.length) await ctx.ask({ permission: "read", patterns: reads, always: ["*"], metadata: { command: args.command } });
    // …and every command that actually runs (scripts, xargs, find -exec…) and every file change, as it happens.
    const guard = execGuard(ctx, sandbox, new Set(asked.patterns), args.command);

    const timeout = args.timeout ?? DEFAULT_BASH_TIMEOUT_MS;
    let streamed = "";
    ctx.update({ title: args.description, metadata: { output: "", description: args.description } });
    const r = await sandbox.exec(withCwdMarker(args.command), {
      cwd: runIn,
      timeoutMs: timeout,
      signal: ctx.signal,
      guard: guard?.guard,
      onOutput: (chunk) => {
        streamed += chunk;
        ctx.update({ metadata: { output: capTail(stripCwdMarker(streamed).text), description: args.description } });
      },
    });
    // The user rejected a command asked about mid-run: the turn stops, as for the line's own ask.
    if (guard?.stop) throw guard.stop;
    const { text: said, cwd: reported } = stripCwdMarker(r.combined);
    // Only the cwd of a command that ran to its end (and stayed inside the workspace) is kept; one left elsewhere is said.
    let text = said;
    if (args.workdir === undefined && reported) {
      if (isInside(sandbox.root, reported)) ctx.state.set(BASH_CWD_KEY, reported);
      else text = withNote(said, cwdNotKept(sandbox.root, currentCwd(ctx, sandbox)));
    }
    if (gone) text = withNote(text, `note: ${gone} no longer exists; the command ran in ${sandbox.root}`);
    const output = formatOutput(r, text, timeout);
    return {
      title: args.description,
      output,
      metadata: {
        // Whole for the terminal (which keeps it in memory only), the tail for a stored part.
        output: ctx.wholeOutput ? text : capTail(text),
        exit: r.exitCode,
        description: args.description,
        cwd: args.workdir === undefined ? currentCwd(ctx, sandbox) : runIn,
        timedOut: r.timedOut,
        aborted: r.aborted,
      },
    };
  },
});
