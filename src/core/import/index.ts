/** Importers for other agents' histories: OpenCode (db, storage tree), Claude Code, Codex CLI, Gemini CLI. */
export { importClaudeCode } from "./claude-code";
export { importCodex } from "./codex";
export { type FileKind, importHistoryFiles, isSqlite, textKind } from "./detect";
export { importGemini } from "./gemini";
export { type DbSchema, type DbSessionSummary, detectSchema, listDbSessions, readDbSession, type Row, type SqlSource, type SqlValue } from "./opencode-db";
export { importOpenCodeStorage, isOpenCodeStoragePath } from "./opencode-storage";
export * from "./types";
export { sourceIndex, sourceKey, type SourceIndex, type WriteOutcome, writeHistory } from "./write";
