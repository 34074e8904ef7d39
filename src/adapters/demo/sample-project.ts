/**
 * The demo's sample project: a tiny date-formatting library with one real
 * bug (`formatDate` prints the month off by one, since `getMonth()` counts
 * from 0), a test, and a check script that runs in the local sandbox's
 * built-in shell (no npm there: it replays the test cases with awk).
 * Paths are relative to the workspace root.
 */

/** The line of `src/dates.js` that holds the bug. */
export const DEMO_BUGGY_LINE = "  const month = pad(date.getMonth());";
/** The same line, fixed. */
export const DEMO_FIXED_LINE = "  const month = pad(date.getMonth() + 1);";

const README = `# tiny-dates

A very small date-formatting library, used by tabcode's demo.

- \`src/dates.js\`: \`formatDate(date)\` → \`"2024-03-05"\`, \`formatShort(date)\` → \`"5 Mar 2024"\`,
  \`parseDate("2024-03-05")\` → a \`Date\`, \`daysBetween(a, b)\` → whole days,
  \`isWeekend(date)\` → true on Saturdays and Sundays
- \`src/dates.test.js\`: the test cases (\`npm test\` runs them with node)
- \`scripts/check.sh\`: replays the same cases with plain shell tools, for
  sandboxes without node: \`bash scripts/check.sh\`

Open tasks live in \`notes/todo.md\`.
`;

const AGENTS = `# House rules

- Dates are shown as YYYY-MM-DD (ISO 8601) everywhere, never locale strings.
- After changing anything in src/, run \`bash scripts/check.sh\`; it must print PASS.
- No dependencies: this project has none and keeps it that way.
`;

const PACKAGE = `{
  "name": "tiny-dates",
  "version": "0.1.0",
  "private": true,
  "type": "module",
  "scripts": { "test": "node src/dates.test.js" }
}
`;

const DATES = `// Date helpers for reports and file names. No dependencies.

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const DAY_MS = 24 * 60 * 60 * 1000;

function pad(n) {
  return String(n).padStart(2, "0");
}

/** Formats a date as YYYY-MM-DD, e.g. 2024-03-05. */
export function formatDate(date) {
  const year = date.getFullYear();
${DEMO_BUGGY_LINE}
  const day = pad(date.getDate());
  return \`\${year}-\${month}-\${day}\`;
}

/** Formats a date as "5 Mar 2024". */
export function formatShort(date) {
  return \`\${date.getDate()} \${MONTHS[date.getMonth()]} \${date.getFullYear()}\`;
}

/** Parses "YYYY-MM-DD" into a local date at noon; undefined when malformed. */
export function parseDate(text) {
  const m = /^(\\d{4})-(\\d{2})-(\\d{2})$/.exec(text);
  if (!m) return undefined;
  return new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]), 12);
}

/** Whole days from a to b (negative when b is earlier). */
export function daysBetween(a, b) {
  return Math.round((b - a) / DAY_MS);
}

/** Saturday or Sunday (getDay() counts from Sunday = 0). */
export function isWeekend(date) {
  const day = date.getDay();
  return day === 0 || day === 6;
}
`;

/** The 1-based line of the bug in \`src/dates.js\`. */
export const DEMO_BUG_LINE_NUMBER = DATES.split("\n").indexOf(DEMO_BUGGY_LINE) + 1;

const TEST = `// The cases below are also read by scripts/check.sh (keep one per line).
import { formatDate } from "./dates.js";

const cases = [
  ["2024-01-31T12:00:00", "2024-01-31"],
  ["2024-02-29T12:00:00", "2024-02-29"],
  ["2024-03-05T12:00:00", "2024-03-05"],
  ["2024-07-14T12:00:00", "2024-07-14"],
  ["2024-10-01T12:00:00", "2024-10-01"],
  ["2024-12-24T12:00:00", "2024-12-24"],
];

let failed = 0;
for (const [input, expected] of cases) {
  const got = formatDate(new Date(input));
  if (got === expected) console.log(\`ok   formatDate(\${input}) = \${got}\`);
  else {
    failed++;
    console.log(\`FAIL formatDate(\${input}) = \${got}, expected \${expected}\`);
  }
}
const n = cases.length;
console.log(failed ? \`FAIL: \${failed} of \${n} cases\` : \`PASS: \${n} of \${n} cases\`);
process.exitCode = failed ? 1 : 0;
`;

const CHECK = `# Replays the cases of src/dates.test.js without node: reads how
# formatDate builds the month, then computes each expected date with awk.
line=$(grep -n 'const month' src/dates.js)
echo "formatDate, line $line"
case "$line" in
  *"getMonth() + 1"*) offset=0 ;;
  *) offset=-1 ;;
esac
awk -F'"' -v off="$offset" '
  /^  \\["/ {
    n++
    split($2, d, "-")
    got = sprintf("%s-%02d-%s", d[1], d[2] + off, substr(d[3], 1, 2))
    if (got == $4) print "ok   formatDate(" $2 ") = " got
    else { bad++; print "FAIL formatDate(" $2 ") = " got ", expected " $4 }
  }
  END {
    if (bad) { print "FAIL: " bad " of " n " cases"; exit 1 }
    print "PASS: " n " of " n " cases"
  }
' src/dates.test.js
`;

const TODO = `# To do

- [ ] The March report header says "2024-02-05": dates look one month early.
- [ ] Add \`formatLong\` ("Tuesday, 5 March 2024") once formatDate is right.
- [x] Keep the check runnable without node (scripts/check.sh).
`;

/** The demo's sample project, by path relative to the workspace root. */
export const DEMO_PROJECT: Record<string, string> = {
  "README.md": README,
  "AGENTS.md": AGENTS,
  "package.json": PACKAGE,
  "src/dates.js": DATES,
  "src/dates.test.js": TEST,
  "scripts/check.sh": CHECK,
  "notes/todo.md": TODO,
};
