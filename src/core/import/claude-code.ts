/**
 * Claude Code transcripts (`~/.claude/projects/<dir>/<session>.jsonl`, and
 * subagent transcripts `agent-<id>.jsonl` / `<session>/subagents/agent-<id>.jsonl`).
 * One API response is written as several lines sharing `message.id`: they are
 * merged into one assistant message and their usage counted once. The shown
 * branch is the path from the last line back through `parentUuid`.
 */
import { emptyTokens, type Tokens } from "../schema";
import { Draft, finishDraft } from "./draft";
import { inputObject, isObj, type Line, num, type Obj, parseLines, str, timeOf } from "./jsonl";
import type { HistoryBatch, HistorySession, ImportIssue, TextFile } from "./types";

const TOOL = "claude-code";

/** Whether these lines look like a Claude Code transcript. */
export function isClaudeCode(lines: readonly Line[]): boolean {
  return lines.some((l) => typeof l.value.sessionId === "string" && (l.value.type === "user" || l.value.type === "assistant") && isObj(l.value.message));
}

interface Group {
  key: string;
  sessionId: string;
  sidechain: boolean;
  lines: Line[];
}

function groupLines(lines: readonly Line[]): Group[] {
  const groups = new Map<string, Group>();
  for (const l of lines) {
    const sessionId = str(l.value.sessionId);
    if (!sessionId) continue;
    const sidechain = l.value.isSidechain === true;
    const agent = str(l.value.agentId) ?? "sidechain";
    const key = sidechain ? `${sessionId}:agent-${agent}` : sessionId;
    let g = groups.get(key);
    if (!g) {
      g = { key, sessionId, sidechain, lines: [] };
      groups.set(key, g);
    }
    g.lines.push(l);
  }
  return [...groups.values()];
}

/** The lines of the shown branch: from the last message line back to the root, in file order. */
function shownBranch(lines: readonly Line[]): Line[] {
  const byUuid = new Map<string, Line>();
  for (const l of lines) {
    const u = str(l.value.uuid);
    if (u) byUuid.set(u, l);
  }
  const last = [...lines].reverse().find((l) => (l.value.type === "user" || l.value.type === "assistant") && str(l.value.uuid));
  if (!last) return [...lines];
  const keep = new Set<Line>();
  let cur: Line | undefined = last;
  while (cur && !keep.has(cur)) {
    keep.add(cur);
    const parent: string | undefined = str(cur.value.parentUuid) ?? str(cur.value.logicalParentUuid);
    cur = parent ? byUuid.get(parent) : undefined;
  }
  return lines.filter((l) => keep.has(l) || !str(l.value.uuid));
}

function usageOf(u: unknown): Tokens {
  if (!isObj(u)) return emptyTokens();
  return { input: num(u.input_tokens), output: num(u.output_tokens), reasoning: 0, cache: { read: num(u.cache_read_input_tokens), write: num(u.cache_creation_input_tokens) } };
}

function resultText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((b) => (isObj(b) && b.type === "text" ? (str(b.text) ?? "") : isObj(b) && b.type === "image" ? "[image]" : ""))
    .filter(Boolean)
    .join("\n");
}

function imagePart(block: Obj): Obj | undefined {
  const src = block.source;
  if (!isObj(src) || src.type !== "base64") return undefined;
  const mime = str(src.media_type) ?? "image/png";
  return { type: "file", mime, filename: "image", url: `data:${mime};base64,${str(src.data) ?? ""}` };
}

class Mapper {
  readonly d: Draft;
  private tools = new Map<string, Obj>();
  private api = new Map<string, { msg: string; tokens: Tokens; at: string }>();
  /** The model of the newest answer read: Claude Code's summaries do not name theirs. */
  private lastModel: string | undefined;
  private titleFromLine = "";

  constructor(
    private readonly path: string,
    g: Group,
    first: number,
  ) {
    const version = g.lines.map((l) => str(l.value.version)).find(Boolean);
    this.d = new Draft({ tool: TOOL, id: g.key, ...(version ? { version } : {}) }, first, `${path}:${g.lines[0]?.n ?? 1}`);
    if (g.sidechain) this.d.parentSourceID = g.sessionId;
  }

  line(l: Line): void {
    const v = l.value;
    const at = `${this.path}:${l.n}`;
    const time = timeOf(v.timestamp, this.d.updated);
    if (v.type === "custom-title" || v.type === "ai-title") {
      const t = str(v.customTitle) ?? str(v.aiTitle) ?? str(v.title);
      if (t && (v.type === "custom-title" || !this.titleFromLine)) this.titleFromLine = t;
      return;
    }
    if (!isObj(v.message)) return;
    if (v.type === "user") this.user(v, v.message, at, time);
    else if (v.type === "assistant") this.assistant(v.message, at, time);
  }

