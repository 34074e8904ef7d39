/**
 * Import, step one: parse and validate a file into an {@link ImportBundle}.
 * Accepted: our session export, our archive (JSON or zip), and OpenCode's
 * `opencode export` output. Every rejection is one line naming the field and
 * why; nothing is written until {@link importBundle} is called.
 */
import { strFromU8, unzipSync } from "fflate";
import { checkDepth, checkSize, guardedParse } from "./guards";
import { kindOf, show } from "./issues";
import { isObject } from "./opencode";
import { ARCHIVE_FORMAT, FORMAT_VERSION, type ImportBundle, type ImportedSession, MAX_IMPORT_BYTES, MAX_IMPORT_PARTS, type Result, SESSION_FORMAT } from "./types";
import { type ValidateContext, validateSession } from "./validate";

export { importBundle } from "./import-write";

const MAX_ZIP_ENTRIES = 10_000;

function fail(error: string): { ok: false; error: string } {
  return { ok: false, error };
}

/** How a file that is no export at all (not a broken one, whose field is named) is told apart. */
const NOT_AN_EXPORT = "This file is not a tabcode or OpenCode session export";

/** What Import takes, added for a picked file that is none of it. */
const IMPORT_TAKES = "Import takes tabcode and OpenCode exports; for Claude Code, Codex CLI, Gemini CLI or an opencode.db, use Import history.";

function notAnExport(why = ""): string {
  return `${NOT_AN_EXPORT}${why}.`;
}

