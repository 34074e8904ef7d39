/**
 * What tool outputs say about the workspace: whether it holds the date sample
 * (its check) and the Python demo's tests. `Known` gathers it across the
 * session's prompts (the newest evidence wins), so "Run the tests" can choose
 * the project's own command; what it then reports still comes from that
 * command's output alone.
 */
import { PY_TEST } from "./python-project";
import { doneMarker, type StepId } from "./steps";

/** What the session has seen of the workspace (undefined: nothing either way). */
export interface Known {
  /** The date sample's check is there (a listing showed src/dates.js, the check printed its verdict) or is not (the check is missing). */
  sample?: boolean;
  /** The Python demo's tests are there (written, listed, run) or are not (a listing without them, a run that found none). */
  python?: boolean;
}

/** How a summary's line on the sample project begins. */
export const SAMPLE_PROJECT = "The workspace holds a tiny date library:";
/** What a summary says of a workspace without the sample project (and how the next run learns it again). */
export const NO_SAMPLE_PROJECT = "The workspace does not hold the sample project (no src/dates.js, no scripts/check.sh).";
/** What a summary says of a listing that showed the Python demo's tests. */
export const PYTHON_TESTS_LISTED = `The workspace holds the Python demo's tests (${PY_TEST}).`;

/** The check is not there: no scripts/check.sh (bash), no package.json or test script (npm). */
export const CHECK_MISSING = /no such file or directory|ENOENT|Missing script/i;

/** The sample check's verdict on its cases; other output holds no results. */
export function checkVerdict(output: string): "PASS" | "FAIL" | undefined {
  const verdict = /^(PASS|FAIL): \d+ of \d+ cases$/m.exec(output)?.[1];
  return verdict === "PASS" || verdict === "FAIL" ? verdict : undefined;
}

/** How many tests `python3 -m unittest` ran (undefined: it ran none, e.g. there is no python3). */
export function testsRan(output: string): number | undefined {
  const n = /^Ran (\d+) tests? in /m.exec(output)?.[1];
  return n === undefined ? undefined : Number(n);
}

/** A `bash` listing counts only when the command succeeded (a shell's `ls` may not know `-R`). */
export function listingFailed(tool: string, output: string): boolean {
  return tool === "bash" && !/^Exit code: 0$/m.test(output);
}

/** What a successful call that completed `step` shows of the workspace (`output`: undefined when it was pruned from the request). */
export function noteCall(known: Known, step: StepId, tool: string, output: string | undefined): void {
  if (step === "py-test") known.python = true;
  if (output === undefined) return;
  if (step === "explore" && !listingFailed(tool, output)) {
    known.sample = output.includes("dates.js");
    known.python = output.includes(PY_TEST);
  }
  if (step === "check") {
    if (checkVerdict(output)) known.sample = true;
    else if (CHECK_MISSING.test(output)) known.sample = false;
  }
  if (step === "py-run" || step === "py-rerun") {
    const ran = testsRan(output);
    if (ran !== undefined) known.python = ran > 0;
  }
}

/** What a (demo-written) summary records of the workspace. */
export function noteSummary(known: Known, text: string): void {
  if (text.includes(SAMPLE_PROJECT) || /date check printed (PASS|FAIL)/.test(text)) known.sample = true;
  if (text.includes(NO_SAMPLE_PROJECT)) known.sample = false;
  const written = new RegExp(`${PY_TEST.replace(".", "\\.")} \\([^)]*written`);
  if (text.includes(PYTHON_TESTS_LISTED) || text.includes(doneMarker("py-test")) || written.test(text) || /Python tests printed (OK|FAILED)/.test(text)) known.python = true;
}
