/** Importers for other agents' histories: OpenCode (db, storage tree), Claude Code, Codex CLI, Gemini CLI. */
export { importHistoryFiles, isSqlite, textKind } from "./detect";
export { type DbSchema, type DbSessionSummary, detectSchema, listDbSessions, readDbSession, type Row, type SqlSource } from "./opencode-db";
export { CHUNK_LIMITS, type ChunkLimits, type HistoryChunk, historyChunks, mapDrop, sortDrop } from "./stream";
export * from "./types";
export { sourceIndex, type SourceIndex, writeHistory } from "./write";
