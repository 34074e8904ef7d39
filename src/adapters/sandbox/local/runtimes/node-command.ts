/**
 * `node` (QuickJS) and the package managers as just-bash commands. node gets
 * a copy of the workspace view; the files a script wrote or deleted come back
 * through the sandbox fs, so tracking, persistence and protect rules apply.
 * npm, npx, yarn and pnpm explain that packages need the WebContainer backend.
 */
import type { CustomCommand, defineCommand as DefineCommand } from "just-bash";
import type { EngineHost } from "./engine-protocol";
import { NODE_FULL } from "./node-args";
import { decodeStdin } from "./python-command";
import { applyChanges, changeNotes, collectView, ViewTooLargeError } from "./workspace-view";

export interface NodeCommandDeps {
  host: EngineHost;
  root: string;
  timeoutMs: () => number;
  progress?: (text: string) => void;
}

export const PACKAGE_MANAGERS = ["npm", "npx", "yarn", "pnpm"] as const;

export function packageManagerMessage(name: string): string {
  return `${name}: the local sandbox has no npm registry or Node.js package support (its node is QuickJS for plain scripts with Node's core modules); ${NODE_FULL} and npm.\n`;
}

export function nodeCommands(defineCommand: typeof DefineCommand, deps: NodeCommandDeps): CustomCommand[] {
  const node = defineCommand("node", async (args, ctx) => {
    if (ctx.cwd !== deps.root && !ctx.cwd.startsWith(`${deps.root}/`))
      return { stdout: "", stderr: `node: node runs inside the workspace (${deps.root}) only\n`, exitCode: 1 };
    let files: Awaited<ReturnType<typeof collectView>>;
    try {
      files = await collectView(ctx.fs, deps.root);
    } catch (e) {
      if (e instanceof ViewTooLargeError) return { stdout: "", stderr: `node: ${e.message}; node cannot run over it\n`, exitCode: 1 };
      throw e;
    }
    const env = Object.fromEntries(ctx.exportedEnv ? Object.entries(ctx.exportedEnv) : ctx.env.entries());
    const r = await deps.host.run(
      { files, cwd: ctx.cwd, args, stdin: decodeStdin(ctx.stdin), env, timeoutMs: deps.timeoutMs() },
      { timeoutMs: deps.timeoutMs(), signal: ctx.signal, onProgress: deps.progress },
    );
    const applied = await applyChanges(ctx.fs, deps.root, r.writes, r.removes);
    return { stdout: r.stdout, stderr: r.stderr + changeNotes("node", applied), exitCode: applied.refused.length && !r.exitCode ? 1 : r.exitCode };
  });
  const managers = PACKAGE_MANAGERS.map((name) => defineCommand(name, async () => ({ stdout: "", stderr: packageManagerMessage(name), exitCode: 1 })));
  return [node, ...managers];
}
