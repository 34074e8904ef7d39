/**
 * The Python demo's steps and answer: write a module and its unittest,
 * run them (they fail), fix the slip, run again (they pass), commit with git
 * and show the history. Deterministic: the same history gives the same words.
 */
import {
  PY_BUGGY,
  PY_COMMIT_COMMAND,
  PY_COMMIT_MESSAGE,
  PY_FIXED,
  PY_LOG_COMMAND,
  PY_MODULE,
  PY_MODULE_TEXT,
  PY_TEST,
  PY_TEST_COMMAND,
  PY_TEST_TEXT,
} from "./python-project";
import type { Facts } from "./trace";

/** The Python demo's steps. */
export type PythonStep = "py-module" | "py-test" | "py-run" | "py-fix" | "py-rerun" | "py-commit" | "py-log";

const PYTHON_STEPS: ReadonlySet<string> = new Set<PythonStep>(["py-module", "py-test", "py-run", "py-fix", "py-rerun", "py-commit", "py-log"]);

export function isPythonStep(step: string): step is PythonStep {
  return PYTHON_STEPS.has(step);
}

interface StepReply {
  reasoning: string;
  text: string;
  call: { tool: string; input: Record<string, unknown> };
}

/** What each Python step shows: a short aside after its narration. */
export const PY_STEP_NOTES: Record<PythonStep, string> = {
  "py-module": "`write` puts the file into the workspace that every tool shares: it shows up in the **Files** panel, and the step's snapshot records it.",
  "py-test": "",
  "py-run":
    "This is **real CPython** (Pyodide, compiled to WebAssembly) running in its own Worker inside this tab, over the same files: no server, no key. The first run loads it (about 12 MB, then cached for offline use).",
  "py-fix": "",
  "py-rerun": "",
  "py-commit":
    "`git` here is isomorphic-git over the workspace. The repository lives in `.git`: hidden in the Files panel, kept across reloads and part of every snapshot, so reverting this turn takes the commit back too.",
  "py-log": "",
};

/** The tool call, narration and reasoning of one Python step. */
export function pythonStep(step: PythonStep, tool: string, abs: (rel: string) => string, facts: Facts): StepReply {
  switch (step) {
    case "py-module":
      return {
        reasoning:
          "The user wants a Python module with tests, passing, committed. A small, useful module: temperature conversions, Celsius to Fahrenheit and back. F = C × 9/5 + 32, and the inverse C = (F − 32) × 5/9. Module first, then the tests.",
        text: `I'll write \`${PY_MODULE}\` with two conversion functions, then a \`unittest\` test for it.`,
        call: { tool, input: { filePath: abs(PY_MODULE), content: PY_MODULE_TEXT } },
      };
    case "py-test":
      return {
        reasoning:
          "Tests that pin the known points: water freezes at 0 °C = 32 °F and boils at 100 °C = 212 °F; and a round trip through both functions must give the input back (assertAlmostEqual, since these are floats).",
        text: `Now the tests, in \`${PY_TEST}\` (the name \`unittest\` discovery looks for):`,
        call: { tool, input: { filePath: abs(PY_TEST), content: PY_TEST_TEXT } },
      };
    case "py-run":
      return {
        reasoning: "Run them. `python3 -m unittest -v` discovers test_*.py in the working directory and names every test with its result.",
        text: "Running the tests with Python:",
        call: { tool, input: { command: PY_TEST_COMMAND, description: "Run the Python tests" } },
      };
    case "py-fix":
      return {
        reasoning:
          "All three tests fail, and by the same amount: 0 °C came out as 23 °F instead of 32, 100 °C as 203 instead of 212 — 9 degrees low everywhere, and the round trip is 5 °C off (9 × 5/9). That is the offset: I typed 23 where it is 32. One edit.",
        text: "Three failures, all 9 °F low: the offset in `to_fahrenheit` reads 23, it should be 32. Fixing it:",
        call: { tool, input: { filePath: abs(PY_MODULE), oldString: PY_BUGGY, newString: PY_FIXED } },
      };
    case "py-rerun":
      return {
        reasoning: "Run the same tests again to prove the fix.",
        text: "And the tests again:",
        call: { tool, input: { command: PY_TEST_COMMAND, description: "Run the Python tests again" } },
      };
    case "py-commit":
      return {
        reasoning: `${facts.pyTests === "OK" ? "All tests pass." : "The tests ran."} The user asked for a commit: initialise a repository here, stage everything, commit with a message that says what was added.`,
        text: "The tests pass. Committing with git:",
        call: { tool, input: { command: PY_COMMIT_COMMAND, description: "Commit the module and its tests" } },
      };
    case "py-log":
      return {
        reasoning: "Show the history, so the user sees the commit.",
        text: "The history:",
        call: { tool, input: { command: PY_LOG_COMMAND, description: "Show the git history" } },
      };
  }
}

/** Output lines worth quoting: no timings, no exit-code footer, at most `max`. */
function quoted(output: string | undefined, max: number): string {
  const lines = (output ?? "").split("\n").filter((l) => l.trim() && !l.startsWith("Exit code:") && !/^Ran \d+ tests? in /.test(l) && !/^-{10,}$/.test(l));
  return lines.length ? ["```text", ...lines.slice(0, max), "```"].join("\n") : "";
}

