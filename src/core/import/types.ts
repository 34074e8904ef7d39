import type { ImportedSession } from "../export/types";

/** The tools whose histories can be imported. */
export type SourceTool = "opencode" | "claude-code" | "codex" | "gemini-cli";

/** What an imported session records about where it came from (stored on the session as `source`). */
export interface SourceRef {
  tool: SourceTool;
  version?: string;
  /** The session's id in the source tool. */
  id: string;
  updated: number;
  importedAt: number;
}

/** A record that could not be imported: where it was (file and line, or table and row id) and why. */
export interface ImportIssue {
  at: string;
  problem: string;
}

/** One mapped session; `parentSourceID` names its parent (a subagent's caller) in the source. */
export interface HistorySession extends ImportedSession {
  parentSourceID?: string;
}

/** What an importer returns for one file or database. */
export interface HistoryBatch {
  sessions: HistorySession[];
  issues: ImportIssue[];
}

/** A file handed to the importers: its path (relative, as dropped) and its text. */
export interface TextFile {
  path: string;
  text: string;
}
