/**
 * What the demo model reads from a request besides its history: the sandbox,
 * the working directory, the tools offered, and whether the project's
 * AGENTS.md is in the system prompt. Also the shape of one reply.
 */
import type { LLMRequest } from "../../core/ports/llm";

/** One step of the demo model: optional narration, then a tool call or (without one) the answer. */
export interface Reply {
  reasoning: string;
  text: string;
  call?: { tool: string; input: Record<string, unknown> };
}

/** What the request says about the environment. */
export interface DemoEnv {
  root: string;
  webcontainer: boolean;
  tools: ReadonlySet<string>;
  /** The project's AGENTS.md is part of the system prompt. */
  rules: boolean;
  /** The sandbox lists python3 among its programs. */
  python: boolean;
}

export function envOf(req: Pick<LLMRequest, "system" | "tools">): DemoEnv {
  const system = req.system.join("\n");
  const root = /Working directory: (\/\S*)/.exec(system)?.[1] ?? "/workspace";
  return {
    root: root.replace(/\/+$/, "") || "/",
    webcontainer: /Sandbox: webcontainer/.test(system),
    tools: new Set(req.tools.map((t) => t.name)),
    rules: system.includes("bash scripts/check.sh"),
    python: /Programs: .*\bpython3\b/.test(system),
  };
}

export function abs(env: DemoEnv, rel: string): string {
  return env.root === "/" ? `/${rel}` : `${env.root}/${rel}`;
}

/** The check command for the sandbox: node where there is node, else the shell replay. */
export function checkCommand(env: DemoEnv): string {
  return env.webcontainer ? "npm test" : "bash scripts/check.sh";
}

/** The tools that can list the workspace, preferred first: `bash` runs `ls -R` where `list` and `glob` are not offered. */
export const LOOK_TOOLS = ["list", "glob", "bash"] as const;

/** The listing command `bash` runs. */
export const LS_COMMAND = "ls -R";

/** The first tool this request offers to list the workspace with, if any. */
export function lookTool(env: DemoEnv): string | undefined {
  return LOOK_TOOLS.find((t) => env.tools.has(t));
}

/** The input of a listing of the whole workspace with `tool`. */
export function lookInput(tool: string, env: DemoEnv): Record<string, unknown> {
  if (tool === "list") return { path: env.root };
  if (tool === "glob") return { pattern: "**/*", path: env.root };
  return { command: `${LS_COMMAND} ${env.root}`, description: "List the files in the workspace" };
}
