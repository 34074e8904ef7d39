/**
 * OpenCode records onto our schema: the 1.x message/part JSON (storage files
 * and the 1.2+ `message`/`part` tables hold the same JSON) and the 2.x
 * `session_message` rows. Our part model is OpenCode 1.x's, so 1.x parts map
 * field for field; unknown part types are reported and skipped.
 */
import { openCodeMessage, openCodePart } from "../export/opencode";
import { emptyTokens } from "../schema";
import { Draft, finishDraft } from "./draft";
import { inputObject, isObj, num, type Obj, str } from "./jsonl";
import type { HistorySession, ImportIssue } from "./types";

/** A session row or file, normalised. */
export interface OpenCodeSessionMeta {
  id: string;
  title: string;
  version?: string;
  created: number;
  updated: number;
  parentID?: string;
  at: string;
}

/** A 1.x message with its parts, each with where it was read from. */
export interface OpenCodeMessageRecord {
  at: string;
  info: unknown;
  parts: { at: string; data: unknown }[];
}

function newDraft(meta: OpenCodeSessionMeta): Draft {
  const d = new Draft({ tool: "opencode", id: meta.id, ...(meta.version ? { version: meta.version } : {}) }, meta.created, meta.at);
  d.title = meta.title;
  d.touch(meta.updated);
  d.sourceUpdated = meta.updated;
  if (meta.parentID) d.parentSourceID = meta.parentID;
  return d;
}

function stripIds(raw: Obj): Obj {
  const { id: _id, sessionID: _s, messageID: _m, ...rest } = raw;
  return rest;
}

/** Maps one 1.x session (storage tree or the `message`/`part` tables). */
export function openCodeV1Session(meta: OpenCodeSessionMeta, records: readonly OpenCodeMessageRecord[], issues: ImportIssue[], importedAt: number): HistorySession | undefined {
  const d = newDraft(meta);
  const ids = new Map<string, string>();
  for (const r of records) {
    const info = openCodeMessage(r.info);
    if (!isObj(info) || (info.role !== "user" && info.role !== "assistant")) {
      issues.push({ at: r.at, problem: "not an OpenCode message (no role user or assistant)" });
      continue;
    }
    const time = isObj(info.time) ? num(info.time.created) || meta.created : meta.created;
    let id: string;
    if (info.role === "user") {
      const model = isObj(info.model) ? { providerID: str(info.model.providerID) ?? "unknown", modelID: str(info.model.modelID) ?? "unknown" } : undefined;
      id = d.user(r.at, time, { agent: str(info.agent) ?? "build", ...(model ? { model } : {}) });
      if (typeof info.system === "string") d.setInfo(id, { system: info.system });
    } else {
      id = d.assistant(r.at, time, { providerID: str(info.providerID) ?? "unknown", modelID: str(info.modelID) ?? "unknown" }, { agent: str(info.agent) ?? "build", summary: info.summary === true });
      const patch: Obj = { cost: info.cost, tokens: info.tokens, time: info.time };
      if (info.finish !== undefined) patch.finish = info.finish;
      if (info.error !== undefined) patch.error = info.error;
      d.setInfo(id, patch, isObj(info.time) ? num(info.time.completed) : undefined);
    }
    if (typeof (r.info as Obj).id === "string") ids.set((r.info as Obj).id as string, id);
    for (const p of r.parts) {
      const part = openCodePart(p.data, time);
      if (part === undefined) {
        issues.push({ at: p.at, problem: `a part of a type this app does not know (${String((p.data as Obj).type)}) was skipped` });
        continue;
      }
      if (!isObj(part)) {
        issues.push({ at: p.at, problem: "not a part object" });
        continue;
      }
      const body = stripIds(part);
      // OpenCode's summary, not one tabcode made.
      if (body.type === "compaction") body.origin = d.source.tool;
      if (body.type === "compaction" && typeof body.tail_start_id === "string") {
        const tail = ids.get(body.tail_start_id);
        if (tail) body.tail_start_id = tail;
        else delete body.tail_start_id;
      }
      d.part(id, p.at, body);
    }
  }
  return finishDraft(d, issues, importedAt);
}

