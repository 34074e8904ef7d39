/**
 * Which importer reads a dropped file, from its path and first bytes. SQLite
 * files go to the database importer; our own exports and `opencode export`
 * files to the existing export import; OpenCode 2.x `session export` files
 * (2.x message records) map like the 2.x database.
 */
import { importClaudeCode, isClaudeCode } from "./claude-code";
import { importCodex, isCodex } from "./codex";
import { importGemini, isGeminiChat, isGeminiCheckpoint, isGeminiRecording } from "./gemini";
import { parseJson } from "../export/guards";
import { isObj, parseLines } from "./jsonl";
import { importOpenCodeV2Export, isOpenCodeV2Export } from "./opencode-export-v2";
import { importOpenCodeStorage, isOpenCodeStoragePath } from "./opencode-storage";
import type { HistoryBatch, ImportIssue, TextFile } from "./types";

export type FileKind = "sqlite" | "export" | "opencode-export-v2" | "opencode-storage" | "claude-code" | "codex" | "gemini-cli" | "damaged" | "unknown";

const SQLITE_MAGIC = "SQLite format 3\0";

/** Whether the first 16 bytes are SQLite's header. */
export function isSqlite(head: Uint8Array): boolean {
  if (head.length < 16) return false;
  for (let i = 0; i < 16; i++) if (head[i] !== SQLITE_MAGIC.charCodeAt(i)) return false;
  return true;
}

function firstJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Keys near the start of a session file of ours, OpenCode's or Gemini CLI's. */
const SESSION_KEYS = /"(?:sessionId|messages|info|format)"\s*:/;

/** The kind of a text file (JSON or JSONL) by path and content. */
export function textKind(f: TextFile): FileKind {
  if (isOpenCodeStoragePath(f.path)) return "opencode-storage";
  const lower = f.path.toLowerCase();
  if (lower.endsWith(".jsonl")) {
    const head = parseLines(f.path, f.text.slice(0, 200_000).split("\n").slice(0, 30).join("\n"), []);
    if (isCodex(head)) return "codex";
    if (isGeminiRecording(head[0]?.value)) return "gemini-cli";
    if (isClaudeCode(head) || head.some((l) => l.value.type === "summary" && typeof l.value.leafUuid === "string")) return "claude-code";
    return "unknown";
  }
  const body = f.text.replace(/^[^{[]*/, "");
  const v = firstJson(body);
  // JSON that breaks off or has a syntax error, and reads like a session (a cut download, an edit gone wrong), is a
  // damaged history file, not an unknown one; other broken JSON in a dropped folder (a tsconfig with comments) is not.
  if (v === undefined && lower.endsWith(".json") && SESSION_KEYS.test(body.slice(0, 4096))) return "damaged";
  if (isGeminiChat(v) || isGeminiCheckpoint(v)) return "gemini-cli";
  if (isOpenCodeV2Export(v)) return "opencode-export-v2";
  if (isObj(v) && ("format" in v || ("info" in v && "messages" in v))) return "export";
  return "unknown";
}

/** What the user is told about a file `textKind` found damaged: where its JSON breaks. */
export function damagedIssue(f: TextFile): ImportIssue {
  // Parsed from its first brace, as detected; a position is then counted in the file as it is.
  const skipped = /^[^{[]*/.exec(f.text)?.[0].length ?? 0;
  const parsed = parseJson(f.text.slice(skipped));
  if (!parsed.ok && skipped > 0) parsed.error = parsed.error.replace(/near character ([\d,]+)/, (_, n: string) => `near character ${(Number(n.replace(/,/g, "")) + skipped).toLocaleString("en")}`);
  return { at: f.path, problem: parsed.ok ? "damaged" : `damaged, so skipped: ${parsed.error.replace(/^The file is/, "it is")}` };
}

/**
 * Maps every history text file of one drop (exports excluded: they go through
 * the export import). Storage-tree files are read together; each other file on its own.
 */
export function importHistoryFiles(files: readonly TextFile[], importedAt: number): HistoryBatch & { unknown: string[] } {
  const groups = new Map<FileKind, TextFile[]>();
  for (const f of files) {
    const k = textKind(f);
    groups.set(k, [...(groups.get(k) ?? []), f]);
  }
  const out: HistoryBatch & { unknown: string[] } = { sessions: [], issues: [], unknown: (groups.get("unknown") ?? []).map((f) => f.path) };
  for (const f of groups.get("damaged") ?? []) out.issues.push(damagedIssue(f));
  const add = (b: HistoryBatch) => {
    out.sessions.push(...b.sessions);
    out.issues.push(...b.issues);
  };
  add(importOpenCodeStorage(groups.get("opencode-storage") ?? [], importedAt));
  add(importClaudeCode(groups.get("claude-code") ?? [], importedAt));
  add(importCodex(groups.get("codex") ?? [], importedAt));
  for (const f of groups.get("gemini-cli") ?? []) add(importGemini(f, importedAt));
  for (const f of groups.get("opencode-export-v2") ?? []) add(importOpenCodeV2Export(f, importedAt));
  return out;
}

