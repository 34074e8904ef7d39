/**
 * Codex CLI rollouts (`~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl`): lines
 * `{timestamp, type, payload}`. Prompts and replies are taken from
 * `response_item`s (their `event_msg` twins are skipped); usage from
 * `event_msg.token_count` (`last_token_usage` per request, whose input
 * includes the cached part); `compacted` becomes a summary.
 */
import type { Tokens } from "../schema";
import { Draft, type DraftModel, finishDraft } from "./draft";
import { inputObject, isObj, type Line, num, type Obj, parseLines, str, timeOf } from "./jsonl";
import type { HistoryBatch, HistorySession, ImportIssue, TextFile } from "./types";

export function isCodex(lines: readonly Line[]): boolean {
  return lines.some((l) => l.value.type === "session_meta" && isObj(l.value.payload)) || lines.slice(0, 5).some((l) => l.value.type === "response_item");
}

/** Injected context on the user's side (environment, AGENTS.md, IDE context): kept, but marked as not typed by a person. */
function isInjected(text: string): boolean {
  const t = text.trimStart();
  return t.startsWith("<environment_context>") || t.startsWith("<user_instructions>") || t.startsWith("# AGENTS.md") || t.startsWith("<permissions") || t.startsWith("# Context from my IDE setup");
}

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .filter(isObj)
    .map((c) => str(c.text) ?? "")
    .join("");
}

function tokensOf(u: unknown): Tokens | undefined {
  if (!isObj(u)) return undefined;
  const cached = num(u.cached_input_tokens);
  // As OpenAI counts them: cached input inside input_tokens, reasoning inside output_tokens (tabcode keeps each apart, so nothing is billed twice).
  const reasoning = num(u.reasoning_output_tokens);
  return { input: Math.max(0, num(u.input_tokens) - cached), output: Math.max(0, num(u.output_tokens) - reasoning), reasoning, cache: { read: cached, write: 0 } };
}

/** A function call output: plain text, or (older versions) JSON `{output, metadata:{exit_code}}`. */
function outputOf(raw: unknown): { text: string; exit?: number } {
  const s = typeof raw === "string" ? raw : isObj(raw) ? textOf(raw.content) || JSON.stringify(raw) : "";
  try {
    const v: unknown = JSON.parse(s);
    if (isObj(v) && typeof v.output === "string") {
      const exit = isObj(v.metadata) && typeof v.metadata.exit_code === "number" ? v.metadata.exit_code : undefined;
      return exit === undefined ? { text: v.output } : { text: v.output, exit };
    }
  } catch {
    // plain text output
  }
  return { text: s };
}

class Mapper {
  readonly d: Draft;
  private model: DraftModel = { providerID: "openai", modelID: "unknown" };
  private current?: string;
  private calls = new Map<string, Obj>();
  private stepDone = false;

  constructor(
    private readonly path: string,
    meta: Obj | undefined,
    created: number,
    fallbackId: string,
  ) {
    const version = str(meta?.cli_version);
    this.d = new Draft({ tool: "codex", id: str(meta?.id) ?? fallbackId, ...(version ? { version } : {}) }, created, `${path}:1`);
    if (meta && typeof meta.model_provider === "string") this.model = { ...this.model, providerID: meta.model_provider };
  }

  private answer(at: string, time: number): string {
    if (!this.current) {
      this.current = this.d.assistant(at, time, this.model);
      this.d.part(this.current, at, { type: "step-start" });
    } else if (this.stepDone) this.d.part(this.current, at, { type: "step-start" });
    this.stepDone = false;
    this.d.complete(this.current, time);
    return this.current;
  }

  line(l: Line): void {
    const { type, payload } = l.value;
    if (!isObj(payload)) return;
    const at = `${this.path}:${l.n}`;
    const time = timeOf(l.value.timestamp, this.d.updated);
    if (type === "turn_context" && typeof payload.model === "string") this.model = { ...this.model, modelID: payload.model };
    else if (type === "response_item") this.item(payload, at, time);
    else if (type === "compacted") {
      this.d.summary(at, time, str(payload.message) ?? "", this.model);
      this.current = undefined;
    } else if (type === "event_msg" && payload.type === "token_count" && isObj(payload.info)) {
      const t = tokensOf(payload.info.last_token_usage);
      if (t && this.current) {
        this.d.usage(this.current, at, t);
        // The next request of the same turn is a new step.
        this.stepDone = true;
      }
    } else if (type === "event_msg" && payload.type === "turn_aborted" && this.current) this.d.complete(this.current, time, "aborted");
  }

  private item(p: Obj, at: string, time: number): void {
    switch (p.type) {
      case "message": {
        const text = textOf(p.content);
        if (p.role === "user") {
          const id = this.d.user(at, time, { model: this.model });
          this.d.part(id, at, isInjected(text) ? { type: "text", text, synthetic: true } : { type: "text", text });
          this.current = undefined;
        } else if (p.role === "assistant") this.d.part(this.answer(at, time), at, { type: "text", text });
        // developer messages are instructions: not shown
        return;
      }
      case "reasoning": {
        const summary = Array.isArray(p.summary) ? p.summary.filter(isObj).map((s) => str(s.text) ?? "").join("\n\n") : "";
        const text = summary || textOf(p.content);
        if (text) this.d.part(this.answer(at, time), at, { type: "reasoning", text, time: { start: time, end: time } });
        return;
      }
      case "function_call":
      case "custom_tool_call":
      case "local_shell_call": {
        const callID = str(p.call_id) ?? str(p.id) ?? at;
        const input = p.type === "function_call" ? inputObject(p.arguments) : p.type === "custom_tool_call" ? { input: str(p.input) ?? "" } : inputObject(p.action);
        const tool = str(p.name) ?? (p.type === "local_shell_call" ? "local_shell" : "unknown");
        const part = this.d.part(this.answer(at, time), at, { type: "tool", callID, tool, state: { status: "running", input, time: { start: time } } });
        this.calls.set(callID, part);
        return;
      }
      case "function_call_output":
      case "custom_tool_call_output": {
        const part = this.calls.get(str(p.call_id) ?? "");
        if (!part) return;
        const state = part.state as Obj;
        const start = ((state.time as Obj).start as number) ?? time;
        const out = outputOf(p.output);
        const span = { start, end: Math.max(start, time) };
        part.state = { status: "completed", input: state.input, output: out.text, title: "", metadata: out.exit === undefined ? {} : { exit: out.exit }, time: span };
        return;
      }
      case "web_search_call": {
        const input = inputObject(p.action);
        this.d.part(this.answer(at, time), at, { type: "tool", callID: str(p.id) ?? at, tool: "web_search", state: { status: "completed", input, output: "", title: "", metadata: {}, time: { start: time, end: time } } });
        return;
      }
      default:
        return;
    }
  }
}

/** Maps Codex rollout files, one session each. */
export function importCodex(files: readonly TextFile[], importedAt: number): HistoryBatch {
  const issues: ImportIssue[] = [];
  const sessions: HistorySession[] = [];
  for (const f of files) {
    const lines = parseLines(f.path, f.text, issues);
    const metaLine = lines.find((l) => l.value.type === "session_meta" && isObj(l.value.payload));
    const meta = metaLine && isObj(metaLine.value.payload) ? metaLine.value.payload : undefined;
    const created = timeOf(meta?.timestamp ?? lines[0]?.value.timestamp, importedAt);
    const m = new Mapper(f.path, meta, created, f.path);
    for (const l of lines) m.line(l);
    const s = finishDraft(m.d, issues, importedAt);
    if (s) sessions.push(s);
  }
  return { sessions, issues };
}
