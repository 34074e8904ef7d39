/**
 * Sample sessions shipped with the app (public/samples/), made by running the
 * demo model through the real session loop. `samples.test.ts` regenerates
 * them (`npm run samples`) and checks the committed files still match what
 * the demo produces.
 */

/** The shipped samples: file name, title and the prompt the demo answers. */
export const SAMPLES = [
  { file: "fix-the-date-bug.json", title: "Sample: fix the date bug", prompt: "Fix the date bug" },
  { file: "explain-the-project.json", title: "Sample: explain the project", prompt: "Explain the project" },
  { file: "run-the-tests.json", title: "Sample: run the tests", prompt: "Run the tests" },
] as const;

/** Where the app fetches them (relative to the page). */
export const SAMPLES_PATH = "samples/";
