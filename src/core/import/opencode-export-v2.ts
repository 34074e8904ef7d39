/**
 * OpenCode 2.x `opencode session export` JSON: `{info, messages}` like the 1.x
 * `opencode export`, but `info` names the session's folder `location` (1.x:
 * `directory`) and each message is a 2.x message record — the `session_message`
 * row's JSON with its `id` and `type` (`user` text and files, `assistant` with
 * a `content` array of reasoning/text/tool items whose tool `state` carries
 * `content[]` and, on failures, `error`). The records map through the same
 * code as the 2.x database rows. Windows' "Exporting session: …" prefix is
 * skipped as for 1.x exports.
 */
import { isObj, num, type Obj, str } from "./jsonl";
import { guardedParse } from "../export/guards";
import { type OpenCodeSessionMeta, type OpenCodeV2Row, openCodeV2Session } from "./opencode-records";
import type { HistoryBatch, ImportIssue, TextFile } from "./types";

function isV2Message(m: unknown): boolean {
  return isObj(m) && typeof m.type === "string" && !("info" in m) && !("parts" in m);
}

/** Whether a parsed export is the 2.x shape (rather than 1.x `{info, parts}` messages). */
export function isOpenCodeV2Export(v: unknown): boolean {
  if (!isObj(v) || !isObj(v.info) || !Array.isArray(v.messages)) return false;
  if ("location" in v.info && !("directory" in v.info)) return true;
  return v.messages.length > 0 && v.messages.every(isV2Message);
}

function location(info: Obj): string | undefined {
  const l = info.location;
  if (typeof l === "string") return l;
  if (isObj(l)) return str(l.directory) ?? str(l.path) ?? str(l.worktree);
  return str(info.directory);
}

/** The session row of an export; a missing title is named after its folder. */
function meta(path: string, info: Obj): OpenCodeSessionMeta {
  const time = isObj(info.time) ? info.time : {};
  const created = num(time.created);
  const where = location(info);
  const out: OpenCodeSessionMeta = {
    id: str(info.id) ?? path,
    title: str(info.title) ?? (where ? `OpenCode session in ${where}` : "OpenCode session"),
    created,
    updated: Math.max(created, num(time.updated)),
    at: `${path}: info`,
  };
  const version = str(info.version);
  if (version) out.version = version;
  const parent = str(info.parentID) ?? str(info.parent_id);
  if (parent) out.parentID = parent;
  return out;
}

/** Maps one `opencode session export` file; bad messages are reported as `file: messages[i]` and skipped. */
export function importOpenCodeV2Export(file: TextFile, importedAt: number): HistoryBatch {
  const issues: ImportIssue[] = [];
  const parsed = guardedParse(file.text.replace(/^[^{[]*/, ""));
  if (!parsed.ok) return { sessions: [], issues: [{ at: file.path, problem: parsed.error }] };
  const v = parsed.value;
  if (!isObj(v) || !isObj(v.info) || !Array.isArray(v.messages)) return { sessions: [], issues: [{ at: file.path, problem: "not an OpenCode session export (no info and messages)" }] };
  const m = meta(file.path, v.info);
  const rows: OpenCodeV2Row[] = [];
  v.messages.forEach((msg: unknown, i: number) => {
    const at = `${file.path}: messages[${i}]`;
    if (!isObj(msg) || typeof msg.type !== "string") {
      issues.push({ at, problem: "a message without a type" });
      return;
    }
    const time = isObj(msg.time) ? num(msg.time.created) : 0;
    rows.push({ at, type: msg.type, time: time || m.created, data: msg });
  });
  const s = openCodeV2Session(m, rows, issues, importedAt);
  return { sessions: s ? [s] : [], issues };
}
