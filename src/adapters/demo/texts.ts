/**
 * The demo model's written answers (Markdown). Everything here is
 * deterministic: the same history gives the same words.
 */
import { PY_TEST } from "./python-project";
import { PY_STEP_NOTES } from "./python-script";
import { DEMO_BUG_LINE_NUMBER, DEMO_FIXED_LINE } from "./sample-project";
import type { StepId } from "./steps";
import type { Facts } from "./trace";

/** What the answers need to know about the request. */
export interface AnswerContext {
  goal: string;
  facts: Facts;
  /** The model's context window, for the context-meter explanation. */
  contextWindow: number;
  /** The size of this request, in the tokens the demo reports. */
  requestTokens: number;
  /** The check command the run used. */
  checkCommand: string;
}

const n = (v: number) => v.toLocaleString("en-US");

const CONNECT =
  "To work with a real model, open **Settings → provider** and choose OpenAI or any OpenAI-compatible server (Ollama, LM Studio, vLLM, OpenRouter…), then paste your key. The key stays in this browser: tabcode calls the provider straight from the tab.";

const TRY = "Prompts the demo knows: **Fix the date bug**, **Explain the project**, **Run the tests**, **Write a Python module with tests and commit it**, **What can you do?**";

/** What each step shows of the session mechanism: a short aside after the step's narration. */
export const STEP_NOTES: Record<StepId, string> = {
  plan: "This is a `todowrite` **tool call**. While its arguments stream in, the tool part is `pending`; then it runs and turns `completed`, and the list shows up in the todo panel.",
  explore: "Each model call is one **step**. Its `step-finish` records the tokens used; from this step on, most of the input counts as cached, because the start of the request is the same as last time.",
  readme: "Tool outputs go back to the model with the next request, so the **context meter** grows with every file read.",
  read: "The file's text goes back to the model with the next request: watch the **context meter** in the header grow. This demo model's window is deliberately small.",
  fix: "`edit` asks the permission rules before it writes, and the diff is stored on the tool part. Every step also snapshots the workspace, so this change can be **reverted** later.",
  check: "`bash` runs in the in-browser sandbox; the output streams into the tool part while the command runs.",
  done: "",
  ...PY_STEP_NOTES,
};

/** The check output lines, without the exit-code footer, as a fenced block. */
function checkBlock(facts: Facts): string {
  const lines = (facts.checkOutput ?? "").split("\n").filter((l) => l.trim() && !l.startsWith("Exit code:"));
  return lines.length ? ["```text", ...lines.slice(0, 12), "```"].join("\n") : "";
}

function quote(goal: string): string {
  const one = goal.replace(/\s+/g, " ").trim();
  return one.length > 80 ? `${one.slice(0, 77)}…` : one;
}

/** The answer at the end of the full run (step g). */
export function fixAnswer(c: AnswerContext, fixedNow: boolean): string {
  const pass = c.facts.check === "PASS";
  const head = fixedNow
    ? `Fixed. \`formatDate\` in \`src/dates.js\` printed the month one too low: JavaScript's \`getMonth()\` counts from 0 (January is 0), so March came out as \`02\`. Line ${DEMO_BUG_LINE_NUMBER} now reads \`${DEMO_FIXED_LINE.trim()}\`.`
    : "Nothing to fix: `formatDate` in `src/dates.js` already adds 1 to `getMonth()` (someone fixed it earlier in this workspace — maybe you, in an earlier run).";
  const block = checkBlock(c.facts);
  const end = block ? ":" : ".";
  const check = pass
    ? `\`${c.checkCommand}\` now prints **PASS** for all the cases in \`src/dates.test.js\`${end}`
    : `\`${c.checkCommand}\` still reports a **FAIL**, so something else changed in the project${block ? "; here is its output:" : "."}`;
  return [
    head,
    "",
    check,
    ...(block ? [block] : []),
    "",
    "### What you just watched",
    "",
    "I am **tabcode's demo model**: a scripted agent, not a real LLM. My words and tool calls are fixed in advance, but everything around them is the real session machinery a real model gets:",
    "",
    "- **Parts.** Each answer is an assistant message made of parts: `reasoning` (the thoughts above each step), `text`, `tool`, and the `step-start` / `step-finish` markers.",
    "- **Tool states.** Every call went `pending` (arguments streaming in) → `running` → `completed`, or `error` with the message sent back to the model. The `edit` asked the permission rules first and stored its diff on the part; the `bash` output streamed live.",
    "- **Steps and usage.** One model call is one step. Each `step-finish` records input, output, reasoning and cache-read tokens and the cost ($0 here); from the second step on, most of the input shows up as cached.",
    `- **The context meter** in the header shows how full the window is. The demo model has a deliberately small window (${n(c.contextWindow)} tokens); this request alone was about ${n(c.requestTokens)} tokens.`,
    "- **Compaction.** When the window fills up, tabcode has the model summarise the conversation into a *What did we do so far?* message and carries on from that summary. In longer sessions, old tool outputs from earlier turns are also cleared in batches when that costs less than re-sending them (prune).",
    "- **Fork and revert.** Every step snapshots the workspace. Revert this turn and the bug is back in `src/dates.js`; fork the session at any message to try another path.",
    "",
    TRY,
    "",
    CONNECT,
  ].join("\n");
}

