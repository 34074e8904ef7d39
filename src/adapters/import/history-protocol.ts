import type { HistoryChunk, ImportIssue } from "../../core/import";

/** Page → Worker: `start` hands over the dropped files (File objects cross by structured clone); each `next` asks for one chunk. */
export type HistoryRequest = { id: number; type: "start"; files: { path: string; file: Blob }[]; importedAt: number } | { id: number; type: "next" };

/** Worker → page: the answer to request `id`. */
export type HistoryResponse =
  | { id: number; type: "started"; exports: number[]; unknown: string[]; issues: ImportIssue[]; bytes: number }
  | ({ id: number; type: "chunk" } & HistoryChunk)
  | { id: number; type: "error"; error: string };
