/**
 * How the demo model reads a request: the history becomes a flat trace
 * (user prompts, tool calls with their results, compaction summaries), from
 * a chat request's messages or from the transcript a summary request carries.
 * `progress` then says what the current request is and how far the scripted
 * run has come: the model keeps no state between calls.
 */
import { CONTINUE_PROMPT } from "../../core/compaction/process";
import { CONTINUE_ANSWER_PROMPT } from "../../core/session/finish-notice";
import { CLEARED_TOOL_OUTPUT, COMPACTION_QUESTION } from "../../core/conversation/to-model";
import { isAfterSummaryText } from "../../core/pins/after-compaction";
import type { LLMMessage, LLMRequest } from "../../core/ports/llm";
import { MAX_STEPS_PROMPT } from "../../core/session/turn";
import { LS_COMMAND } from "./env";
import { CHECK_MISSING, checkVerdict, type Known, listingFailed, NO_SAMPLE_PROJECT, noteCall, noteSummary, SAMPLE_PROJECT, testsRan } from "./known";
import { PY_MODULE, PY_TEST } from "./python-project";
import { DEMO_BUGGY_LINE, DEMO_FIXED_LINE } from "./sample-project";
import { doneMarker, STEP_IDS, type StepId } from "./steps";

/** One tool call the model made, with what came back. */
export interface TraceCall {
  tool: string;
  input: Record<string, unknown>;
  ok: boolean;
  output: string;
}

export type TraceEvent =
  | { kind: "user"; text: string }
  /** The synthetic message that resumes a run after an automatic compaction. */
  | { kind: "continue" }
  /** The person's Continue after an answer that was cut (a closed tab, the output limit): the run goes on, no summary involved. */
  | { kind: "resume" }
  /** A compaction summary (the answer to "What did we do so far?"). */
  | { kind: "summary"; text: string }
  | { kind: "call"; call: TraceCall }
  | { kind: "answer"; text: string };

/** What the demo knows about the sample project from what it has seen. */
export interface Facts {
  /** From the listing (or a check that is not there): the workspace holds the sample project (its src/dates.js), or something else (nothing, another project). */
  project?: "sample" | "other";
  /** From reading src/dates.js: the month line is buggy, fixed, or not the sample's at all. */
  bug?: "present" | "fixed" | "unknown";
  /** The listing showed the Python demo's tests. */
  pyProject?: boolean;
  /** The output of a `bash` listing that failed: the workspace is still unseen. */
  lookFailed?: string;
  /** The last check's verdict on the sample's cases (none when it printed none) and its output. */
  check?: "PASS" | "FAIL";
  checkOutput?: string;
  /** The last `python3 -m unittest` run: OK, FAILED, no tests found, or no test run at all (python3 is not in this sandbox). */
  pyTests?: "OK" | "FAILED" | "none" | "missing";
  pyOutput?: string;
  /** `git commit` made a commit, or the sandbox has no git. */
  pyCommit?: "done" | "missing";
}

export interface Progress {
  /** The current request: the newest real user prompt ("" when none is visible). */
  goal: string;
  /** Script steps done since that prompt (a summary carries them across a compaction). */
  done: Set<StepId>;
  facts: Facts;
  /** What the session had seen of the workspace when that prompt came (earlier prompts, summaries). */
  known: Known;
  /** The run was resumed by a compaction's "continue" message. */
  continued: boolean;
  /** The run already ended with a text answer (told by the history or by a summary). */
  answered: boolean;
  /** The newest event is a failed tool call. */
  lastError?: TraceCall;
  /** The request ends with the max-steps wrap-up message. */
  wrapUp: boolean;
}

function record(v: unknown): Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

function isContinue(text: string): boolean {
  return text.includes(CONTINUE_PROMPT);
}

/** A user message that is tabcode's Continue prompt (compaction's or a cut answer's), as a trace event; else undefined. */
function continueEvent(text: string): TraceEvent | undefined {
  if (isContinue(text)) return { kind: "continue" };
  if (text.trim() === CONTINUE_ANSWER_PROMPT) return { kind: "resume" };
  return undefined;
}

/** The trace of a chat request's history. */
export function chatTrace(messages: LLMMessage[]): TraceEvent[] {
  const out: TraceEvent[] = [];
  const pending = new Map<string, { tool: string; input: Record<string, unknown> }>();
  let afterQuestion = false;
  for (const m of messages) {
    if (m.role === "user") {
      const text = m.content.map((c) => (c.type === "text" ? c.text : "")).join("\n").trim();
      afterQuestion = text === COMPACTION_QUESTION;
      if (afterQuestion) continue;
      // The user's earlier words sent again after a summary: context, not a new prompt.
      if (isAfterSummaryText(text)) continue;
      out.push(continueEvent(text) ?? { kind: "user", text });
      continue;
    }
    if (m.role === "assistant") {
      const text = m.content.map((c) => (c.type === "text" ? c.text : "")).join("\n").trim();
      if (afterQuestion && text) out.push({ kind: "summary", text });
      else if (text && text !== MAX_STEPS_PROMPT) out.push({ kind: "answer", text });
      for (const c of m.content) if (c.type === "tool-call") pending.set(c.callID, { tool: c.tool, input: record(c.input) });
      afterQuestion = false;
      continue;
    }
    for (const r of m.content) {
      const call = pending.get(r.callID) ?? { tool: r.tool, input: {} };
      out.push({ kind: "call", call: { ...call, ok: r.isError !== true, output: r.output } });
    }
  }
  return out;
}

