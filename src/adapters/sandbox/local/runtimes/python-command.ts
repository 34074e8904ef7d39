/**
 * `python3` / `python` (and `pip`) as just-bash commands: the workspace is
 * copied into the interpreter, the script runs there, and what it changed is
 * written back through the sandbox filesystem.
 */
import type { ByteString, CustomCommand, defineCommand as DefineCommand } from "just-bash";
import type { PythonHost } from "./python-protocol";
import { applyChanges, collectView, ViewTooLargeError } from "./workspace-view";

export interface PythonCommandDeps {
  host: PythonHost;
  root: string;
  timeoutMs: () => number;
  progress?: (text: string) => void;
}

export const PIP_MESSAGE =
  "pip: only Python's standard library is available in the local sandbox (it runs offline, without a package index). Use the WebContainer backend or vendor pure-Python code into the workspace.\n";

/** just-bash's stdin is a latin1 byte string (one char per byte); its browser build does not export the converter. */
function decodeStdin(stdin: ByteString): string {
  const bytes = String(stdin);
  const raw = Uint8Array.from(bytes, (c) => c.charCodeAt(0));
  return new TextDecoder().decode(raw);
}

export function pythonCommands(defineCommand: typeof DefineCommand, deps: PythonCommandDeps): CustomCommand[] {
  const python = (name: string) =>
    defineCommand(name, async (args, ctx) => {
      if (args[0] === "-m" && (args[1] === "pip" || args[1] === "ensurepip")) return { stdout: "", stderr: PIP_MESSAGE, exitCode: 1 };
      if (ctx.cwd !== deps.root && !ctx.cwd.startsWith(`${deps.root}/`))
        return {
          stdout: "",
          stderr: `${name}: python runs inside the workspace (${deps.root}) only\n`,
          exitCode: 1,
        };
      let files: Awaited<ReturnType<typeof collectView>>;
      try {
        files = await collectView(ctx.fs, deps.root);
      } catch (e) {
        if (e instanceof ViewTooLargeError)
          return {
            stdout: "",
            stderr: `${name}: ${e.message}; python cannot run over it\n`,
            exitCode: 1,
          };
        throw e;
      }
      const env = Object.fromEntries(ctx.exportedEnv ? Object.entries(ctx.exportedEnv) : ctx.env.entries());
      const r = await deps.host.run(
        { files, cwd: ctx.cwd, args, stdin: decodeStdin(ctx.stdin), env },
        {
          timeoutMs: deps.timeoutMs(),
          signal: ctx.signal,
          onProgress: deps.progress,
        },
      );
      const failed: string[] = [];
      const outside = await applyChanges(ctx.fs, deps.root, r.writes, r.removes, failed);
      let note = outside.length ? `${name}: ignored changes outside the workspace: ${outside.join(", ")}\n` : "";
      for (const f of failed) note += `${name}: the script's change was not kept: ${f}\n`;
      return {
        stdout: r.stdout,
        stderr: r.stderr + note,
        exitCode: failed.length && r.exitCode === 0 ? 1 : r.exitCode,
      };
    });
  const pip = (name: string) =>
    defineCommand(name, async () => ({
      stdout: "",
      stderr: PIP_MESSAGE,
      exitCode: 1,
    }));
  return [python("python3"), python("python"), pip("pip"), pip("pip3")];
}
