/**
 * The edit tool's replacer cascade on a large file (pure CPU, no sandbox):
 *   npx vitest bench --run bench/edit.bench.ts
 */
import { bench, describe } from "vitest";
import { replace } from "../src/core/tools/replacers";

const LINES = 21_000;
const lines: string[] = [];
for (let i = 0; i < LINES; i++) lines.push(i % 7 === 0 ? "}" : `  const value${i} = compute(${i}, "some text here");`);
const content = lines.join("\n");

const missing = "function missing() {\n  const a = 1;\n  const b = 2;\n  return a + b;\n}";
const misindented = lines.slice(10_001, 10_006).map((l) => `    ${l.trim()}`).join("\n");
const exact = lines[15_002] ?? "";
// First line repeats 3,000 times, last line nowhere: the anchored stages' worst case.
const braces = "}\n  const a = 1;\n  const b = 2;\nend();";

describe(`replacer cascade, ${LINES.toLocaleString("en")}-line file`, () => {
  bench(
    "failed edit (oldString nowhere in the file)",
    () => {
      if (replace(content, missing, "x").ok) throw new Error("expected no match");
    },
    { iterations: 5 },
  );
  bench(
    "failed edit, common first line (`}`) and absent last line",
    () => {
      if (replace(content, braces, "x").ok) throw new Error("expected no match");
    },
    { iterations: 5 },
  );
  bench(
    "re-indented 5-line oldString (fuzzy stage)",
    () => {
      if (!replace(content, misindented, "x").ok) throw new Error("expected a match");
    },
    { iterations: 5 },
  );
  bench(
    "exact unique line",
    () => {
      if (!replace(content, exact, "x").ok) throw new Error("expected a match");
    },
    { iterations: 5 },
  );
});
