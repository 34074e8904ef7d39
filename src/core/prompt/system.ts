import type { ModelConfig } from "../ports/llm";

/** The stable header: what tabcode is and how it works. Kept byte-identical across turns for prompt caching. */
export const BASE_PROMPT = `You are tabcode, a coding agent running entirely inside the user's browser tab.
You help with software tasks in a sandboxed workspace: read and edit files, run shell commands, and explain what you did.

Guidelines:
- Be concise. Answer in Markdown. Show code in fenced blocks with a language.
- Use the tools to inspect files before changing them; never guess file contents.
- Prefer small, precise edits. After changing code, check the result (read the file again or run a command).
- Keep a todo list with the todowrite tool for tasks with several steps, and update it as you go.
- When you are done, say briefly what changed and what is left.`;

export interface EnvironmentInfo {
  model: ModelConfig;
  directory: string;
  sandbox: string;
  /** The session's start date (fixed per session so the prompt stays byte-stable). */
  date: string;
}

/** What the local sandbox can run, so the model does not try what cannot work there. */
export const LOCAL_SANDBOX_PROGRAMS =
  "a bash-like shell with common Unix commands, python3/python (standard library only, no pip), git (local repositories: init, status, add, rm, commit, log, diff, show, branch, checkout, switch, restore, reset, rev-parse, config), sqlite3 (database files in the workspace; .tables, .schema, .mode csv|json|column|box…), node for plain scripts (QuickJS: fs, path, os, util, events, assert, require/import of workspace files; no npm packages, network or child_process); no npm/npx, network or package installs";

export function environmentBlock(env: EnvironmentInfo): string {
  return [
    `You are powered by the model ${env.model.modelID} (provider: ${env.model.provider}).`,
    "Here is some useful information about the environment you are running in:",
    "<env>",
    `  Working directory: ${env.directory}`,
    `  Sandbox: ${env.sandbox}`,
    ...(env.sandbox.startsWith("local") ? [`  Programs: ${LOCAL_SANDBOX_PROGRAMS}`] : []),
    "  Platform: browser",
    `  Today's date: ${env.date}`,
    "</env>",
  ].join("\n");
}

/**
 * System prompt sections: [stable header, environment + instructions + skills].
 * `header` replaces the base prompt (an agent's own prompt).
 */
export function buildSystem(env: EnvironmentInfo, extra: string[] = [], header: string = BASE_PROMPT): string[] {
  return [header, [environmentBlock(env), ...extra].filter((s) => s.length > 0).join("\n\n")];
}
