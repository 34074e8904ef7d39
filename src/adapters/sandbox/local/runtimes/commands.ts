/**
 * The engines the local sandbox can run besides just-bash's own commands.
 * Each is optional: a sandbox without one keeps the "needs WebContainer"
 * answer for its commands.
 */
import type { CustomCommand, defineCommand as DefineCommand } from "just-bash";
import { gitCommand } from "./git-command";
import { pythonCommands } from "./python-command";
import type { PythonHost } from "./python-protocol";

export interface LocalRuntimes {
  python?: PythonHost;
  git?: boolean;
}

export interface RuntimeContext {
  root: string;
  timeoutMs: () => number;
  progress: (text: string) => void;
}

export function runtimeCommands(defineCommand: typeof DefineCommand, runtimes: LocalRuntimes, ctx: RuntimeContext): CustomCommand[] {
  const out: CustomCommand[] = [];
  if (runtimes.python) out.push(...pythonCommands(defineCommand, { host: runtimes.python, ...ctx }));
  if (runtimes.git) out.push(gitCommand(defineCommand, ctx.root));
  return out;
}

/** Names of the commands the given engines provide (for the system prompt). */
export function runtimeCommandNames(runtimes: LocalRuntimes): string[] {
  const names: string[] = [];
  if (runtimes.python) names.push("python3", "python", "pip", "pip3");
  if (runtimes.git) names.push("git");
  return names;
}