/** Whether text that failed to parse began as an export (cut off or damaged), judged by its start. */
function beganAsExport(text: string): boolean {
  const head = text.slice(0, 4096);
  return /^\s*\{/.test(head) && /"(format|info)"\s*:/.test(head);
}

/** Parses and validates the text of an import file. Never throws. */
export function parseImport(text: string): Result<ImportBundle> {
  const json = guardedParse(text);
  if (!json.ok) return json;
  return parseImportValue(json.value);
}

/**
 * A picked file's text: as {@link parseImport}, but a file that is no export at all is told so, with what
 * Import takes (`takes`: empty where the file came through Import history). Text before the JSON is dropped:
 * `opencode export` on Windows writes an "Exporting session: …" line first.
 */
function parseFileText(raw: string, takes: string): Result<ImportBundle> {
  const text = raw.replace(/^[^{[]*(?=[{[])/, "");
  const json = guardedParse(text);
  if (!json.ok) {
    // A cut or damaged export keeps the parser's words; any other text is simply not an export.
    if (text.trim() === "" || checkSize(text) || checkDepth(text) || beganAsExport(text)) return json;
    return fail(`${notAnExport(": it is not JSON")}${takes}`);
  }
  const r = parseImportValue(json.value);
  return !r.ok && r.error.startsWith(NOT_AN_EXPORT) ? fail(`${r.error}${takes}`) : r;
}

function checkVersion(v: Record<string, unknown>, prefix = ""): string | undefined {
  if (v.version === FORMAT_VERSION) return undefined;
  if (v.version === undefined) return `${prefix}version: required field is missing (expected ${FORMAT_VERSION})`;
  return `${prefix}version: unsupported version ${show(v.version)}; this app reads version ${FORMAT_VERSION}`;
}

/** Refuses files with more messages or parts than we import, before validating them one by one. */
function checkCounts(sessions: unknown[]): string | undefined {
  let messages = 0;
  let parts = 0;
  for (const s of sessions) {
    if (!isObject(s) || !Array.isArray(s.messages)) continue;
    messages += s.messages.length;
    for (const m of s.messages) if (isObject(m) && Array.isArray(m.parts)) parts += m.parts.length;
  }
  if (parts > MAX_IMPORT_PARTS) return `The file has too many parts: ${parts.toLocaleString("en")} (at most ${MAX_IMPORT_PARTS.toLocaleString("en")} can be imported).`;
  if (messages > MAX_IMPORT_PARTS) return `The file has too many messages: ${messages.toLocaleString("en")} (at most ${MAX_IMPORT_PARTS.toLocaleString("en")} can be imported).`;
  return undefined;
}

type Kind = "tabcode" | "opencode";

function sessionKind(v: unknown, prefix: string): Result<Kind> {
  if (!isObject(v)) return fail(prefix ? `${prefix}: expected a session export object, got ${kindOf(v)}` : notAnExport());
  if (v.format === SESSION_FORMAT) {
    const bad = checkVersion(v, prefix ? `${prefix}.` : "");
    return bad ? fail(bad) : { ok: true, value: "tabcode" };
  }
  if (v.format !== undefined) {
    if (!prefix) return fail(notAnExport(`: its "format" is ${show(v.format)}, where a tabcode export says "${SESSION_FORMAT}" or "${ARCHIVE_FORMAT}"`));
    return fail(`${prefix}.format: unknown format ${show(v.format)}; expected "${SESSION_FORMAT}"`);
  }
  if ("info" in v && "messages" in v) return { ok: true, value: "opencode" };
  // One of the two: an OpenCode export with a part missing, not some other JSON.
  if ("info" in v || "messages" in v) return fail(`${prefix ? `${prefix}.` : ""}${"info" in v ? "messages" : "info"}: required field is missing (an OpenCode export has both "info" and "messages")`);
  if (!prefix) return fail(notAnExport());
  return fail(`${prefix}: not a tabcode or OpenCode session export (no "format", nor OpenCode's "info" and "messages")`);
}

function validateAll(items: { raw: unknown; prefix: string; kind: Kind }[], source: ImportBundle["source"]): Result<ImportBundle> {
  const tooMany = checkCounts(items.map((i) => i.raw));
  if (tooMany) return fail(tooMany);
  const ctx: ValidateContext = { seen: new Set(), warnings: [] };
  const sessions: ImportedSession[] = [];
  for (const item of items) {
    const r = validateSession(item.raw, item.prefix, item.kind, ctx);
    if (!r.ok) return r;
    sessions.push(r.value);
  }
  return { ok: true, value: { source, sessions, warnings: ctx.warnings } };
}

/** Validates an already-parsed JSON value (our export, our archive, or OpenCode's export). */
export function parseImportValue(value: unknown): Result<ImportBundle> {
  if (!isObject(value)) return fail(notAnExport());
  if (value.format === ARCHIVE_FORMAT) {
    const bad = checkVersion(value);
    if (bad) return fail(bad);
    if (!Array.isArray(value.sessions)) return fail(`sessions: expected an array of session exports, got ${kindOf(value.sessions)}`);
    if (value.sessions.length === 0) return fail("The archive holds no sessions: there is nothing to import.");
    const items: { raw: unknown; prefix: string; kind: Kind }[] = [];
    for (let k = 0; k < value.sessions.length; k++) {
      const raw: unknown = value.sessions[k];
      const prefix = `sessions[${k}]`;
      const kind = isObject(raw) && raw.format === undefined && "info" in raw ? { ok: true as const, value: "tabcode" as const } : sessionKind(raw, prefix);
      if (!kind.ok) return kind;
      items.push({ raw, prefix: `${prefix}.`, kind: kind.value });
    }
    return validateAll(items, "tabcode-archive");
  }
  const kind = sessionKind(value, "");
  if (!kind.ok) return kind;
  return validateAll([{ raw: value, prefix: "", kind: kind.value }], kind.value === "tabcode" ? "tabcode-session" : "opencode");
}

/** Whether the bytes open with a zip's local-file or end-of-archive header. */
export function isZip(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && (bytes[2] === 3 || bytes[2] === 5) && (bytes[3] === 4 || bytes[3] === 6);
}

/** The text encoding a byte-order mark names (PowerShell 5 writes `>` redirects as UTF-16 LE), else UTF-8. */
function encodingOf(bytes: Uint8Array): "utf-8" | "utf-16le" | "utf-16be" {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return "utf-16le";
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return "utf-16be";
  return "utf-8";
}

/**
 * Parses the bytes of a picked file: a zip made by `exportAllZip` (one session
 * export per `.json` entry), or JSON text (UTF-8, or UTF-16 with its byte-order
 * mark). `hint: false` leaves out what Import takes (for files that came through
 * Import history, which says it itself). Never throws.
 */
export function parseImportBytes(bytes: Uint8Array, opts: { hint?: boolean } = {}): Result<ImportBundle> {
  const takes = opts.hint === false ? "" : ` ${IMPORT_TAKES}`;
  if (bytes.length > MAX_IMPORT_BYTES) return fail(`The file is too large: more than ${MAX_IMPORT_BYTES / (1024 * 1024)} MB (the import limit).`);
  if (isZip(bytes)) return parseZip(bytes);
  let text: string;
  try {
    text = new TextDecoder(encodingOf(bytes), { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return fail(`${notAnExport(": it is not text, nor a zip made by tabcode")}${takes}`);
  }
  return parseFileText(text, takes);
}

function parseZip(bytes: Uint8Array): Result<ImportBundle> {
  let problem: string | undefined;
  let total = 0;
  let count = 0;
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(bytes, {
      filter: (f) => {
        if (problem || f.name.endsWith("/") || !f.name.toLowerCase().endsWith(".json")) return false;
        count++;
        total += f.originalSize;
        if (count > MAX_ZIP_ENTRIES) problem = `The zip holds too many files (more than ${MAX_ZIP_ENTRIES}).`;
        else if (total > MAX_IMPORT_BYTES) problem = `The zip is too large once unpacked: more than ${MAX_IMPORT_BYTES / (1024 * 1024)} MB (the import limit).`;
        else if (f.compression !== 0 && f.compression !== 8) problem = `${f.name}: stored with a compression method this app cannot read.`;
        return problem === undefined;
      },
    });
  } catch {
    return fail("The zip file is damaged or incomplete: it cannot be unpacked.");
  }
  if (problem) return fail(problem);
  const names = Object.keys(files).sort();
  if (names.length === 0) return fail("The zip holds no .json session files.");
  const items: { raw: unknown; prefix: string; kind: Kind }[] = [];
  for (const name of names) {
    const data = files[name];
    if (!data) continue;
    const json = guardedParse(strFromU8(data));
    if (!json.ok) return fail(`${name}: ${json.error}`);
    const kind = sessionKind(json.value, name);
    if (!kind.ok) return kind;
    items.push({ raw: json.value, prefix: `${name}: `, kind: kind.value });
  }
  return validateAll(items, "tabcode-zip");
}
