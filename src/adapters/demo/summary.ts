/**
 * The demo model's small calls: the session title and the compaction
 * summary. The summary is built only from what the request shows (the
 * transcript, the previous summary) and records the run's progress in lines
 * the demo reads back when it resumes after the compaction.
 */
import type { LLMRequest } from "../../core/ports/llm";
import { envOf } from "./env";
import { NO_SAMPLE_PROJECT, PYTHON_TESTS_LISTED, SAMPLE_PROJECT } from "./known";
import { DEMO_BUG_LINE_NUMBER } from "./sample-project";
import { classify, doneMarker, type ScriptKind, todoMarker } from "./steps";
import { scriptSteps } from "./tests-script";
import { ANSWERED, oneLine, progress, summaryTrace, type TraceCall, type TraceEvent } from "./trace";

const TITLE_PREFIX = /^\s*Generate a title for this conversation:\s*/;

/** A short title from the user's first prompt (at most 50 characters, no trailing punctuation). */
export function demoTitle(req: LLMRequest): string {
  const user = req.messages.find((m) => m.role === "user");
  const raw = user?.role === "user" ? user.content.map((c) => (c.type === "text" ? c.text : "")).join(" ") : "";
  const line = raw.replace(TITLE_PREFIX, "").split("\n").map((l) => l.replace(/\s+/g, " ").trim()).find((l) => l.length > 0) ?? "";
  let title = line.replace(/^["'`]+|["'`.!?…:;,\s]+$/g, "");
  if (title.length > 50) {
    const cut = title.slice(0, 50);
    const space = cut.lastIndexOf(" ");
    title = (space > 20 ? cut.slice(0, space) : cut).replace(/[.,;:\s]+$/, "");
  }
  if (!title) return "Demo session";
  return title.charAt(0).toUpperCase() + title.slice(1);
}

const GOALS: Record<ScriptKind, string> = {
  fix: "Find and fix the date bug in the sample project, and prove the fix with the project's check.",
  explain: "Get an overview of the sample project.",
  tests: "Run the workspace's tests (the date sample's check, the Python demo's unittest) and report what they print.",
  python: "Write a Python module and its unittest, make the tests pass, commit with git.",
  help: "Learn what the demo model can do.",
  fallback: "A question outside the demo's script (answered honestly: the demo model cannot answer it).",
};

function str(v: unknown): string | undefined {
  return typeof v === "string" && v.trim() ? v.trim() : undefined;
}

/** Paths the calls touched, with what was done to them, in first-seen order. */
function files(calls: TraceCall[]): string[] {
  const actions: Record<string, string> = { read: "read", edit: "edited", write: "written", list: "listed", glob: "searched", grep: "searched" };
  const seen = new Map<string, Set<string>>();
  for (const c of calls) {
    const action = actions[c.tool];
    const path = str(c.input.filePath) ?? str(c.input.path);
    if (!action || !path) continue;
    const set = seen.get(path) ?? new Set<string>();
    set.add(action);
    seen.set(path, set);
  }
  return [...seen].map(([path, a]) => `- ${path} (${[...a].join(", ")})`);
}

function bullets(lines: string[]): string {
  return lines.length ? lines.join("\n") : "(none)";
}

/** The compaction summary: the sections the summary prompt asks for, deterministic. */
export function demoSummary(req: LLMRequest): string {
  const trace: TraceEvent[] = summaryTrace(req);
  const p = progress(trace);
  const kind = p.goal ? classify(p.goal) : "fallback";
  const calls = trace.flatMap((e) => (e.kind === "call" ? [e.call] : []));
  const prompts = trace.flatMap((e) => (e.kind === "user" ? [`- "${oneLine(e.text)}"`] : []));

  const discoveries: string[] = [];
  if (p.facts.project === "other") discoveries.push(`- ${NO_SAMPLE_PROJECT}`);
  else if (p.done.has("explore") && p.facts.project === "sample") discoveries.push(`- ${SAMPLE_PROJECT} src/dates.js, its test src/dates.test.js, and scripts/check.sh (replays the test cases without node).`);
  if (p.facts.pyProject) discoveries.push(`- ${PYTHON_TESTS_LISTED}`);
  if (p.facts.bug === "present") discoveries.push(`- src/dates.js line ${DEMO_BUG_LINE_NUMBER}: the month line is off by one (\`pad(date.getMonth())\`; getMonth() counts from 0).`);
  if (p.facts.bug === "fixed") discoveries.push(`- src/dates.js line ${DEMO_BUG_LINE_NUMBER}: the month line is correct (\`pad(date.getMonth() + 1)\`).`);
  if (p.facts.bug === "unknown") discoveries.push("- src/dates.js does not contain the sample's month line (the project was changed).");
  if (p.facts.check) discoveries.push(`- The date check printed ${p.facts.check}.`);
  if (p.facts.pyTests === "OK" || p.facts.pyTests === "FAILED") discoveries.push(`- The Python tests printed ${p.facts.pyTests}.`);
  if (p.facts.pyCommit === "done") discoveries.push("- The git commit was made.");
  const failed = calls.filter((c) => !c.ok).map((c) => `- The ${c.tool} call failed: ${oneLine(c.output)}`);

  const steps = scriptSteps(kind, p, envOf(req).rules);
  const done = steps.filter((s) => p.done.has(s) || (s === "fix" && p.facts.bug === "fixed"));
  const left = steps.filter((s) => !done.includes(s));

  const accomplished = [
    ...done.map((s) => `- ${doneMarker(s)}`),
    ...left.map((s, i) => `- ${todoMarker(s)}${i === 0 ? " (next)" : ""}`),
    p.answered ? `- ${ANSWERED}` : left.length === 0 ? "- Left: a short final answer." : "",
  ].filter((l) => l);

  return [
    "## Goal",
    p.goal ? `- The user asked: "${oneLine(p.goal)}"` : "(none)",
    `- ${GOALS[kind]}`,
    "",
    "## Instructions",
    ...(prompts.length > 1 ? ["- The user's prompts so far:", ...prompts.map((l) => `  ${l}`)] : []),
    "- Work only through the tools, in the workspace; keep edits minimal.",
    "",
    "## Discoveries",
    bullets([...discoveries, ...failed]),
    "",
    "## Accomplished",
    bullets(accomplished),
    "",
    "## Relevant files",
    bullets(files(calls)),
  ].join("\n");
}
