/**
 * The demo model's scripts: which prompt runs which steps, in what order.
 * A step is one tool call; the run ends with a text answer.
 */
import { LOOK_TOOLS } from "./env";

export const STEP_IDS = ["plan", "explore", "readme", "read", "fix", "check", "done", "py-module", "py-test", "py-run", "py-fix", "py-rerun", "py-commit", "py-log"] as const;
/** One scripted tool call. */
export type StepId = (typeof STEP_IDS)[number];

/** What the prompt asked for. */
export type ScriptKind = "fix" | "explain" | "tests" | "python" | "help" | "fallback";

/** The steps of each script, in order (help and fallback answer in text only; "Run the tests" chooses its own: `tests-script.ts`). */
export const SCRIPTS: Record<ScriptKind, readonly StepId[]> = {
  fix: ["plan", "explore", "read", "fix", "check", "done"],
  explain: ["explore", "readme"],
  tests: ["check"],
  python: ["py-module", "py-test", "py-run", "py-fix", "py-rerun", "py-commit", "py-log"],
  help: [],
  fallback: [],
};

/** How each step reads in a summary's "Accomplished" list. */
const STEP_LABELS: Record<StepId, string> = {
  plan: "Planned the work with todowrite",
  explore: "Listed the project files",
  readme: "Read README.md",
  read: "Read src/dates.js",
  fix: "Fixed the month in formatDate (src/dates.js)",
  check: "Ran the date check",
  done: "Marked the todo list completed",
  "py-module": "Wrote temperature.py",
  "py-test": "Wrote test_temperature.py",
  "py-run": "Ran the Python tests",
  "py-fix": "Fixed the offset in to_fahrenheit (temperature.py)",
  "py-rerun": "Ran the Python tests again",
  "py-commit": "Committed with git",
  "py-log": "Showed the git history",
};

/** How a step reads in lists ("Read src/dates.js"). */
export function stepLabel(step: StepId): string {
  return STEP_LABELS[step];
}

/** The line a summary carries for a finished step (read back after a compaction). */
export function doneMarker(step: StepId): string {
  return `[x] ${STEP_LABELS[step]}`;
}

/** The line a summary carries for a step still to do. */
export function todoMarker(step: StepId): string {
  return `[ ] ${STEP_LABELS[step]}`;
}

/** Tools a step can use, preferred first. */
export const STEP_TOOLS: Record<StepId, readonly string[]> = {
  plan: ["todowrite"],
  explore: LOOK_TOOLS,
  readme: ["read"],
  read: ["read"],
  fix: ["edit"],
  check: ["bash"],
  done: ["todowrite"],
  "py-module": ["write"],
  "py-test": ["write"],
  "py-run": ["bash"],
  "py-fix": ["edit"],
  "py-rerun": ["bash"],
  "py-commit": ["bash"],
  "py-log": ["bash"],
};

/** What a script does next: a step with the tool it uses, or a stop (a tool not offered, no way to look, no sample project…), or its answer. */
export type Next =
  | { type: "step"; step: StepId; tool: string }
  | { type: "missing"; tool: string }
  | { type: "unknown-file" }
  | { type: "no-project" }
  | { type: "cannot-look" }
  | { type: "answer" };

/** Steps that are skipped (not refused) when their tool is not offered. The look around is not one: without it the demo would go on blind. */
export const OPTIONAL_STEPS: ReadonlySet<StepId> = new Set(["plan", "done"]);

const has = (text: string, re: RegExp) => re.test(text);

/** Picks the script for a prompt. */
export function classify(prompt: string): ScriptKind {
  const t = prompt.toLowerCase();
  if (!t.trim()) return "fallback";
  if (has(t, /\b(python3?|unittest|pytest|git|commit)\b/)) return "python";
  if (has(t, /\b(fix|bug|repair|debug|broken|wrong)\b/)) return "fix";
  if (has(t, /\b(explain|describe|overview|walk me through|look around)\b|what(?:'s| is) (?:in )?(?:this|the) (?:project|repo|code)|tell me about/)) return "explain";
  if (has(t, /\b(tests?|check|verify)\b/)) return "tests";
  if (has(t, /what can you do|what do you do|who are you|what are you|\bhelp\b|how does (?:this|it) work|capabilit|^\s*(?:hi|hello|hey)\b/)) return "help";
  if (has(t, /\b(demo|start|show|tour|try|go|run|date|dates|month|begin|example)\b/)) return "fix";
  return "fallback";
}
