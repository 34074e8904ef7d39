/**
 * Sample sessions shipped with the app (public/samples/), made by running the
 * demo model through the real session loop. `samples.test.ts` regenerates
 * them (`npm run samples`) and checks the committed files still match what
 * the demo produces.
 */

/** The shipped samples: file name, title, the prompt the demo answers and the project it starts from. */
export const SAMPLES = [
  { file: "fix-the-date-bug.json", title: "Sample: fix the date bug", prompt: "Fix the date bug", project: "dates" },
  { file: "explain-the-project.json", title: "Sample: explain the project", prompt: "Explain the project", project: "dates" },
  { file: "run-the-tests.json", title: "Sample: run the tests", prompt: "Run the tests", project: "dates" },
  // The prompt is PYTHON_DEMO_PROMPT (python-project.ts, kept out of the entry bundle; samples.test.ts checks they agree).
  { file: "python-test-fix-commit.json", title: "Sample: Python test, fix, commit", prompt: "Write a Python module with tests, make them pass and commit it", project: "python" },
] as const;

/** Where the app fetches them (relative to the page). */
export const SAMPLES_PATH = "samples/";
