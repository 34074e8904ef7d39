/**
 * Commands the built-in shell does not have. They fail with exit 127 and say
 * where they do exist, instead of just-bash's bare "command not found".
 */
import type { CustomCommand, defineCommand as DefineCommand } from "just-bash";

/** Commands that need a real runtime (the WebContainer backend). */
export const RUNTIME_COMMANDS = ["node", "npm", "npx", "git", "python", "python3", "pip", "pip3", "yarn", "pnpm"] as const;

/** Node.js and its package managers: no engine in the local sandbox runs them. */
export const NODE_COMMANDS = ["node", "npm", "npx", "yarn", "pnpm"] as const;

/** Every "this needs Node.js" message ends with these words (the automatic mode recognises them to offer WebContainer). */
export const NEEDS_FULL_NODE = "the WebContainer backend (Settings → Sandbox) runs full Node.js";

export function missingCommandMessage(cmd: string): string {
  if ((NODE_COMMANDS as readonly string[]).includes(cmd))
    return `${cmd}: the local sandbox has no Node.js (it has a built-in shell, python3, git, sqlite3 and a QuickJS node for plain scripts); ${NEEDS_FULL_NODE} and npm.`;
  return `${cmd} needs the WebContainer backend (Settings → Sandbox); the local sandbox runs a built-in shell with common Unix commands only.`;
}

/** just-bash's gzip commands use Node's `Buffer`, which browsers (and Workers) lack. */
export const BUFFER_COMMANDS = ["gzip", "gunzip", "zcat"] as const;

export function missingCommands(
  defineCommand: typeof DefineCommand,
  hasBuffer: boolean = "Buffer" in globalThis,
  provided: readonly string[] = [],
): CustomCommand[] {
  const runtime = RUNTIME_COMMANDS.filter((name) => !provided.includes(name)).map((name) =>
    defineCommand(name, async () => ({ stdout: "", stderr: `${missingCommandMessage(name)}\n`, exitCode: 127 })),
  );
  if (hasBuffer) return runtime;
  const gzip = BUFFER_COMMANDS.map((name) =>
    defineCommand(name, async () => ({ stdout: "", stderr: `${name} is not available in the local sandbox in a browser.\n`, exitCode: 1 })),
  );
  return [...runtime, ...gzip];
}