/** The lines of a unittest run worth quoting: each test's result, the errors raised, the verdict. */
function unittestBlock(output: string): string {
  const lines = output
    .split("\n")
    .filter((l) => / \.\.\. (ok|FAIL|ERROR|skipped|expected failure|unexpected success)\b/.test(l) || /^[A-Z]\w*(Error|Exception)\b/.test(l) || /^(OK|FAILED|NO TESTS RAN)\b/.test(l));
  return lines.length ? ["```text", ...lines.slice(0, 12), "```"].join("\n") : quoted(output, 6);
}

/** A sandbox's words for "there is no python3 here". */
const PY_UNAVAILABLE = /\bpython3?\b.*\b(not found|needs|not available|not installed)\b/i;

const plural = (n: number) => (n === 1 ? "test" : "tests");

/**
 * What `python3 -m unittest` showed, as the output says it and no more: the
 * tests passed, which failed, none were found, or none ran (python3 missing).
 * `intro` opens the sentence ("I ran"); `ran`: false when this sandbox offers
 * no python3, so the command was never run.
 */
export function pyTestsReport(facts: Facts, ran: boolean, intro: string): string[] {
  const command = `\`${PY_TEST_COMMAND}\``;
  if (!ran)
    return [`\`python3\` is not available in this sandbox, so I could not run the Python tests (${command}). They run in the **local sandbox** (Settings → Sandbox), where Python runs in the tab.`];
  const output = facts.pyOutput ?? "";
  // After a compaction the summary keeps the verdict, not the output.
  const block = output ? unittestBlock(output) : "";
  const end = block ? ":" : ".";
  const n = Number(/^Ran (\d+) tests? in /m.exec(output)?.[1] ?? Number.NaN);
  let head: string;
  let next: string | undefined;
  if (facts.pyTests === "OK") {
    head = `${intro} ${command}: ${Number.isNaN(n) ? "the tests pass" : n === 1 ? "its one test passes" : `all ${n} tests pass`}${end}`;
    next = "Nothing to fix.";
  } else if (facts.pyTests === "FAILED") {
    const names = [...new Set([...output.matchAll(/^(?:FAIL|ERROR): (\w+)/gm)].map((m) => `\`${m[1]}\``))];
    const count = names.length && !Number.isNaN(n) ? `${names.length} of ${n} ${plural(n)} ${names.length === 1 ? "fails" : "fail"}` : "the tests fail";
    head = `${intro} ${command}: **${count}**${names.length ? `: ${names.join(", ")}` : ""}${end}`;
    next = names.length ? "The error lines show what each failing test got and what it expected." : undefined;
  } else if (facts.pyTests === "none") head = `${intro} ${command}, but it found no tests to run${end}`;
  else if (PY_UNAVAILABLE.test(output)) head = `\`python3\` is not available in this sandbox: ${command} printed${end}`;
  else head = `${intro} ${command}, but it stopped before running any test${end}`;
  return [head, ...(block ? ["", block] : []), ...(next ? ["", next] : [])];
}

/** The answer at the end of the Python demo. */
export function pythonAnswer(facts: Facts, fixed: boolean): string {
  if (facts.pyTests === "missing")
    return [
      "`python3` is not available in this sandbox, so I stop here. The Python demo needs the **local sandbox** (Settings → Sandbox), where Python runs in the tab.",
      "",
      "(I'm the built-in demo model: this run is scripted.)",
    ].join("\n");
  // After a compaction the summary keeps the verdict, not the output.
  const block = quoted(facts.pyOutput, 6);
  const end = block ? ":" : ".";
  const tests =
    facts.pyTests === "OK"
      ? `\`${PY_TEST_COMMAND}\` now passes all three tests${end}`
      : facts.pyTests === "none"
        ? `\`${PY_TEST_COMMAND}\` found no tests to run${end}`
        : `\`${PY_TEST_COMMAND}\` still fails${end}`;
  const commit =
    facts.pyCommit === "done"
      ? `Committed as **${PY_COMMIT_MESSAGE}**: the last tool card shows it in \`git log --oneline\`.`
      : "The commit did not go through (see the tool output above).";
  return [
    fixed
      ? `Done. \`${PY_MODULE}\` converts between Celsius and Fahrenheit, \`${PY_TEST}\` tests it. My first draft had a slip — the offset was 23 instead of 32 — which the tests caught; one edit fixed it.`
      : `Done. \`${PY_MODULE}\` converts between Celsius and Fahrenheit, and \`${PY_TEST}\` tests it.`,
    "",
    tests,
    ...(block ? [block] : []),
    "",
    commit,
    "",
    "### What you just watched",
    "",
    "- **Real code ran in this tab.** `python3` is CPython compiled to WebAssembly (Pyodide, standard library only) in its own Worker; a runaway script is stopped by the command timeout without freezing the page.",
    "- **One workspace for everything.** `write`, `edit`, `python3` and `git` see the same files; they are in the Files panel and stored in this browser.",
    "- **git without a server.** The repository is in `.git` in the workspace, kept across reloads and part of every snapshot: revert this turn and the commit goes with it.",
    "",
    "I'm the built-in demo model: these steps are scripted, the results are real. Other prompts I know: **Fix the date bug**, **Explain the project**, **What can you do?**",
  ].join("\n");
}
