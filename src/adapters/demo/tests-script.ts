/**
 * "Run the tests": the demo model runs the tests of the project the workspace
 * holds. It chooses from what the session has seen (the sample's AGENTS.md in
 * the system prompt; earlier prompts that listed, wrote or ran a project's
 * tests) and, knowing nothing, from the workspace itself: the date sample's
 * check first, and when that is not there, a listing before it answers. What
 * it reports comes from the commands' output only.
 */
import { checkCommand, type DemoEnv, lookInput, lookTool, type Reply } from "./env";
import { PY_TEST, PY_TEST_COMMAND } from "./python-project";
import { pyTestsReport } from "./python-script";
import { type Next, SCRIPTS, type ScriptKind, type StepId } from "./steps";
import { type AnswerContext, checkReport, noTestsAnswer, SCRIPTED_RUN, testsAnswer } from "./texts";
import type { Progress } from "./trace";

/**
 * The steps this run of "Run the tests" takes, in order: the date check unless
 * the session knows only the Python demo's project; a listing when the check
 * was not there and no Python tests are known; the Python tests when they are
 * known or listed. `rules`: the sample's AGENTS.md is in the system prompt.
 */
function testsPlan(p: Progress, rules: boolean): StepId[] {
  const python = p.known.python === true;
  const steps: StepId[] = [];
  if (p.done.has("check") || rules || p.known.sample === true || !python) steps.push("check");
  if (p.done.has("explore") || (p.facts.project === "other" && p.facts.check === undefined && !python)) steps.push("explore");
  if (p.done.has("py-run") || python || p.facts.pyProject === true) steps.push("py-run");
  return steps;
}

/** The steps of a script (as a summary or the step-limit note lists them). */
export function scriptSteps(kind: ScriptKind, p: Progress, rules: boolean): readonly StepId[] {
  return kind === "tests" ? testsPlan(p, rules) : SCRIPTS[kind];
}

/** Python runs only where the sandbox lists python3 (not in a WebContainer). */
const hasPython = (env: DemoEnv) => env.python && !env.webcontainer;

export function testsNext(p: Progress, env: DemoEnv): Next {
  if (p.facts.lookFailed !== undefined) return { type: "cannot-look" };
  for (const step of testsPlan(p, env.rules)) {
    if (p.done.has(step)) continue;
    if (step === "py-run" && !hasPython(env)) return { type: "answer" };
    const tool = step === "explore" ? lookTool(env) : env.tools.has("bash") ? "bash" : undefined;
    if (tool) return { type: "step", step, tool };
    return step === "explore" ? { type: "cannot-look" } : { type: "missing", tool: "bash" };
  }
  return { type: "answer" };
}

/** The look and the Python run of "Run the tests" (the check is the fix script's step). */
export function testsStep(step: "explore" | "py-run", tool: string, env: DemoEnv, p: Progress): Reply {
  if (step === "explore")
    return {
      reasoning: `\`${checkCommand(env)}\` found no check to run, so this is not the date sample. Before I answer, a look at what the workspace does hold: if it has the Python demo's tests (${PY_TEST}), those are the tests to run.`,
      text: "There is no date check here. A look at the files first, to see which tests there are:",
      call: { tool, input: lookInput(tool, env) },
    };
  const why = p.facts.pyProject
    ? `The listing shows ${PY_TEST} and no date check: this is the Python demo's project.`
    : p.facts.check
      ? `The date check has run. This session has also seen ${PY_TEST} in this workspace, so the Python demo's tests are here too: run them as well.`
      : p.done.has("check")
        ? `The date check found nothing to run, but this session has already seen ${PY_TEST} in this workspace (the Python demo's tests): run those.`
        : `This session has already seen ${PY_TEST} in this workspace (the Python demo's tests), and nothing of the date sample: the tests to run are the Python ones, not the date check.`;
  return {
    reasoning: `${why} \`${PY_TEST_COMMAND}\` discovers test_*.py in the working directory and names every test with its result; I'll report what it prints.`,
    text: p.facts.check ? "And the Python tests:" : p.facts.pyProject ? "The Python demo's tests are here. Running them with Python:" : "Running the Python tests:",
    call: { tool, input: { command: PY_TEST_COMMAND, description: "Run the Python tests" } },
  };
}

/** Why the run ends here. */
export function testsReasoning(p: Progress, rules: boolean): string {
  if (testsPlan(p, rules).includes("py-run"))
    return p.done.has("py-run")
      ? "The Python tests have run. Report what the output shows, and only that: the verdict, which tests failed, or that none ran."
      : "The Python tests are what this workspace has, but this sandbox has no python3. Say so instead of reporting any result.";
  if (p.facts.check) return "The check has run. Report what it printed, and what to do about it.";
  return p.facts.project === "other"
    ? "The check is not there to run, and the listing shows no Python demo tests either: this workspace does not hold a project my scripts know. There are no test results, so say so, and how to get the guided demo, instead of reporting any."
    : "The check ran, but printed no PASS or FAIL line for the sample's date cases: whatever it checked, it is not the sample project. There are no results I can report, so say so, and how to get the guided demo.";
}

/** The answer: the check's report, the Python tests' report, or why there are no results. */
export function runTestsAnswer(p: Progress, c: AnswerContext, env: DemoEnv): string {
  if (!testsPlan(p, env.rules).includes("py-run")) return p.facts.check ? testsAnswer(c) : noTestsAnswer(c, p.done.has("explore"));
  const ran = p.done.has("py-run");
  if (p.facts.check) return [...checkReport(c), "", ...pyTestsReport(p.facts, ran, "I also ran"), "", SCRIPTED_RUN].join("\n");
  const report = pyTestsReport(p.facts, ran, "I ran");
  const tests = `${p.facts.pyProject ? "the listing shows" : "this session has seen"} the Python demo's tests (\`${PY_TEST}\`)`;
  const lead = !p.done.has("check")
    ? ""
    : p.facts.project === "other"
      ? `There is no date check in this workspace (\`${c.checkCommand}\` found nothing to run), but ${tests}. `
      : `\`${c.checkCommand}\` printed no verdict on the date cases, but ${tests}. `;
  return [`${lead}${report[0] ?? ""}`, ...report.slice(1), "", SCRIPTED_RUN].join("\n");
}