/** The summary line saying the run had already ended with an answer. */
export const ANSWERED = "Answered the user.";

/** A prompt on one line, as summaries quote it. */
export function oneLine(text: string, max = 120): string {
  const t = text.replace(/\s+/g, " ").trim();
  return t.length > max ? `${t.slice(0, max - 1)}…` : t;
}

const ENTRY = /\n\n(?=\[(?:User|Assistant|Assistant reasoning|Assistant tool call|Tool result|Tool error)\]: )/;

/** The trace of a summary request's transcript (`[User]: …`, `[Assistant tool call]: name(json)`, …). */
export function transcriptTrace(transcript: string): TraceEvent[] {
  const out: TraceEvent[] = [];
  let call: { tool: string; input: Record<string, unknown> } | undefined;
  const flush = (ok: boolean, output: string) => {
    if (call) out.push({ kind: "call", call: { ...call, ok, output } });
    call = undefined;
  };
  for (const entry of transcript.split(ENTRY)) {
    const m = /^\[([A-Za-z ]+)\]: ([\s\S]*)$/.exec(entry.trim());
    if (!m) continue;
    const [, kind, body = ""] = m;
    if (kind === "Assistant tool call") {
      flush(false, "");
      const c = /^([\w.-]+)\(([\s\S]*)$/.exec(body);
      let input: Record<string, unknown> = {};
      try {
        input = record(JSON.parse((c?.[2] ?? "").replace(/\)$/, "")));
      } catch {
        // Cut at the transcript's length limit: the tool name still counts.
      }
      call = { tool: c?.[1] ?? "unknown", input };
    } else if (kind === "Tool result" || kind === "Tool error") flush(kind === "Tool result", body);
    else {
      flush(false, "");
      if (kind === "User") out.push(continueEvent(body) ?? { kind: "user", text: body.trim() });
      else if (kind === "Assistant") out.push({ kind: "answer", text: body.trim() });
    }
  }
  flush(false, "");
  return out;
}

/** The summary request's parts: the previous summary (if any) and the transcript. */
export function summaryTrace(req: LLMRequest): TraceEvent[] {
  const last = [...req.messages].reverse().find((m) => m.role === "user");
  const text = last?.role === "user" ? last.content.map((c) => (c.type === "text" ? c.text : "")).join("\n") : "";
  const conversation = /<conversation>\n?([\s\S]*?)\n?<\/conversation>/.exec(text);
  const previous = /<previous-summary>\n?([\s\S]*?)\n?<\/previous-summary>/.exec(text);
  const head: TraceEvent[] = previous?.[1] ? [{ kind: "summary", text: previous[1] }] : [];
  // A cached-prefix summary request carries the conversation as messages, the instructions last.
  if (!conversation) return [...head, ...chatTrace(req.messages.slice(0, -1))];
  return [...head, ...transcriptTrace(conversation[1] ?? "")];
}

const str = (v: unknown) => (typeof v === "string" ? v : "");

/** Which script step a successful call completes. */
export function stepOf(call: TraceCall): StepId | undefined {
  const path = str(call.input.filePath);
  switch (call.tool) {
    case "todowrite": {
      const todos = Array.isArray(call.input.todos) ? call.input.todos.map(record) : [];
      return todos.length > 0 && todos.every((t) => t.status === "completed" || t.status === "cancelled") ? "done" : "plan";
    }
    case "list":
    case "glob":
      return "explore";
    case "read":
      if (path.endsWith("src/dates.js")) return "read";
      return path.endsWith("README.md") ? "readme" : undefined;
    case "edit":
      if (path.endsWith(PY_MODULE)) return "py-fix";
      return path.endsWith("src/dates.js") ? "fix" : undefined;
    case "write":
      if (path.endsWith(PY_TEST)) return "py-test";
      if (path.endsWith(PY_MODULE)) return "py-module";
      return path.endsWith("src/dates.js") ? "fix" : undefined;
    case "bash": {
      const command = str(call.input.command);
      if (command.includes("-m unittest")) return "py-run";
      if (command.includes("git commit")) return "py-commit";
      if (command.includes("git log")) return "py-log";
      if (command.startsWith(`${LS_COMMAND} `)) return "explore";
      return command.includes("check.sh") || command.includes("npm test") ? "check" : undefined;
    }
    default:
      return undefined;
  }
}

