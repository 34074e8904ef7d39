/**
 * OpenCode's pre-1.2 storage tree, dropped as a folder:
 * `storage/session/<projectID>/<ses>.json`, `storage/message/<ses>/<msg>.json`,
 * `storage/part/<msg>/<prt>.json`. Files are matched by these path shapes
 * wherever the dropped folder starts; messages and parts sort by id.
 */
import { guardedParse } from "../export/guards";
import { isObj, num, str } from "./jsonl";
import { type OpenCodeMessageRecord, openCodeV1Session } from "./opencode-records";
import type { HistoryBatch, HistorySession, ImportIssue, TextFile } from "./types";

const SESSION = /(?:^|\/)session\/(?:[^/]+\/)?(ses_[^/]+)\.json$/;
const MESSAGE = /(?:^|\/)message\/(ses_[^/]+)\/(msg_[^/]+)\.json$/;
const PART = /(?:^|\/)part\/(msg_[^/]+)\/(prt_[^/]+)\.json$/;

/** Whether a path is one of the storage tree's session, message or part files. */
export function isOpenCodeStoragePath(path: string): boolean {
  return SESSION.test(path) || MESSAGE.test(path) || PART.test(path);
}

function parse(f: TextFile, issues: ImportIssue[]): Record<string, unknown> | undefined {
  const r = guardedParse(f.text);
  if (!r.ok) issues.push({ at: f.path, problem: r.error });
  else if (!isObj(r.value)) issues.push({ at: f.path, problem: "expected a JSON object" });
  else return r.value;
  return undefined;
}

export function importOpenCodeStorage(files: readonly TextFile[], importedAt: number): HistoryBatch {
  const issues: ImportIssue[] = [];
  const sessions = new Map<string, TextFile>();
  const messages = new Map<string, { id: string; file: TextFile }[]>();
  const parts = new Map<string, { id: string; file: TextFile }[]>();
  for (const f of files) {
    const s = SESSION.exec(f.path);
    const m = MESSAGE.exec(f.path);
    const p = PART.exec(f.path);
    if (m?.[1] && m[2]) messages.set(m[1], [...(messages.get(m[1]) ?? []), { id: m[2], file: f }]);
    else if (p?.[1] && p[2]) parts.set(p[1], [...(parts.get(p[1]) ?? []), { id: p[2], file: f }]);
    else if (s?.[1]) sessions.set(s[1], f);
  }
  const out: HistorySession[] = [];
  for (const [id, file] of sessions) {
    const info = parse(file, issues);
    if (!info) continue;
    const time = isObj(info.time) ? info.time : {};
    const created = num(time.created) || importedAt;
    const records: OpenCodeMessageRecord[] = [];
    for (const m of (messages.get(id) ?? []).sort((a, b) => (a.id < b.id ? -1 : 1))) {
      const mi = parse(m.file, issues);
      if (!mi) continue;
      const ps = (parts.get(m.id) ?? []).sort((a, b) => (a.id < b.id ? -1 : 1));
      const partRecords: OpenCodeMessageRecord["parts"] = [];
      for (const p of ps) {
        const data = parse(p.file, issues);
        if (data) partRecords.push({ at: p.file.path, data });
      }
      records.push({ at: m.file.path, info: mi, parts: partRecords });
    }
    const parentID = str(info.parentID);
    const s = openCodeV1Session(
      { id, title: str(info.title) ?? "", created, updated: num(time.updated) || created, at: file.path, ...(str(info.version) ? { version: str(info.version) } : {}), ...(parentID ? { parentID } : {}) },
      records,
      issues,
      importedAt,
    );
    if (s) out.push(s);
  }
  if (sessions.size === 0 && messages.size > 0) issues.push({ at: "folder", problem: "message files were found but no storage/session/… files: drop the whole storage folder" });
  return { sessions: out, issues };
}
