import type { DbSessionSummary, HistorySession, ImportIssue } from "../../core/import";

/** Page → Worker. */
export type DbRequest = { id: number; type: "open"; file: Blob; wal?: Blob } | { id: number; type: "read"; sessions: DbSessionSummary[]; importedAt: number } | { id: number; type: "close" };

/** Worker → page: the answer to request `id`. */
export type DbResponse =
  | { id: number; type: "opened"; sessions: DbSessionSummary[]; schema: string; ms: number; notes: string[] }
  | { id: number; type: "read"; sessions: HistorySession[]; issues: ImportIssue[] }
  | { id: number; type: "closed" }
  | { id: number; type: "error"; error: string };