/** The answer after "Explain the project". */
export function explainAnswer(): string {
  return [
    "This workspace holds **tiny-dates**, a very small date-formatting library (I read `README.md` and listed the files):",
    "",
    "- `src/dates.js`: `formatDate(date)` → `2024-03-05`, `formatShort(date)` → `5 Mar 2024`, plus `parseDate`, `daysBetween` and `isWeekend`.",
    "- `src/dates.test.js`: six test cases; `npm test` runs them where npm exists (the WebContainer sandbox).",
    "- `scripts/check.sh`: replays the same cases with `grep` and `awk`, for the local sandbox, which has no npm.",
    "- `AGENTS.md`: the house rules. tabcode puts this file into the system prompt of every request.",
    "- `notes/todo.md`: open tasks, according to the README (I haven't opened it).",
    "",
    "Ask me to **fix the date bug** to watch a full run: a todo list, reading, an edit, a check.",
    "",
    "(I'm the built-in demo model: this answer is scripted.)",
  ].join("\n");
}

/** How an answer after a scripted run ends. */
export const SCRIPTED_RUN = "(I'm the built-in demo model: this run is scripted.)";

/** What the sample's check printed, and what to do about it (the sample's verdict is in `c.facts.check`). */
export function checkReport(c: AnswerContext): string[] {
  const block = checkBlock(c.facts);
  const end = block ? ":" : ".";
  const verdict =
    c.facts.check === "PASS"
      ? `All the cases in \`src/dates.test.js\` pass${end}`
      : (c.facts.checkOutput ?? "").includes("-00-")
        ? `The check **fails**: every date comes out one month early (January even becomes month \`00\`)${end}`
        : `The check **fails**${end}`;
  const next = c.facts.check === "PASS" ? "Nothing to fix." : "The cause is in `formatDate` (`src/dates.js`). Ask me to **fix the date bug** and I'll show the whole loop.";
  return [`I ran \`${c.checkCommand}\`. ${verdict}`, ...(block ? ["", block] : []), "", next];
}

/** The answer after "Run the tests" in the sample project. */
export function testsAnswer(c: AnswerContext): string {
  return [...checkReport(c), "", SCRIPTED_RUN].join("\n");
}

/** The answer to "What can you do?". */
export function helpAnswer(c: AnswerContext): string {
  return [
    "This is **tabcode's demo model**: a scripted agent that runs inside this tab, with no API key and no network. I can't think, but I do real work in the sandbox, through the same tools a real model uses:",
    "",
    "- **Fix the date bug**: plan with a todo list, list the files, read `src/dates.js`, edit it, run the check, close the list (six tool calls, about a minute to watch).",
    "- **Explain the project**: list the files and read the README.",
    "- **Run the tests**: run the project's tests (the date check, or the Python demo's `unittest`) and report what they print.",
    "- **Write a Python module with tests and commit it**: write `temperature.py` and its `unittest`, run them with real Python in the tab (they fail), fix, run again, then `git init`, `git commit` and `git log`.",
    "",
    `Watch the context meter while I work: my window is deliberately small (${n(c.contextWindow)} tokens), so a long session shows compaction.`,
    "",
    CONNECT,
  ].join("\n");
}

/** The honest answer to anything else. */
export function fallbackAnswer(c: AnswerContext): string {
  const asked = c.goal.trim() ? `“${quote(c.goal)}”` : "that";
  return [
    `This is **tabcode's demo model**: a scripted agent built into tabcode, with no real understanding, so I can't answer ${asked} honestly — and I won't pretend to.`,
    "",
    TRY,
    "",
    CONNECT,
  ].join("\n");
}

/** Opens an answer given after the run was resumed from a compaction summary. */
export const COMPACTED_NOTE =
  "*(The context window filled up, so tabcode **compacted** the conversation: the earlier messages are now the “What did we do so far?” summary above, and I carried on from that summary alone.)*";

