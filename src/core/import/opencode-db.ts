/**
 * OpenCode's `opencode.db` through a synchronous SQL port (the WASM SQLite in
 * a Worker, or in Node for tests). Two generations are read:
 * - 1.2+: `session` rows with `message`/`part` rows whose `data` is the 1.x JSON;
 * - 2.x: `session_v2` rows with `session_message` rows (`type`, `seq`, `data`).
 * A database holding both (2.x copies old sessions into `session_v2` under the
 * same id) is read from `session_v2` for those ids.
 */
import { guardedParse } from "../export/guards";
import { num, str } from "./jsonl";
import { type OpenCodeMessageRecord, type OpenCodeSessionMeta, type OpenCodeV2Row, openCodeV1Session, openCodeV2Session } from "./opencode-records";
import type { HistorySession, ImportIssue } from "./types";

export type SqlValue = string | number | null | Uint8Array;
export type Row = Record<string, SqlValue>;

/** The only thing the mapping needs from SQLite. */
export interface SqlSource {
  all(sql: string, params?: readonly (string | number)[]): Row[];
}

/** One session as the picker lists it. */
export interface DbSessionSummary {
  sourceID: string;
  title: string;
  created: number;
  updated: number;
  project: string;
  parentID?: string;
  /** Messages plus parts: the session's size in records. */
  records: number;
  table: "session" | "session_v2";
}

export interface DbSchema {
  v1: boolean;
  v2: boolean;
}

function tables(db: SqlSource): Set<string> {
  return new Set(db.all("SELECT name FROM sqlite_master WHERE type = 'table'").map((r) => String(r.name)));
}

function columns(db: SqlSource, table: string): Set<string> {
  return new Set(db.all(`PRAGMA table_info(${table})`).map((r) => String(r.name)));
}

/** Which generations the file holds; an error in words when it is not an OpenCode database. */
export function detectSchema(db: SqlSource): { ok: true; value: DbSchema } | { ok: false; error: string } {
  let t: Set<string>;
  try {
    t = tables(db);
  } catch {
    return { ok: false, error: "The file is not a SQLite database (or it is damaged)." };
  }
  const v1 = t.has("session") && t.has("message") && t.has("part");
  const v2 = t.has("session_v2") && t.has("session_message");
  if (!v1 && !v2) return { ok: false, error: "This SQLite file is not an OpenCode database: it has neither the session/message/part tables (OpenCode 1.2+) nor session_v2/session_message (OpenCode 2.x)." };
  return { ok: true, value: { v1, v2 } };
}

function projectNames(db: SqlSource): Map<string, string> {
  const out = new Map<string, string>();
  if (!tables(db).has("project")) return out;
  const cols = columns(db, "project");
  const name = ["name", "worktree"].filter((c) => cols.has(c));
  if (name.length === 0) return out;
  for (const r of db.all(`SELECT id, ${name.join(", ")} FROM project`)) out.set(String(r.id), str(r.name) || str(r.worktree) || String(r.id));
  return out;
}

function summaries(db: SqlSource, table: "session" | "session_v2", projects: Map<string, string>): DbSessionSummary[] {
  const cols = columns(db, table);
  const dir = cols.has("directory") ? "directory" : "NULL AS directory";
  const counts =
    table === "session"
      ? "(SELECT count(*) FROM message m WHERE m.session_id = s.id) + (SELECT count(*) FROM part p WHERE p.session_id = s.id)"
      : "(SELECT count(*) FROM session_message m WHERE m.session_id = s.id)";
  const rows = db.all(`SELECT s.id, s.title, s.project_id, s.parent_id, ${dir}, s.time_created, s.time_updated, ${counts} AS records FROM ${table} s ORDER BY s.time_updated DESC`);
  return rows.map((r) => {
    const parent = str(r.parent_id);
    const out: DbSessionSummary = {
      sourceID: String(r.id),
      title: str(r.title) || "Untitled session",
      created: num(r.time_created),
      updated: num(r.time_updated) || num(r.time_created),
      project: projects.get(String(r.project_id)) ?? (str(r.directory) || String(r.project_id ?? "")),
      records: num(r.records),
      table,
    };
    if (parent) out.parentID = parent;
    return out;
  });
}

/** Every session in the database, newest first; 2.x rows win over 1.x rows with the same id. */
export function listDbSessions(db: SqlSource, schema: DbSchema): DbSessionSummary[] {
  const projects = projectNames(db);
  const v2 = schema.v2 ? summaries(db, "session_v2", projects) : [];
  const seen = new Set(v2.map((s) => s.sourceID));
  const v1 = schema.v1 ? summaries(db, "session", projects).filter((s) => !seen.has(s.sourceID)) : [];
  return [...v2, ...v1].sort((a, b) => b.updated - a.updated);
}

function json(raw: SqlValue, at: string, issues: ImportIssue[]): unknown {
  if (typeof raw !== "string") {
    issues.push({ at, problem: "the data column is not text" });
    return undefined;
  }
  const r = guardedParse(raw);
  if (r.ok) return r.value;
  issues.push({ at, problem: r.error });
  return undefined;
}

function meta(db: SqlSource, s: DbSessionSummary): OpenCodeSessionMeta {
  const r = db.all(`SELECT version FROM ${s.table} WHERE id = ?`, [s.sourceID])[0];
  const out: OpenCodeSessionMeta = { id: s.sourceID, title: s.title, created: s.created, updated: s.updated, at: `${s.table} row ${s.sourceID}` };
  const version = str(r?.version);
  if (version) out.version = version;
  if (s.parentID) out.parentID = s.parentID;
  return out;
}

/** Reads and maps one listed session. Bad rows are reported as `table row <id>` and skipped. */
export function readDbSession(db: SqlSource, s: DbSessionSummary, issues: ImportIssue[], importedAt: number): HistorySession | undefined {
  const m = meta(db, s);
  if (s.table === "session_v2") {
    const rows: OpenCodeV2Row[] = [];
    for (const r of db.all("SELECT id, type, time_created, data FROM session_message WHERE session_id = ? ORDER BY seq, id", [s.sourceID])) {
      const at = `session_message row ${String(r.id)}`;
      const data = json(r.data ?? null, at, issues);
      if (data !== undefined) rows.push({ at, type: String(r.type), time: num(r.time_created), data });
    }
    return openCodeV2Session(m, rows, issues, importedAt);
  }
  const parts = new Map<string, OpenCodeMessageRecord["parts"]>();
  for (const r of db.all("SELECT id, message_id, data FROM part WHERE session_id = ? ORDER BY message_id, time_created, id", [s.sourceID])) {
    const at = `part row ${String(r.id)}`;
    const data = json(r.data ?? null, at, issues);
    if (data === undefined) continue;
    const key = String(r.message_id);
    const list = parts.get(key) ?? [];
    list.push({ at, data });
    parts.set(key, list);
  }
  const records: OpenCodeMessageRecord[] = [];
  for (const r of db.all("SELECT id, data FROM message WHERE session_id = ? ORDER BY time_created, id", [s.sourceID])) {
    const at = `message row ${String(r.id)}`;
    const data = json(r.data ?? null, at, issues);
    if (data === undefined) continue;
    records.push({ at, info: typeof data === "object" && data !== null ? { ...data, id: String(r.id) } : data, parts: parts.get(String(r.id)) ?? [] });
  }
  return openCodeV1Session(m, records, issues, importedAt);
}
