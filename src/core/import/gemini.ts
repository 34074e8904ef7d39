/**
 * Gemini CLI histories:
 * - saved chats `~/.gemini/tmp/<project>/chats/session-*.json`
 *   (`{sessionId, projectHash, startTime, lastUpdated, messages[]}`);
 * - the JSONL recording: a header line, message records re-written by id
 *   (the last one wins) and `{"$set": {...}}` header updates;
 * - `/chat save` checkpoints `checkpoint-<tag>.json`: an array of `{role, parts}`.
 */
import { guardedParse } from "../export/guards";
import { Draft, type DraftModel, finishDraft } from "./draft";
import { inputObject, isObj, num, type Obj, parseLines, str, timeOf } from "./jsonl";
import type { HistoryBatch, HistorySession, ImportIssue, TextFile } from "./types";

const GEMINI: DraftModel = { providerID: "google", modelID: "unknown" };

export function isGeminiChat(v: unknown): boolean {
  return isObj(v) && typeof v.sessionId === "string" && Array.isArray(v.messages) && typeof v.projectHash === "string";
}

export function isGeminiCheckpoint(v: unknown): boolean {
  return Array.isArray(v) && v.length > 0 && v.every((c) => isObj(c) && (c.role === "user" || c.role === "model") && Array.isArray(c.parts));
}

/** Whether JSONL lines are a Gemini CLI recording (header line with `projectHash`). */
export function isGeminiRecording(first: Obj | undefined): boolean {
  return first !== undefined && typeof first.sessionId === "string" && typeof first.projectHash === "string";
}

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .filter(isObj)
    .map((p) => str(p.text) ?? "")
    .join("");
}

function toolResult(call: Obj): string {
  if (typeof call.resultDisplay === "string") return call.resultDisplay;
  const results = Array.isArray(call.result) ? call.result.filter(isObj) : [];
  return results
    .map((r) => (isObj(r.functionResponse) && isObj(r.functionResponse.response) ? r.functionResponse.response.output : undefined))
    .map((o) => (typeof o === "string" ? o : o === undefined ? "" : JSON.stringify(o)))
    .join("\n");
}

function chatSession(path: string, header: Obj, messages: readonly { at: string; m: Obj }[], issues: ImportIssue[], importedAt: number): HistorySession | undefined {
  const created = timeOf(header.startTime, importedAt);
  const d = new Draft({ tool: "gemini-cli", id: str(header.sessionId) ?? path }, created, `${path}:1`);
  d.touch(timeOf(header.lastUpdated, created));
  if (typeof header.summary === "string") d.title = header.summary;
  for (const { at, m } of messages) {
    const time = timeOf(m.timestamp, d.updated);
    if (m.type === "user") {
      const id = d.user(at, time, { model: GEMINI });
      d.part(id, at, { type: "text", text: textOf(m.content) });
    } else if (m.type === "gemini") {
      const id = d.assistant(at, time, { ...GEMINI, modelID: str(m.model) ?? "unknown" });
      d.part(id, at, { type: "step-start" });
      for (const t of Array.isArray(m.thoughts) ? m.thoughts.filter(isObj) : []) {
        const text = [str(t.subject), str(t.description)].filter(Boolean).join(": ");
        const ts = timeOf(t.timestamp, time);
        d.part(id, at, { type: "reasoning", text, time: { start: ts, end: ts } });
      }
      const text = textOf(m.content);
      if (text) d.part(id, at, { type: "text", text });
      for (const c of Array.isArray(m.toolCalls) ? m.toolCalls.filter(isObj) : []) {
        const ts = timeOf(c.timestamp, time);
        const input = inputObject(c.args);
        const output = toolResult(c);
        const span = { start: ts, end: Math.max(ts, time) };
        const state =
          c.status === "error" || c.status === "cancelled"
            ? { status: "error", input, error: output || `The call was ${String(c.status)}.`, time: span }
            : c.status === "success"
              ? { status: "completed", input, output, title: str(c.description) ?? str(c.displayName) ?? "", metadata: {}, time: span }
              : { status: "running", input, time: { start: ts } };
        d.part(id, at, { type: "tool", callID: str(c.id) ?? at, tool: str(c.name) ?? "unknown", state });
      }
      const tk = isObj(m.tokens) ? m.tokens : {};
      const cached = num(tk.cached);
      d.usage(id, at, { input: Math.max(0, num(tk.input) - cached), output: num(tk.output), reasoning: num(tk.thoughts), cache: { read: cached, write: 0 } });
      d.complete(id, time);
    }
    // info, warning and error lines are the CLI's own notices: not part of the conversation
  }
  return finishDraft(d, issues, importedAt);
}

