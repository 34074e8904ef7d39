import type { MessageWithParts, Session } from "../schema";

/** Format marker of a single-session export file. */
export const SESSION_FORMAT = "tabcode-session";
/** Format marker of an all-sessions archive. */
export const ARCHIVE_FORMAT = "tabcode-archive";
/** The only format version this app writes and reads. */
export const FORMAT_VERSION = 1;

/** Largest import accepted, in bytes of UTF-8 text (and in uncompressed bytes of a zip). */
export const MAX_IMPORT_BYTES = 50 * 1024 * 1024;
/** Deepest nesting of JSON objects/arrays accepted in an import. */
export const MAX_IMPORT_DEPTH = 64;
/** Most parts (and, separately, messages) accepted in one import. */
export const MAX_IMPORT_PARTS = 200_000;

/** One file of a session's workspace, carried along in an export when asked. */
export interface WorkspaceFile {
  /** `utf8`: `data` is the text itself; `base64`: `data` is the bytes in standard base64. */
  encoding: "utf8" | "base64";
  data: string;
}

/**
 * A session exported as JSON: OpenCode's `opencode export` shape
 * (`{ info, messages: [{ info, parts }] }`) plus our format marker.
 * It only ever holds session, message and part rows (and workspace files when
 * asked): never settings, API keys or other secrets.
 */
export interface ExportFile {
  format: typeof SESSION_FORMAT;
  version: typeof FORMAT_VERSION;
  /** When the file was written (ms since epoch). */
  exportedAt: number;
  info: Session;
  /** In id (chronological) order, each with its parts in order. */
  messages: MessageWithParts[];
  /** Workspace files by path, when the export included them. */
  workspace?: Record<string, WorkspaceFile>;
}

/** Every session of the store in one JSON file. */
export interface ArchiveFile {
  format: typeof ARCHIVE_FORMAT;
  version: typeof FORMAT_VERSION;
  exportedAt: number;
  sessions: ExportFile[];
}

/** One validated session, ready to be written. */
export interface ImportedSession {
  info: Session;
  messages: MessageWithParts[];
  workspace?: Record<string, WorkspaceFile>;
}

/** Where an import came from. */
export type ImportSource = "tabcode-session" | "tabcode-archive" | "tabcode-zip" | "opencode";

/** The result of parsing and validating an import file: nothing has been written yet. */
export interface ImportBundle {
  source: ImportSource;
  sessions: ImportedSession[];
  /** Things dropped or adjusted on the way in, in words (e.g. OpenCode part types we do not know). */
  warnings: string[];
}

/** Expected failures are values. */
export type Result<T> = { ok: true; value: T } | { ok: false; error: string };
