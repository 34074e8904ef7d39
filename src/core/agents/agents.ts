/**
 * Built-in agents (spec §6.2): `build` does the work, `plan` only looks and
 * writes plans. An agent is a name, a description, permission rules layered
 * over the defaults, and a mode reminder for the system prompt.
 */
import { DEFAULT_RULES, isToolDisabled } from "../permission/evaluate";
import type { Ruleset } from "../schema";
import type { Tool } from "../tools/tool";

/** An agent the user can switch to. */
export interface AgentInfo {
  name: string;
  /** One line for pickers and for the model. */
  description: string;
  /** Rules layered over `DEFAULT_RULES` (before the user's own rules). */
  rules: Ruleset;
  /** Mode text added to the system prompt while this agent runs. */
  reminder: string;
  /** Replaces the base prompt when set. */
  prompt?: string;
}

/** Where the plan agent may write its plans (relative to the workspace root). */
export const PLAN_DIR = ".tabcode/plans";

/**
 * Shell commands the plan agent may run without asking: they only read. Every
 * other command asks. Notes:
 * - file writes through redirections (`cat a > b`) are separate `> b` patterns, so they ask;
 * - wrapped and nested commands are checked on their own (`env rm x` asks for `rm x`);
 * - `find` is allowed, but its writing or executing actions ask (`-delete`, `-exec`, `-fprint`…);
 * - `git … --output`, `sort -o`, `tree -o` and `tree -R` write files, so they ask;
 * - `sed`, `awk`, `xargs` and interpreters are left out: they can write or run anything.
 */
export const READ_ONLY_COMMANDS = [
  "ls", "cat", "head", "tail", "wc", "grep", "rg", "find", "tree", "pwd", "echo", "printf", "file", "stat", "du", "df",
  "which", "type", "sort", "uniq", "diff", "cmp", "basename", "dirname", "realpath", "readlink", "date", "whoami", "uname",
  "git status", "git diff", "git log", "git show", "git ls-files", "git blame", "git rev-parse", "git grep",
  "git branch --show-current", "git remote -v",
];
const ASK_AGAIN = [
  "find *-delete*", "find *-exec*", "find *-ok*", "find *-fprint*", "find *-fls*",
  // `--output` writes a file for every git command that prints a diff or log (diff, log, show…)
  "git *--output*",
  // `sort -o`/`--output`, `tree -o FILE`, and `tree -R` (writes 00Tree.html files with -H)
  "sort *-o*", "tree *-o*", "tree *-R*",
];

const bash = (pattern: string, action: "allow" | "ask" | "deny") => ({ permission: "bash", pattern, action }) as const;

export const BUILD_AGENT: AgentInfo = {
  name: "build",
  description: "Does the work: reads, edits and runs commands in the workspace.",
  rules: [
    { permission: "question", pattern: "*", action: "allow" },
    { permission: "plan_enter", pattern: "*", action: "allow" },
  ],
  reminder: "You are in build mode: you may edit files and run commands to carry out the task.",
};

export const PLAN_AGENT: AgentInfo = {
  name: "plan",
  description: "Read-only: investigates and writes a plan, without changing the workspace.",
  rules: [
    { permission: "edit", pattern: "*", action: "deny" },
    { permission: "edit", pattern: `${PLAN_DIR}/*.md`, action: "allow" },
    { permission: "question", pattern: "*", action: "allow" },
    { permission: "plan_exit", pattern: "*", action: "allow" },
    bash("*", "ask"),
    ...READ_ONLY_COMMANDS.map((c) => bash(`${c} *`, "allow")),
    ...ASK_AGAIN.map((p) => bash(p, "ask")),
  ],
  reminder: [
    "You are in plan mode: read-only. Do not edit files, change configuration or run commands with side effects.",
    "Investigate with the read, list, glob and grep tools and read-only shell commands (other commands need the user's approval).",
    `You may write your plan as a Markdown file in ${PLAN_DIR}/. When the plan is ready, present it and ask the user to switch to build mode to carry it out.`,
  ].join("\n"),
};

/** The built-in agents by name. */
export const AGENTS: Readonly<Record<string, AgentInfo>> = { build: BUILD_AGENT, plan: PLAN_AGENT };

/** An agent by name; unknown names fall back to `build`. */
export function agentByName(name: string | undefined): AgentInfo {
  return (name !== undefined && AGENTS[name]) || BUILD_AGENT;
}

function resolve(agent: AgentInfo | string): AgentInfo {
  return typeof agent === "string" ? agentByName(agent) : agent;
}

/**
 * The configured rules for an agent, in merge order: built-in defaults →
 * agent overrides → the user's global rules → the session's rules (last match
 * wins, so later layers override earlier ones). "Always" approvals are kept by
 * the broker and can never outrank a deny from these layers.
 */
export function rulesFor(agent: AgentInfo | string, globalRules: Ruleset = [], sessionRules: Ruleset = []): Ruleset {
  return [...DEFAULT_RULES, ...resolve(agent).rules, ...globalRules, ...sessionRules];
}

/** The permission key a tool is checked under (`write`, `patch`, `multiedit` share `edit`). */
export function toolPermission(toolID: string): string {
  return ["edit", "write", "patch", "multiedit", "apply_patch"].includes(toolID) ? "edit" : toolID;
}

/**
 * The tools offered to the model for an agent: every tool except those whose
 * permission's last matching rule is `deny *` (spec §6.2). `rulesets` are the
 * user's layers (global, session) applied after the defaults and the agent.
 */
export function toolsFor(agent: AgentInfo | string, allTools: Tool[], rulesets: Ruleset[] = []): Tool[] {
  const layers = [DEFAULT_RULES, resolve(agent).rules, ...rulesets];
  return allTools.filter((t) => !isToolDisabled(toolPermission(t.id), ...layers));
}