function checkpointSession(path: string, contents: readonly Obj[], issues: ImportIssue[], importedAt: number): HistorySession | undefined {
  const d = new Draft({ tool: "gemini-cli", id: path }, importedAt, path);
  d.title = path.replace(/^.*checkpoint-/, "").replace(/\.json$/, "");
  const calls = new Map<string, Obj>();
  contents.forEach((c, i) => {
    const at = `${path}[${i}]`;
    const parts = Array.isArray(c.parts) ? c.parts.filter(isObj) : [];
    if (c.role === "user") {
      const texts = parts.filter((p) => typeof p.text === "string");
      for (const p of parts) {
        const r = isObj(p.functionResponse) ? p.functionResponse : undefined;
        const call = r ? calls.get(str(r.id) ?? str(r.name) ?? "") : undefined;
        if (r && call) {
          const state = call.state as Obj;
          const out = isObj(r.response) ? r.response.output : undefined;
          call.state = { status: "completed", input: state.input, output: typeof out === "string" ? out : JSON.stringify(r.response ?? ""), title: "", metadata: {}, time: { start: importedAt, end: importedAt } };
        }
      }
      if (texts.length === 0) return;
      const id = d.user(at, importedAt, { model: GEMINI });
      for (const p of texts) d.part(id, at, { type: "text", text: String(p.text), ...(p.thought === true ? { synthetic: true } : {}) });
    } else {
      const id = d.assistant(at, importedAt, GEMINI);
      for (const p of parts) {
        if (typeof p.text === "string") d.part(id, at, p.thought === true ? { type: "reasoning", text: p.text, time: { start: importedAt } } : { type: "text", text: p.text });
        else if (isObj(p.functionCall)) {
          const part = d.part(id, at, { type: "tool", callID: str(p.functionCall.id) ?? at, tool: str(p.functionCall.name) ?? "unknown", state: { status: "running", input: inputObject(p.functionCall.args), time: { start: importedAt } } });
          calls.set(str(p.functionCall.id) ?? str(p.functionCall.name) ?? at, part);
        }
      }
    }
  });
  return finishDraft(d, issues, importedAt);
}

/** Maps one Gemini CLI file (saved chat JSON, JSONL recording or checkpoint). */
export function importGemini(f: TextFile, importedAt: number): HistoryBatch {
  const issues: ImportIssue[] = [];
  const sessions: HistorySession[] = [];
  const push = (s: HistorySession | undefined) => {
    if (s) sessions.push(s);
  };
  if (f.path.endsWith(".jsonl")) {
    const lines = parseLines(f.path, f.text, issues);
    const header: Obj = { ...(lines[0]?.value ?? {}) };
    const byId = new Map<string, { at: string; m: Obj }>();
    for (const l of lines.slice(1)) {
      const at = `${f.path}:${l.n}`;
      if (isObj(l.value.$set)) Object.assign(header, l.value.$set);
      else if (typeof l.value.id === "string") byId.set(l.value.id, { at, m: { ...(byId.get(l.value.id)?.m ?? {}), ...l.value } });
    }
    push(chatSession(f.path, header, [...byId.values()], issues, importedAt));
    return { sessions, issues };
  }
  const parsed = guardedParse(f.text);
  if (!parsed.ok) return { sessions, issues: [{ at: f.path, problem: parsed.error }] };
  const v = parsed.value;
  if (isGeminiChat(v) && isObj(v)) {
    const msgs = (v.messages as unknown[]).flatMap((m, i) => (isObj(m) ? [{ at: `${f.path} messages[${i}]`, m }] : []));
    push(chatSession(f.path, v, msgs, issues, importedAt));
  } else if (isGeminiCheckpoint(v) && Array.isArray(v)) push(checkpointSession(f.path, v.filter(isObj), issues, importedAt));
  else issues.push({ at: f.path, problem: "not a Gemini CLI chat, recording or checkpoint" });
  return { sessions, issues };
}