/** One 2.x `session_message` row. */
export interface OpenCodeV2Row {
  at: string;
  type: string;
  time: number;
  data: unknown;
}

function v2Content(d: Draft, msg: string, at: string, c: Obj, time: number): void {
  const t = isObj(c.time) ? c.time : {};
  const start = num(t.created) || time;
  const end = Math.max(start, num(t.completed) || start);
  switch (c.type) {
    case "text":
      d.part(msg, at, { type: "text", text: str(c.text) ?? "" });
      return;
    case "reasoning":
      d.part(msg, at, { type: "reasoning", text: str(c.text) ?? "", time: { start, end } });
      return;
    case "tool": {
      const s = isObj(c.state) ? c.state : {};
      const input = inputObject(s.input);
      const output = Array.isArray(s.content)
        ? s.content
            .filter(isObj)
            .map((x) => str(x.text) ?? "")
            .join("\n")
        : (str(s.output) ?? "");
      const metadata = isObj(s.metadata) ? s.metadata : {};
      const state =
        s.status === "completed"
          ? { status: "completed", input, output, title: str(s.title) ?? "", metadata, time: { start, end } }
          : s.status === "error"
            ? { status: "error", input, error: str(s.error) ?? (isObj(s.error) ? str(s.error.message) : undefined) ?? (output || "The tool failed."), metadata, time: { start, end } }
            : { status: "running", input, time: { start } };
      d.part(msg, at, { type: "tool", callID: str(c.id) ?? at, tool: str(c.name) ?? "unknown", state });
      return;
    }
    case "file":
      if (typeof c.url === "string" && typeof c.mime === "string") d.part(msg, at, { type: "file", url: c.url, mime: c.mime, ...(typeof c.filename === "string" ? { filename: c.filename } : {}) });
      return;
    default:
      d.part(msg, at, { type: `unknown:${String(c.type)}` });
  }
}

/** Maps one 2.x session from its `session_message` rows (in `seq` order). */
export function openCodeV2Session(meta: OpenCodeSessionMeta, rows: readonly OpenCodeV2Row[], issues: ImportIssue[], importedAt: number): HistorySession | undefined {
  const d = newDraft(meta);
  for (const r of rows) {
    if (!isObj(r.data)) {
      issues.push({ at: r.at, problem: "the data column is not a JSON object" });
      continue;
    }
    const data = r.data;
    const time = isObj(data.time) ? num(data.time.created) || r.time : r.time;
    if (r.type === "user") {
      const id = d.user(r.at, time);
      if (typeof data.text === "string") d.part(id, r.at, { type: "text", text: data.text });
      if (Array.isArray(data.files)) for (const f of data.files.filter(isObj)) v2Content(d, id, r.at, { ...f, type: "file" }, time);
    } else if (r.type === "assistant") {
      const model = isObj(data.model) ? data.model : {};
      const id = d.assistant(r.at, time, { providerID: str(model.providerID) ?? "unknown", modelID: str(model.id) ?? "unknown" }, { agent: str(data.agent) ?? "build" });
      d.part(id, r.at, { type: "step-start" });
      for (const c of Array.isArray(data.content) ? data.content.filter(isObj) : []) v2Content(d, id, r.at, c, time);
      d.usage(id, r.at, isObj(data.tokens) ? data.tokens : emptyTokens(), num(data.cost));
      d.complete(id, isObj(data.time) ? num(data.time.completed) || time : time, str(data.finish));
    } else if (r.type === "compaction" || r.type === "summary") {
      d.summary(r.at, time, str(data.text) ?? str(data.summary) ?? "", { providerID: "unknown", modelID: "unknown" });
    }
    // idle, input and other bookkeeping rows carry no conversation
  }
  return finishDraft(d, issues, importedAt);
}
