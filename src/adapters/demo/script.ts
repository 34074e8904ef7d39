/**
 * The demo model's decision for one chat step: from the request alone it
 * works out the current prompt, which steps of its script are done (tool
 * results since that prompt, or a compaction summary), and answers with the
 * next tool call or the final text — like a real model, without memory.
 */
import type { LLMRequest } from "../../core/ports/llm";
import { abs, checkCommand, type DemoEnv, envOf, lookInput, lookTool, type Reply } from "./env";
import { isPythonStep, type PythonStep, pythonAnswer, pythonStep } from "./python-script";
import { DEMO_BUGGY_LINE, DEMO_FIXED_LINE, DEMO_BUG_LINE_NUMBER as line } from "./sample-project";
import { classify, type Next, OPTIONAL_STEPS, SCRIPTS, type ScriptKind, STEP_TOOLS, type StepId, stepLabel } from "./steps";
import { runTestsAnswer, scriptSteps, testsNext, testsReasoning, testsStep } from "./tests-script";
import {
  type AnswerContext,
  COMPACTED_NOTE,
  cannotLookAnswer,
  errorAnswer,
  explainAnswer,
  fallbackAnswer,
  fixAnswer,
  helpAnswer,
  missingToolAnswer,
  noProjectAnswer,
  resumedAnswer,
  STEP_NOTES,
  unknownFileAnswer,
  wrapUpAnswer,
} from "./texts";
import { chatTrace, type Progress, progress } from "./trace";

const PLAN = [
  "Look around the project: code, tests, scripts",
  "Find where dates are formatted and why they are wrong",
  "Fix the bug with the smallest possible edit",
  "Run the project's check and confirm it passes",
];

/** The plan closed early: the rest cannot run (the sample project is not there, or the workspace cannot be seen); `looked`: the look around was done. */
function closedTodos(looked: boolean) {
  return todos(false).map((t, i) => ({ ...t, status: i === 0 && looked ? "completed" : "cancelled" }));
}

function todos(allDone: boolean) {
  return PLAN.map((content, i) => ({
    id: String(i + 1),
    content,
    status: allDone ? "completed" : i === 0 ? "in_progress" : "pending",
    priority: i === 1 || i === 2 ? "high" : "medium",
  }));
}

/** The tool call, narration and reasoning of one scripted step, with its demo note. */
function stepReply(kind: ScriptKind, step: StepId, tool: string, env: DemoEnv, p: Progress): Reply {
  const reply =
    kind === "tests" && (step === "explore" || step === "py-run")
      ? testsStep(step, tool, env, p)
      : isPythonStep(step)
        ? pythonStep(step, tool, (rel) => abs(env, rel), p.facts)
        : scriptedStep(step, tool, env, p);
  const note = STEP_NOTES[step];
  return note ? { ...reply, text: `${reply.text}\n\n*${note}*` } : reply;
}

