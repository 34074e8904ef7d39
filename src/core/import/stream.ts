/**
 * The text-file side of "Import history" as a stream: `sortDrop` reads every
 * dropped file once and sorts it by kind (as `importHistoryFiles` does), then
 * `mapDrop` maps one file at a time and `historyChunks` cuts what it maps into
 * chunks the page can write one by one. Sessions, issues and unknown files
 * come out in the same order as `importHistoryFiles` gives them, so an import
 * through the stream reads exactly like one of the whole drop at once.
 */
import { guardedParse } from "../export/guards";
import { claudeCodeSummaries, mapClaudeCodeFile } from "./claude-code";
import { importCodex } from "./codex";
import { damagedIssue, type FileKind, textKind } from "./detect";
import { importGemini } from "./gemini";
import { isObj, type Line, parseLineSteps } from "./jsonl";
import { importOpenCodeV2Export } from "./opencode-export-v2";
import { importOpenCodeStorage } from "./opencode-storage";
import type { HistorySession, ImportIssue, TextFile } from "./types";

/** A dropped file as the reader sees it: its path, its size in bytes and a way to read its text. */
export interface SourceFile {
  path: string;
  size: number;
  text(): Promise<string>;
}

/** What is known once every file was read and sorted, before anything is mapped. */
export interface SortedDrop {
  /** Indexes (in the drop) of the files that go through the export import: our exports, `opencode export` files, zips. */
  exports: number[];
  /** Files no importer recognised. */
  unknown: string[];
  /** Damaged files and files that could not be read. */
  issues: ImportIssue[];
  /** Bytes of the history files left to map. */
  bytes: number;
}

type Sized = TextFile & { size: number };

/** A sorted drop: the files of each kind, held until they are mapped. */
export interface DropPlan {
  sorted: SortedDrop;
  groups: Map<FileKind, Sized[]>;
  /** Claude Code's summary titles from every transcript of the drop (a title may name a conversation of another file). */
  summaries: Map<string, string>;
}

/** What mapping one file (or the storage tree, which is read together) gave. */
export interface MappedPiece {
  sessions: HistorySession[];
  issues: ImportIssue[];
  /** Bytes of the files this piece mapped. */
  bytes: number;
}

/**
 * The summary lines of a Claude Code transcript, found without parsing the
 * others (a summary line always names its `leafUuid`), so titles can be known
 * before the first file is mapped.
 */
function summaryLines(text: string): Line[] {
  const out: Line[] = [];
  let at = text.indexOf('"leafUuid"');
  while (at >= 0) {
    const start = text.lastIndexOf("\n", at) + 1;
    const end = text.indexOf("\n", at);
    const stop = end < 0 ? text.length : end;
    const parsed = guardedParse(text.slice(start, stop).trim());
    if (parsed.ok && isObj(parsed.value)) out.push({ n: 0, value: parsed.value });
    if (end < 0) break;
    at = text.indexOf('"leafUuid"', stop);
  }
  return out;
}

/** Reads and sorts a drop's files. A file that cannot be read (it changed or went away since it was picked) is an issue. */
export async function sortDrop(files: readonly SourceFile[]): Promise<DropPlan> {
  const sorted: SortedDrop = { exports: [], unknown: [], issues: [], bytes: 0 };
  const groups = new Map<FileKind, Sized[]>();
  const summaries = new Map<string, string>();
  for (const [i, f] of files.entries()) {
    if (/\.zip$/i.test(f.path)) {
      sorted.exports.push(i);
      continue;
    }
    let text: string;
    try {
      text = await f.text();
    } catch (e) {
      sorted.issues.push({ at: f.path, problem: `could not be read (${e instanceof Error ? e.message : String(e)})` });
      continue;
    }
    const t: Sized = { path: f.path, text, size: f.size };
    const kind = textKind(t);
    if (kind === "export") sorted.exports.push(i);
    else if (kind === "unknown") sorted.unknown.push(f.path);
    else if (kind === "damaged") sorted.issues.push(damagedIssue(t));
    else {
      if (kind === "claude-code") claudeCodeSummaries(summaryLines(text), summaries);
      let group = groups.get(kind);
      if (!group) {
        group = [];
        groups.set(kind, group);
      }
      group.push(t);
      sorted.bytes += f.size;
    }
  }
  return { sorted, groups, summaries };
}

/** Characters of a transcript parsed between two reports of progress. */
const PARSE_STEP = 1 << 20;

/** Takes the files of one kind out of the plan, so each text can be let go once it is mapped. */
function take(plan: DropPlan, kind: FileKind): Sized[] {
  const files = plan.groups.get(kind) ?? [];
  plan.groups.delete(kind);
  return files;
}

