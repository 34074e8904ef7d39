/**
 * The engines the local sandbox can run besides just-bash's own commands.
 * Each is optional: a sandbox without one keeps the "needs WebContainer"
 * answer for its commands.
 */
import type { CustomCommand, defineCommand as DefineCommand } from "just-bash";
import type { EngineHost } from "./engine-protocol";
import { gitCommand } from "./git-command";
import { nodeCommands, PACKAGE_MANAGERS } from "./node-command";
import { pythonCommands } from "./python-command";
import { sqliteCommand } from "./sqlite-command";

export interface LocalRuntimes {
  python?: EngineHost;
  git?: boolean;
  /** sqlite3 over workspace database files (sqlite-wasm). */
  sqlite?: EngineHost;
  /** node for plain scripts (QuickJS); npm/npx/yarn/pnpm explain what they need. */
  node?: EngineHost;
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
  if (runtimes.sqlite) out.push(sqliteCommand(defineCommand, { host: runtimes.sqlite, ...ctx }));
  if (runtimes.node) out.push(...nodeCommands(defineCommand, { host: runtimes.node, ...ctx }));
  return out;
}

/** Names of the commands the given engines provide (for the system prompt). */
export function runtimeCommandNames(runtimes: LocalRuntimes): string[] {
  const names: string[] = [];
  if (runtimes.python) names.push("python3", "python", "pip", "pip3");
  if (runtimes.git) names.push("git");
  if (runtimes.sqlite) names.push("sqlite3");
  if (runtimes.node) names.push("node", ...PACKAGE_MANAGERS);
  return names;
}