function scriptedStep(step: Exclude<StepId, PythonStep>, tool: string, env: DemoEnv, p: Progress): Reply {
  const goal = p.goal.replace(/\s+/g, " ").trim().slice(0, 80);
  switch (step) {
    case "plan":
      return {
        reasoning: `The user asked: "${goal}". I don't know this code yet, so no guessing: first see what the project contains, then find where dates are formatted, fix the bug there with the smallest edit, and finally run whatever check the project has to prove it. Four steps, so a todo list is worth it: the user can follow along, and it keeps track of what is left.`,
        text: "I'll track this with a todo list, so you can follow each step in the todo panel.",
        call: { tool, input: { todos: todos(false) } },
      };
    case "explore": {
      const why = p.goal && classify(p.goal) === "explain" ? "The user wants an overview. A listing of the files comes first, then the README." : "First item of the plan: the shape of the project. A tree listing is cheap and shows which files exist and where the code, the tests and any scripts live, so I can choose what to read instead of opening files at random.";
      return {
        reasoning: why,
        text: "First, a look at the files in the workspace.",
        call: { tool, input: lookInput(tool, env) },
      };
    }
    case "readme":
      return {
        reasoning: "A handful of small files. The README should say what the project is for; reading it is cheaper than reading all the code.",
        text: "Now the README.",
        call: { tool, input: { filePath: abs(env, "README.md") } },
      };
    case "read":
      return {
        reasoning:
          "The listing shows a single source file, src/dates.js, with src/dates.test.js next to it, scripts/check.sh to run the cases, and a notes folder. The date bug must be in src/dates.js. I'll read the whole file: it is small, and the edit tool refuses to change a file that was not read first (or that changed since), which prevents editing blind.",
        text: "All the date code is in `src/dates.js`, with its test beside it. Let me read it.",
        call: { tool, input: { filePath: abs(env, "src/dates.js") } },
      };
    case "fix":
      return {
        reasoning: `Line ${line}: \`${DEMO_BUGGY_LINE.trim()}\`. Date.prototype.getMonth() is zero-based (January = 0, December = 11), so every month comes out one too low, and January even becomes 00. The rest checks out: formatShort uses getMonth() as an index into MONTHS, where zero-based is exactly right, and parseDate already subtracts 1 when it builds a Date. So the smallest correct fix is adding 1 on line ${line}, nothing else.`,
        text: `Found it: line ${line} passes \`date.getMonth()\` straight to \`pad\`, but JavaScript months count from 0. \`formatShort\` is fine (it indexes \`MONTHS\`), and \`parseDate\` already subtracts 1. One-line fix:`,
        call: { tool, input: { filePath: abs(env, "src/dates.js"), oldString: DEMO_BUGGY_LINE.trim(), newString: DEMO_FIXED_LINE.trim() } },
      };
    case "check": {
      const command = checkCommand(env);
      const how = env.webcontainer
        ? "This sandbox has node, so npm test runs src/dates.test.js directly."
        : "This sandbox has no npm (its node is a small engine for plain scripts), so I'll use scripts/check.sh: it replays the cases of src/dates.test.js with grep and awk.";
      const rule = env.rules ? " AGENTS.md (in my system prompt) asks for the check after any change in src/." : "";
      const intro = p.done.has("fix") ? `The edit is in.${rule}` : "Time to see what the check says.";
      return {
        reasoning: `${intro} ${how} ${p.done.has("fix") ? "If the fix is right, every case prints ok and the last line says PASS; otherwise the FAIL lines show which dates still come out wrong." : "Each case prints ok or FAIL, and the last line sums up."}`,
        text: env.webcontainer ? "Running the tests with node:" : "No npm in this sandbox, so the check replays the test cases with `grep` and `awk`:",
        call: { tool, input: { command, description: env.webcontainer ? "Run the date tests with node" : "Replay the date test cases with awk" } },
      };
    }
    case "done":
      return {
        reasoning:
          p.facts.check === "PASS"
            ? "The check prints ok for every case and ends with PASS, exit code 0. That was the last open item, so all four todos are done. Close the list first, so the side panel matches reality, then explain what happened."
            : "The check did not pass, but every step of the plan ran. Close the list and report honestly.",
        text: p.facts.check === "PASS" ? "**PASS**. Closing the todo list." : "Closing the todo list.",
        call: { tool, input: { todos: todos(true) } },
      };
  }
}

function next(kind: ScriptKind, p: Progress, env: DemoEnv): Next {
  if (kind === "tests") return testsNext(p, env);
  // The scripts that look around do nothing before the look: without a tool to look with (or when the listing failed), they stop instead of going on blind.
  if (SCRIPTS[kind].includes("explore") && p.facts.project === undefined) {
    if (p.facts.lookFailed !== undefined || (!p.done.has("explore") && !lookTool(env))) return { type: "cannot-look" };
  }
  for (const step of SCRIPTS[kind]) {
    if (p.done.has(step)) continue;
    if (step === "fix" && p.facts.bug === "fixed") continue;
    if (step === "fix" && p.facts.bug === "unknown") return { type: "unknown-file" };
    // The fix and the tour of the project are written for the sample project: without it, say so rather than read files the listing did not show.
    if ((step === "read" || step === "readme") && p.facts.project === "other") return { type: "no-project" };
    if (step === "done" && !p.done.has("plan")) continue;
    // Tests that pass at once need no fix; without python3 (or git) there is nothing to go on with.
    if ((step === "py-fix" || step === "py-rerun") && p.facts.pyTests === "OK") continue;
    if (isPythonStep(step) && (p.facts.pyTests === "missing" || p.facts.pyTests === "none" || p.facts.pyCommit === "missing")) return { type: "answer" };
    const tool = STEP_TOOLS[step].find((t) => env.tools.has(t));
    if (tool) return { type: "step", step, tool };
    if (!OPTIONAL_STEPS.has(step)) return { type: "missing", tool: STEP_TOOLS[step][0] ?? step };
  }
  return { type: "answer" };
}

function answer(kind: ScriptKind, p: Progress, ctx: AnswerContext, env: DemoEnv): string {
  if (p.continued && p.answered) return resumedAnswer(ctx);
  const note = p.continued ? `${COMPACTED_NOTE}\n\n` : "";
  return note + scriptAnswer(kind, p, ctx, env);
}

function scriptAnswer(kind: ScriptKind, p: Progress, ctx: AnswerContext, env: DemoEnv): string {
  switch (kind) {
    case "fix":
      return fixAnswer(ctx, p.done.has("fix"));
    case "explain":
      return explainAnswer();
    case "tests":
      return runTestsAnswer(p, ctx, env);
    case "python":
      return pythonAnswer(p.facts, p.done.has("py-fix"));
    case "help":
      return helpAnswer(ctx);
    case "fallback":
      return fallbackAnswer(ctx);
  }
}

