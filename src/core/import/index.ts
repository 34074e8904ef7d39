/** Importers for other agents' histories: OpenCode (db, storage tree), Claude Code, Codex CLI, Gemini CLI. */
export { importHistoryFiles, isSqlite, textKind } from "./detect";
export { type DbSchema, type DbSessionSummary, detectSchema, listDbSessions, readDbSession, type Row, type SqlSource } from "./opencode-db";
export * from "./types";
export { sourceIndex, type SourceIndex, writeHistory } from "./write";