function learn(facts: Facts, step: StepId, { tool, output }: TraceCall): void {
  if (step === "explore") {
    if (listingFailed(tool, output)) facts.lookFailed = output;
    else {
      facts.project = output.includes("dates.js") ? "sample" : "other";
      facts.pyProject = output.includes(PY_TEST);
    }
  }
  if (step === "read") facts.bug = output.includes(DEMO_FIXED_LINE.trim()) ? "fixed" : output.includes(DEMO_BUGGY_LINE.trim()) ? "present" : "unknown";
  if (step === "fix") facts.bug = "fixed";
  if (step === "check") {
    // Only the sample's check ends with a verdict on its cases: other output holds no results.
    const verdict = checkVerdict(output);
    facts.check = verdict;
    facts.checkOutput = output;
    if (!verdict && CHECK_MISSING.test(output)) facts.project ??= "other";
  }
  if (step === "py-run" || step === "py-rerun") {
    const ran = testsRan(output);
    facts.pyTests = ran === undefined ? "missing" : ran === 0 ? "none" : /^OK\b/m.test(output) ? "OK" : "FAILED";
    facts.pyOutput = output;
  }
  if (step === "py-commit") facts.pyCommit = /^\[\S+ (\(root-commit\) )?[0-9a-f]{7}\]/m.test(output) ? "done" : "missing";
}

/** The facts and steps a (demo-written) summary recorded. */
function fromSummary(text: string): { goal?: string; done: Set<StepId>; facts: Facts; answered: boolean } {
  const done = new Set<StepId>(STEP_IDS.filter((s) => text.includes(doneMarker(s))));
  const facts: Facts = {};
  if (text.includes(SAMPLE_PROJECT)) facts.project = "sample";
  if (text.includes(NO_SAMPLE_PROJECT)) facts.project = "other";
  if (text.includes("month line is off by one")) facts.bug = "present";
  if (text.includes("month line is correct")) facts.bug = "fixed";
  const check = /check printed (PASS|FAIL)/.exec(text);
  if (check) facts.check = check[1] === "PASS" ? "PASS" : "FAIL";
  const py = /Python tests printed (OK|FAILED)/.exec(text);
  if (py) facts.pyTests = py[1] === "OK" ? "OK" : "FAILED";
  if (text.includes("The git commit was made")) facts.pyCommit = "done";
  const goal = /^- The user asked: "(.*)"$/m.exec(text)?.[1];
  return { goal, done, facts, answered: text.includes(ANSWERED) };
}

/**
 * What the current request is and how far the run has come. A prompt right
 * after a summary that names it as the goal is the compaction replaying it:
 * the summary's progress still holds.
 */
export function progress(trace: TraceEvent[], messages: LLMMessage[] = []): Progress {
  const p: Progress = { goal: "", done: new Set(), facts: {}, known: {}, continued: false, answered: false, wrapUp: false };
  // What the whole history shows of the workspace; each new prompt starts from a copy.
  const seen: Known = {};
  let prev: TraceEvent | undefined;
  for (const ev of trace) {
    if (ev.kind === "user") {
      const replay = prev?.kind === "summary" && fromSummary(prev.text).goal === oneLine(ev.text);
      if (replay) p.continued = true;
      else Object.assign(p, { goal: ev.text, done: new Set(), facts: {}, known: { ...seen }, continued: false, answered: false });
    } else if (ev.kind === "continue") p.continued = true;
    // The cut answer's text is not an end: the run picks up at its next step.
    else if (ev.kind === "resume") p.answered = false;
    else if (ev.kind === "summary") {
      const s = fromSummary(ev.text);
      noteSummary(seen, ev.text);
      Object.assign(p, { goal: s.goal ?? p.goal, done: s.done, facts: s.facts, known: { ...seen }, answered: s.answered });
    } else if (ev.kind === "answer") p.answered = true;
    else if (ev.kind === "call") {
      p.answered = false;
      let step = ev.call.ok ? stepOf(ev.call) : undefined;
      // The tests run before and after the fix are two steps of one command.
      if (step === "py-run" && p.done.has("py-fix")) step = "py-rerun";
      if (step) {
        p.done.add(step);
        // An output pruned from the request shows nothing of the workspace.
        const cleared = ev.call.output === CLEARED_TOOL_OUTPUT;
        if (!cleared) learn(p.facts, step, ev.call);
        noteCall(seen, step, ev.call.tool, cleared ? undefined : ev.call.output);
      }
    }
    prev = ev;
  }
  const last = trace[trace.length - 1];
  if (last?.kind === "call" && !last.call.ok) p.lastError = last.call;
  const tail = messages[messages.length - 1];
  p.wrapUp = tail?.role === "assistant" && tail.content.some((c) => c.type === "text" && c.text === MAX_STEPS_PROMPT);
  return p;
}