const ANSWER_REASONING: Record<Exclude<ScriptKind, "tests">, string> = {
  fix: "Every step is done. Now a clear answer: what was wrong, what changed, how it was checked, and what the user just watched.",
  explain: "I have the file list and the README. Enough for a short tour of the project.",
  python: "Module, tests, fix, commit: all done. Say what was built, what the tests caught, and what ran where.",
  help: "The user asks what I can do. I'm the scripted demo model: say so, list the prompts I know, and how to connect a real model.",
  fallback: "This is not a prompt my script knows. Be honest: I'm a demo model and cannot really answer; point to the prompts I know and to Settings.",
};

/** Why the run ends here ("Run the tests" says which results it has, if any). */
function answerReasoning(kind: ScriptKind, p: Progress, env: DemoEnv): string {
  return kind === "tests" ? testsReasoning(p, env.rules) : ANSWER_REASONING[kind];
}

/** A todo list this run made is still open (and can be closed). */
function planOpen(p: Progress, env: DemoEnv): boolean {
  return p.done.has("plan") && !p.done.has("done") && env.tools.has("todowrite");
}

/** The demo model's reply to a chat request. `requestTokens` is the size it reports for the request. */
export function decide(req: LLMRequest, requestTokens: number): Reply {
  const p = progress(chatTrace(req.messages), req.messages);
  const env = envOf(req);
  const kind = p.goal ? classify(p.goal) : p.continued ? "fix" : "fallback";
  const ctx: AnswerContext = { goal: p.goal, facts: p.facts, contextWindow: req.model.contextWindow, requestTokens, checkCommand: checkCommand(env) };
  if (p.lastError) {
    return { reasoning: `The ${p.lastError.tool} call returned an error. I'm scripted, so I should not improvise: report it and stop.`, text: errorAnswer(p.lastError.tool, p.lastError.output) };
  }
  if (p.wrapUp) {
    const steps = scriptSteps(kind, p, env.rules);
    return {
      reasoning: "The step limit is reached: no more tool calls. Summarise what was done and what is left.",
      text: wrapUpAnswer(steps.filter((s) => p.done.has(s)).map(stepLabel), steps.filter((s) => !p.done.has(s)).map(stepLabel)),
    };
  }
  if (kind === "python" && (env.webcontainer || !env.python) && !p.done.size)
    return {
      reasoning: "The user wants the Python demo, but this sandbox does not list python3 among its programs. Say so instead of trying.",
      text: pythonAnswer({ pyTests: "missing" }, false),
    };
  const n = next(kind, p, env);
  switch (n.type) {
    case "step":
      return stepReply(kind, n.step, n.tool, env, p);
    case "missing":
      return { reasoning: `The next step needs the ${n.tool} tool, which this request does not offer.`, text: missingToolAnswer(n.tool) };
    case "unknown-file":
      return { reasoning: "src/dates.js does not contain the month line of the sample project. Do not guess an edit.", text: unknownFileAnswer() };
    case "no-project":
      // An open plan is closed first, so the todo panel does not show work that will never happen.
      if (planOpen(p, env))
        return {
          reasoning: "The listing shows no src/dates.js: the sample project my plan was written for is not in this workspace, so the plan cannot go on. Close the todo list first (the look around is done, the rest cancelled), then say why.",
          text: "There is no sample project here, so the rest of the plan cannot run. Closing the todo list.",
          call: { tool: "todowrite", input: { todos: closedTodos(true) } },
        };
      return { reasoning: "The listing shows no src/dates.js: this workspace does not hold the sample project my scripts are written for. Say so, and how to get the guided demo, instead of reading files that are not there.", text: noProjectAnswer() };
    case "cannot-look": {
      const failed = p.facts.lookFailed;
      const why = failed === undefined ? "None of the tools I list files with (list, glob, bash) is offered" : "The listing failed";
      if (planOpen(p, env))
        return {
          reasoning: `${why}: I cannot see the workspace, so the plan cannot go on. Close the todo list first (nothing of it was done), then say why.`,
          text: "I can't see the files here, so the plan cannot run. Closing the todo list.",
          call: { tool: "todowrite", input: { todos: closedTodos(false) } },
        };
      return {
        reasoning: `${why}: I cannot see what this workspace holds. Reading or editing files I have not seen would be guessing, so say so plainly, and what the user can change.`,
        text: cannotLookAnswer(failed),
      };
    }
    case "answer":
      return {
        reasoning: p.continued && p.answered ? "The conversation was compacted after my answer, and the summary says everything is done. A short closing note, no new work." : answerReasoning(kind, p, env),
        text: answer(kind, p, ctx, env),
      };
  }
}