  private user(v: Obj, m: Obj, at: string, time: number): void {
    const content = m.content;
    if (v.isCompactSummary === true) {
      // Claude Code does not say which model wrote its summary: the session's model of the time did.
      this.d.summary(at, time, typeof content === "string" ? content : resultText(content), { providerID: "anthropic", modelID: this.lastModel ?? "unknown" });
      return;
    }
    const blocks: Obj[] = typeof content === "string" ? [{ type: "text", text: content }] : Array.isArray(content) ? content.filter(isObj) : [];
    const prompt: Obj[] = [];
    for (const b of blocks) {
      if (b.type === "tool_result") this.result(b, v.toolUseResult, time);
      else if (b.type === "text" && typeof b.text === "string") prompt.push({ type: "text", text: b.text, ...(v.isMeta === true ? { synthetic: true } : {}) });
      else if (b.type === "image") {
        const img = imagePart(b);
        if (img) prompt.push(img);
      }
    }
    if (prompt.length === 0) return;
    const id = this.d.user(at, time);
    for (const p of prompt) this.d.part(id, at, p);
  }

  private result(b: Obj, structured: unknown, time: number): void {
    const part = this.tools.get(str(b.tool_use_id) ?? "");
    if (!part) return;
    const state = part.state as Obj;
    const start = (state.time as Obj | undefined)?.start;
    const span = { start: typeof start === "number" ? start : time, end: Math.max(time, typeof start === "number" ? start : time) };
    const output = resultText(b.content);
    part.state =
      b.is_error === true
        ? { status: "error", input: state.input, error: output || "The tool reported an error.", time: span }
        : { status: "completed", input: state.input, output, title: "", metadata: isObj(structured) ? { result: structured } : {}, time: span };
  }

  private assistant(m: Obj, at: string, time: number): void {
    const apiId = str(m.id) ?? at;
    let entry = this.api.get(apiId);
    if (!entry) {
      const model = str(m.model);
      if (model && model !== "<synthetic>") this.lastModel = model;
      const msg = this.d.assistant(at, time, { providerID: "anthropic", modelID: model ?? "unknown" });
      this.d.part(msg, at, { type: "step-start" });
      entry = { msg, tokens: usageOf(m.usage), at };
      this.api.set(apiId, entry);
    }
    this.d.complete(entry.msg, time, str(m.stop_reason) ?? "stop");
    const content = Array.isArray(m.content) ? m.content.filter(isObj) : [];
    for (const b of content) {
      if (b.type === "text" && typeof b.text === "string") this.d.part(entry.msg, at, { type: "text", text: b.text });
      else if (b.type === "thinking") this.d.part(entry.msg, at, { type: "reasoning", text: str(b.thinking) ?? "", time: { start: time, end: time } });
      else if (b.type === "redacted_thinking") this.d.part(entry.msg, at, { type: "reasoning", text: "(redacted thinking)", time: { start: time, end: time } });
      else if (b.type === "tool_use") {
        const callID = str(b.id) ?? at;
        const part = this.d.part(entry.msg, at, { type: "tool", callID, tool: str(b.name) ?? "unknown", state: { status: "running", input: inputObject(b.input), time: { start: time } } });
        this.tools.set(callID, part);
      }
    }
  }

  finish(issues: ImportIssue[], summaries: ReadonlyMap<string, string>, uuids: readonly string[], importedAt: number): HistorySession | undefined {
    for (const e of this.api.values()) this.d.usage(e.msg, e.at, e.tokens);
    this.d.title = this.titleFromLine || uuids.map((u) => summaries.get(u)).find(Boolean) || "";
    return finishDraft(this.d, issues, importedAt);
  }
}

/** Collects the titles of Claude Code's `summary` lines (by the uuid of the line they end at) into `into`. */
export function claudeCodeSummaries(lines: readonly Line[], into: Map<string, string>): void {
  for (const l of lines) if (l.value.type === "summary" && typeof l.value.summary === "string" && typeof l.value.leafUuid === "string") into.set(l.value.leafUuid, l.value.summary);
}

/** Maps the parsed lines of one transcript file; `summaries` are those of every file of the drop (a title may come from another file). */
export function mapClaudeCodeFile(path: string, lines: readonly Line[], summaries: ReadonlyMap<string, string>, issues: ImportIssue[], importedAt: number): HistorySession[] {
  const sessions: HistorySession[] = [];
  for (const g of groupLines(lines)) {
    const branch = shownBranch(g.lines);
    const first = branch.map((l) => timeOf(l.value.timestamp, Number.NaN)).find((t) => Number.isFinite(t)) ?? importedAt;
    const m = new Mapper(path, g, first);
    for (const l of branch) m.line(l);
    const uuids = g.lines.map((l) => str(l.value.uuid)).filter((u): u is string => u !== undefined);
    const s = m.finish(issues, summaries, uuids, importedAt);
    if (s) sessions.push(s);
  }
  return sessions;
}

/** Maps Claude Code transcript files. Several sessions may come from one file (a resumed conversation, sidechains). */
export function importClaudeCode(files: readonly TextFile[], importedAt: number): HistoryBatch {
  const issues: ImportIssue[] = [];
  const sessions: HistorySession[] = [];
  const parsed = files.map((f) => ({ path: f.path, lines: parseLines(f.path, f.text, issues) }));
  const summaries = new Map<string, string>();
  for (const f of parsed) claudeCodeSummaries(f.lines, summaries);
  for (const f of parsed) sessions.push(...mapClaudeCodeFile(f.path, f.lines, summaries, issues, importedAt));
  return { sessions, issues };
}