/** Maps a sorted drop one file at a time, in `importHistoryFiles`' order of kinds. */
export function* mapDrop(plan: DropPlan, importedAt: number): Generator<MappedPiece> {
  const storage = take(plan, "opencode-storage");
  if (storage.length) yield { ...importOpenCodeStorage(storage, importedAt), bytes: storage.reduce((n, f) => n + f.size, 0) };
  storage.length = 0;
  // `importClaudeCode` reports every file's broken lines before what mapping found: the latter wait for the last file.
  const later: ImportIssue[] = [];
  const claude = take(plan, "claude-code");
  for (let f = claude.shift(); f; f = claude.shift()) {
    const issues: ImportIssue[] = [];
    const lines: Line[] = [];
    // One transcript can be tens of MB: its parse reports how far it got, so the progress moves through it too.
    let counted = 0;
    for (const at of parseLineSteps(f.path, f.text, issues, lines, PARSE_STEP)) {
      const bytes = Math.floor((f.size * at) / Math.max(1, f.text.length));
      yield { sessions: [], issues: [], bytes: bytes - counted };
      counted = bytes;
    }
    yield { sessions: mapClaudeCodeFile(f.path, lines, plan.summaries, later, importedAt), issues, bytes: f.size - counted };
  }
  if (later.length) yield { sessions: [], issues: later, bytes: 0 };
  const codex = take(plan, "codex");
  for (let f = codex.shift(); f; f = codex.shift()) yield { ...importCodex([f], importedAt), bytes: f.size };
  const gemini = take(plan, "gemini-cli");
  for (let f = gemini.shift(); f; f = gemini.shift()) yield { ...importGemini(f, importedAt), bytes: f.size };
  const v2 = take(plan, "opencode-export-v2");
  for (let f = v2.shift(); f; f = v2.shift()) yield { ...importOpenCodeV2Export(f, importedAt), bytes: f.size };
}

/** A chunk for the page to write: sessions (never half of one), the issues found meanwhile and how far the reading got. */
export interface HistoryChunk {
  sessions: HistorySession[];
  issues: ImportIssue[];
  /** Bytes of the drop's history files mapped so far. */
  read: number;
  /** Whether this is the stream's last chunk. */
  last: boolean;
}

export interface ChunkLimits {
  /** Messages and parts a chunk holds at most (a larger session is a chunk of its own). */
  records: number;
  sessions: number;
  /** A chunk is handed over after this long even if it is not full, so the progress moves during a long parse. */
  sliceMs: number;
  now: () => number;
}

/**
 * Each chunk is one transaction and one structured copy onto the page, and every write costs the page
 * more than its rows (measured on a 30 MB Claude Code file of 60 sessions of ~3,200 records each:
 * chunks of 600 records, a session each, took 57 s to import, of 5,000 records 57 s, of 20,000 48–52 s;
 * the longest task on the page was 320–580 ms in each case, all of it while writing).
 */
export const CHUNK_LIMITS: ChunkLimits = { records: 20_000, sessions: 25, sliceMs: 150, now: () => performance.now() };

function records(s: HistorySession): number {
  let n = s.messages.length;
  for (const m of s.messages) n += m.parts.length;
  return n;
}

/**
 * Cuts mapped pieces into chunks of at most `limits.records` records.
 * Sessions with a parent come after every session without one (parents first,
 * as the whole-drop import sorted them), so a child always finds its parent
 * written before it.
 */
export function* historyChunks(pieces: Iterable<MappedPiece>, limits: ChunkLimits = CHUNK_LIMITS): Generator<HistoryChunk> {
  let sessions: HistorySession[] = [];
  let size = 0;
  let issues: ImportIssue[] = [];
  let read = 0;
  const children: HistorySession[] = [];
  const cut = (last: boolean): HistoryChunk => {
    const c = { sessions, issues, read, last };
    sessions = [];
    size = 0;
    issues = [];
    return c;
  };
  const full = (next: number) => sessions.length > 0 && (size + next > limits.records || sessions.length >= limits.sessions);
  let since = limits.now();
  for (const p of pieces) {
    for (const i of p.issues) issues.push(i);
    read += p.bytes;
    for (const s of p.sessions) {
      if (s.parentSourceID !== undefined) {
        children.push(s);
        continue;
      }
      const n = records(s);
      if (full(n)) {
        yield cut(false);
        since = limits.now();
      }
      sessions.push(s);
      size += n;
    }
    if (full(0) || size >= limits.records || limits.now() - since >= limits.sliceMs) {
      yield cut(false);
      since = limits.now();
    }
  }
  for (const s of children) {
    const n = records(s);
    if (full(n)) yield cut(false);
    sessions.push(s);
    size += n;
  }
  yield cut(true);
}