/** The short answer when a compaction's "continue" message finds nothing left to do. */
export function resumedAnswer(c: AnswerContext): string {
  const check = c.facts.check ? ` The last check printed **${c.facts.check}**.` : "";
  return [
    `The conversation was just **compacted**: the earlier messages were summarised into the *What did we do so far?* answer above, and I carried on from that summary alone.${check}`,
    "",
    "Everything on the list is done. The full history is still in the session — scroll up; it is only hidden from the model now.",
  ].join("\n");
}

/** An error's first line, at most 300 characters. */
function firstLine(error: string): string {
  const first = error.split("\n").find((l) => l.trim()) ?? "unknown error";
  return first.length > 300 ? `${first.slice(0, 297)}…` : first;
}

/** A tool call failed: say so and stop. */
export function errorAnswer(tool: string, error: string): string {
  return [
    `The \`${tool}\` call failed: *${firstLine(error)}*`,
    "",
    "A real model would read that error and try another way. I'm the scripted demo model, so I stop here instead of guessing. Send a new prompt (for example **Fix the date bug**) to start over.",
  ].join("\n");
}

/** A step's tool is not offered to this agent. */
export function missingToolAnswer(tool: string): string {
  return [
    `I would need the \`${tool}\` tool for the next step, but it isn't offered in this session (the agent or a \`deny\` permission rule removed it). So I stop here.`,
    "",
    "Switch to the **build** agent, or allow the tool in Settings → permissions, and ask again.",
  ].join("\n");
}

/** Where to go from a workspace without the sample project. */
const ELSEWHERE = [
  "- To watch the whole run, open the guided demo: **?** (beside Settings, in the sessions panel) → **Restart the tour** starts a session with the sample project.",
  "- Ask me for the **Python demo**: it writes its own files, so it runs in any workspace.",
  "- To work on your own files, connect a real model in **Settings**.",
];

/** The workspace does not hold the sample project (a new session on the demo model starts empty). */
export function noProjectAnswer(): string {
  return [
    "This workspace doesn't hold the demo's sample project: the listing shows no `src/dates.js`. I'm the scripted demo model, and my scripts only know that little date library, so I stop here rather than pretend.",
    "",
    ...ELSEWHERE,
  ].join("\n");
}

/** "Run the tests" where the check printed no verdict on the sample's cases: not there, or not the sample's. `looked`: a listing then showed no Python demo tests either. */
export function noTestsAnswer(c: AnswerContext, looked = false): string {
  const block = checkBlock(c.facts);
  const head =
    c.facts.project === "other"
      ? `This workspace doesn't hold the demo's sample project: I ran \`${c.checkCommand}\`, but there is no check here to run, so there are no test results to report${block ? ". It printed:" : "."}`
      : `I ran \`${c.checkCommand}\`, but it did not check the sample project's date cases (no \`PASS\` or \`FAIL\` line for them), so there are no test results I can report: this workspace doesn't seem to hold the demo's sample project${block ? ". It printed:" : "."}`;
  return [
    head,
    ...(block ? ["", block] : []),
    ...(looked ? ["", `I also listed the files: there are no tests of the Python demo (\`${PY_TEST}\`) either.`] : []),
    "",
    "I'm the scripted demo model, and my scripts only know the sample project, a little date library, so I stop here rather than pretend.",
    "",
    ...ELSEWHERE,
  ].join("\n");
}

/** The workspace cannot be seen: no tool to list it is offered, or the listing failed (`failed`: its output). */
export function cannotLookAnswer(failed?: string): string {
  const head =
    failed === undefined
      ? "I can't look at the files in this workspace: this session offers none of the tools I list them with (`list`, `glob` or `bash`; the agent or a `deny` permission rule removed them)."
      : `I tried to list the files in this workspace, but the listing failed: *${firstLine(failed)}*`;
  return [
    `${head} I'm the scripted demo model, and I won't read or change files I haven't seen, so I stop here.`,
    "",
    "Allow `list` (or `glob`) in Settings → permissions, or switch to the **build** agent, and ask again.",
  ].join("\n");
}

/** `src/dates.js` is not the sample's any more. */
export function unknownFileAnswer(): string {
  return "`src/dates.js` doesn't contain the month line I expect — the sample project was changed. I'm the scripted demo model, so I won't guess an edit. Reset the demo project, or connect a real model (Settings → provider).";
}

/** The max-steps wrap-up: text only. */
export function wrapUpAnswer(done: string[], left: string[]): string {
  return [
    "I've reached the step limit for this turn, so no more tool calls.",
    "",
    `- Done: ${done.length ? done.join("; ") : "nothing yet"}.`,
    `- Left: ${left.length ? left.join("; ") : "nothing"}.`,
    "",
    "Send another message to let me continue.",
  ].join("\n");
}
