import { strToU8, zipSync } from "fflate";
import type { Store } from "../ports/store";
import { Message, type MessageWithParts, Part, Session } from "../schema";
import { bytesToBase64 } from "./base64";
import { type Finding, redactFile } from "./redact";
import { ARCHIVE_FORMAT, type ArchiveFile, type ExportFile, FORMAT_VERSION, SESSION_FORMAT, type WorkspaceFile } from "./types";

/** Options of {@link exportSession}. */
export interface ExportOptions {
  /** Workspace files to carry along, by path: text as a string, binary as bytes. */
  workspace?: Record<string, string | Uint8Array>;
  /** The export time (ms since epoch); defaults to now. */
  now?: number;
}

/**
 * Exports one session with its messages and parts, or `undefined` when the
 * session does not exist. Every row goes through its zod schema, which drops
 * any field the schema does not know: nothing but session, message and part
 * data can reach the file. Rows that fail validation are left out.
 */
export async function exportSession(store: Store, sessionID: string, opts: ExportOptions = {}): Promise<ExportFile | undefined> {
  await store.flush();
  const row = await store.getSession(sessionID);
  if (!row) return undefined;
  const info = Session.safeParse(row);
  if (!info.success) return undefined;
  const messages: MessageWithParts[] = [];
  for (const m of await store.messages(sessionID)) {
    const msg = Message.safeParse(m.info);
    if (!msg.success) continue;
    const parts = m.parts.flatMap((p) => {
      const part = Part.safeParse(p);
      return part.success ? [part.data] : [];
    });
    messages.push({ info: msg.data, parts });
  }
  const file: ExportFile = {
    format: SESSION_FORMAT,
    version: FORMAT_VERSION,
    exportedAt: opts.now ?? Date.now(),
    info: info.data,
    messages,
  };
  if (opts.workspace) file.workspace = encodeWorkspace(opts.workspace);
  return file;
}

/** The bytes as text when they are UTF-8 text (no NUL), else undefined. */
function asText(bytes: Uint8Array): string | undefined {
  if (bytes.includes(0)) return undefined;
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * The workspace as the export carries it: text files as text (readable in the file, and what the redaction
 * pass scans and edits: as base64 a `.env`'s key went out unseen), other files as base64.
 */
function encodeWorkspace(files: Record<string, string | Uint8Array>): Record<string, WorkspaceFile> {
  const out: Record<string, WorkspaceFile> = {};
  for (const [path, content] of Object.entries(files)) {
    const text = typeof content === "string" ? content : asText(content);
    out[path] = text !== undefined ? { encoding: "utf8", data: text } : { encoding: "base64", data: bytesToBase64(content as Uint8Array) };
  }
  return out;
}

/** Every session of the store (archived ones and child sessions included), oldest first. */
async function allSessionIDs(store: Store): Promise<string[]> {
  const all = [...(await store.listSessions()), ...(await store.listSessions({ archived: true }))];
  all.sort((a, b) => a.time.created - b.time.created || (a.id < b.id ? -1 : 1));
  return all.map((s) => s.id);
}

/** Exports every session into one JSON archive. */
export async function exportAll(store: Store, opts: { now?: number } = {}): Promise<ArchiveFile> {
  const now = opts.now ?? Date.now();
  const sessions: ExportFile[] = [];
  for (const id of await allSessionIDs(store)) {
    const file = await exportSession(store, id, { now });
    if (file) sessions.push(file);
  }
  return { format: ARCHIVE_FORMAT, version: FORMAT_VERSION, exportedAt: now, sessions };
}

/** The download name of the zipped archive. */
export const ZIP_FILE_NAME = "tabcode-sessions.zip";

/**
 * Exports every session as a zip (save it as {@link ZIP_FILE_NAME}) holding one
 * `<sessionID>.json` export file per session.
 */
export async function exportAllZip(store: Store, opts: { now?: number; remove?: readonly Finding[] } = {}): Promise<Uint8Array> {
  const archive = await exportAll(store, opts);
  const entries: Record<string, Uint8Array> = {};
  for (const s of archive.sessions) entries[`${s.info.id}.json`] = strToU8(serializeExport(redactFile(s, opts.remove ?? [])));
  return zipSync(entries, { level: 6 });
}

/** The text of an export file: pretty-printed JSON, as `opencode export` writes it. */
export function serializeExport(file: ExportFile | ArchiveFile): string {
  return JSON.stringify(file, null, 2);
}

/**
 * A download name for a session's export: a slug of its title plus its id, and the variant when one format has
 * two ("with-files", "conversation"), so two exports of one session never take the same name.
 */
export function exportFileName(info: Pick<Session, "id" | "title">, ext: "json" | "md" | "html", variant?: string): string {
  const slug = info.title
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60);
  return `${slug ? `${slug}-` : ""}${info.id}${variant ? `.${variant}` : ""}.${ext}`;
}
