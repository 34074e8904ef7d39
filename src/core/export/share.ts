/**
 * Serverless share links: the whole session travels in the URL fragment
 * (`<origin>/#/share/<data>`), so nothing is uploaded anywhere and the
 * fragment never reaches a server. `<data>` is the export JSON, raw-DEFLATE
 * compressed (level 9), in unpadded base64url.
 *
 * To keep links short, {@link stripForShare} leaves out what is heavy: media
 * attachments carried as `data:` URLs become a text placeholder naming the
 * file, tool-result attachments are dropped with a note in the output, and
 * workspace files are never shared. Opening a link validates it exactly like
 * an imported file.
 */
import { deflateSync, Inflate, strFromU8, strToU8 } from "fflate";
import type { Part } from "../schema";
import { base64UrlToBytes, bytesToBase64Url } from "./base64";
import { parseImport } from "./import";
import { decryptShareBytes, encryptShareBytes, isEncryptedShare } from "./share-crypto";
import { type ExportFile, type ImportBundle, MAX_IMPORT_BYTES, type Result } from "./types";

/** The route prefix of a share link, after the origin. */
export const SHARE_ROUTE = "/#/share/";
/** Longest fragment `decodeShare` looks at (characters). */
export const MAX_SHARE_CHARS = 8 * 1024 * 1024;
/** Inline text attachments up to this size stay in a share. */
const KEEP_TEXT_BYTES = 4096;

function keepsUrl(mime: string, url: string): boolean {
  if (!url.startsWith("data:")) return true;
  return mime.startsWith("text/") && url.length <= KEEP_TEXT_BYTES;
}

function stripPart(p: Part): Part {
  if (p.type === "file" && !keepsUrl(p.mime, p.url)) {
    const { mime, filename, url: _url, source: _source, ...ids } = p;
    return { ...ids, type: "text", text: `[Attachment not included in the shared link: ${filename ?? "file"} (${mime})]` };
  }
  if (p.type === "tool" && p.state.status === "completed" && p.state.attachments?.length) {
    const kept = p.state.attachments.filter((a) => keepsUrl(a.mime, a.url));
    const dropped = p.state.attachments.length - kept.length;
    if (dropped === 0) return p;
    const state = { ...p.state, output: `${p.state.output}\n[${dropped} attachment(s) not included in the shared link]` };
    if (kept.length) state.attachments = kept;
    else delete state.attachments;
    return { ...p, state };
  }
  return p;
}

/** A copy of the export fit for a link: heavy media replaced by placeholders, no workspace files. */
export function stripForShare(file: ExportFile): ExportFile {
  const { workspace: _workspace, ...rest } = file;
  return { ...rest, messages: file.messages.map((m) => ({ info: m.info, parts: m.parts.map(stripPart) })) };
}

/** Adler-32 of `bytes` (RFC 1950), as 8 hex digits: a link's check against being cut or edited on the way. */
function checksum(bytes: Uint8Array): string {
  let a = 1;
  let b = 0;
  for (let i = 0; i < bytes.length; i += 5552) {
    const end = Math.min(i + 5552, bytes.length);
    for (let j = i; j < end; j++) {
      a += bytes[j] ?? 0;
      b += a;
    }
    a %= 65521;
    b %= 65521;
  }
  return (((b << 16) | a) >>> 0).toString(16).padStart(8, "0");
}

/**
 * JSON → DEFLATE level 9 → base64url, then `.` and the Adler-32 of the JSON (links made before the
 * check have none and still open). Does not strip anything: see {@link shareLink}.
 */
export function encodeShare(file: ExportFile): string {
  const json = strToU8(JSON.stringify(file));
  return `${bytesToBase64Url(deflateSync(json, { level: 9 }))}.${checksum(json)}`;
}

/** Inflates with a cap on the output, so a small hostile fragment cannot expand without bound. */
function inflateCapped(bytes: Uint8Array, limit: number): Uint8Array | "too-large" | "damaged" {
  const chunks: Uint8Array[] = [];
  let total = 0;
  let over = false;
  let ended = false;
  try {
    const inflate = new Inflate((chunk, final) => {
      total += chunk.length;
      if (total > limit) over = true;
      else chunks.push(chunk);
      if (final) ended = true;
    });
    const step = 4096;
    for (let i = 0; i < bytes.length && !over; i += step) inflate.push(bytes.subarray(i, i + step), i + step >= bytes.length);
  } catch {
    return "damaged";
  }
  if (over) return "too-large";
  if (!ended) return "damaged";
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

/**
 * Reads a share fragment: the data alone, or anything ending in
 * `/share/<data>` (a whole link or `#/share/<data>`). Validated like an import
 * and limited to one session; inflating stops past `maxBytes` (default: the
 * import limit). Never throws.
 */
export function decodeShare(fragment: string, opts: { maxBytes?: number } = {}): Result<ImportBundle> {
  const data = shareData(fragment);
  if (data === "") return { ok: false, error: "The share link holds no session data." };
  if (data.length > MAX_SHARE_CHARS) return { ok: false, error: "The share link is too long to open." };
  if (isEncryptedShare(data)) return { ok: false, error: "This share link is protected by a passphrase." };
  const dot = data.lastIndexOf(".");
  const sum = dot >= 0 ? data.slice(dot + 1) : undefined;
  const bytes = base64UrlToBytes(dot >= 0 ? data.slice(0, dot) : data);
  if (!bytes || (sum !== undefined && !/^[0-9a-f]{8}$/.test(sum))) return { ok: false, error: "The share link is damaged: its data is not base64url text (was it cut or edited?)." };
  return decodeDeflated(bytes, opts, sum);
}

/** The data part of a share link or fragment. */
export function shareData(fragment: string): string {
  const at = fragment.lastIndexOf("/share/");
  return (at >= 0 ? fragment.slice(at + "/share/".length) : fragment).trim();
}

/** Whether a link needs a passphrase to open. */
export function isProtectedShare(fragment: string): boolean {
  return isEncryptedShare(shareData(fragment));
}

/** Opens a passphrase-protected link (see `share-crypto.ts`). Never throws. */
export async function decodeProtectedShare(fragment: string, passphrase: string, opts: { maxBytes?: number } = {}): Promise<Result<ImportBundle>> {
  const data = shareData(fragment);
  if (data.length > MAX_SHARE_CHARS) return { ok: false, error: "The share link is too long to open." };
  if (!isEncryptedShare(data)) return decodeShare(data, opts);
  const plain = await decryptShareBytes(data, passphrase);
  if (!plain.ok) return plain;
  return decodeDeflated(plain.value, opts);
}

function decodeDeflated(bytes: Uint8Array, opts: { maxBytes?: number }, sum?: string): Result<ImportBundle> {
  const inflated = inflateCapped(bytes, opts.maxBytes ?? MAX_IMPORT_BYTES);
  if (inflated === "too-large") return { ok: false, error: "The shared session is too large to open." };
  if (inflated === "damaged") return { ok: false, error: "The share link is damaged: its data does not decompress (was it cut or edited?)." };
  if (sum !== undefined && checksum(inflated) !== sum) return { ok: false, error: "The share link is damaged: its data does not match its checksum (was it cut or edited?)." };
  let text: string;
  try {
    text = strFromU8(inflated);
  } catch {
    return { ok: false, error: "The share link is damaged: its data is not text." };
  }
  const parsed = parseImport(text);
  if (!parsed.ok) return { ok: false, error: linkWords(parsed.error) };
  if (parsed.value.sessions.length !== 1) return { ok: false, error: "A share link must hold exactly one session." };
  return parsed;
}

/**
 * An import error told about a link: the parser speaks of "the file", which a link is not. Its whole-input
 * errors ("The file is not valid JSON…", "This file is not a tabcode or OpenCode session export…") are about
 * the link's data; a field error (`messages[1].parts[3]: …`) follows "The shared session is not valid:".
 */
function linkWords(error: string): string {
  const whole = /^(?:The|This) file\b/;
  return whole.test(error) ? error.replace(whole, "The link's data") : `The shared session is not valid: ${error}`;
}

/** A share link, or why there is none: the link would be longer than `maxLength` characters. */
export type ShareLinkResult = { ok: true; url: string } | { ok: false; reason: "too-large"; size: number };

/**
 * Builds `<origin>/#/share/<data>` from an export (media stripped first, see
 * {@link stripForShare}). Links longer than `maxLength` are refused: browsers
 * and chat apps cut long URLs; `size` is the length the link would have had.
 */
export function shareLink(origin: string, file: ExportFile, maxLength = MAX_SHARE_LINK): ShareLinkResult {
  const url = `${origin.replace(/\/+$/, "")}${SHARE_ROUTE}${encodeShare(stripForShare(file))}`;
  return url.length > maxLength ? { ok: false, reason: "too-large", size: url.length } : { ok: true, url };
}

/** About what messengers and mail clients carry in one URL without cutting it. */
export const MAX_SHARE_LINK = 8 * 1024;

/** Like {@link shareLink}; with a passphrase the data is encrypted (AES-GCM, PBKDF2-derived key). */
export async function protectedShareLink(origin: string, file: ExportFile, passphrase: string, maxLength = MAX_SHARE_LINK): Promise<ShareLinkResult> {
  const deflated = deflateSync(strToU8(JSON.stringify(stripForShare(file))), { level: 9 });
  const data = await encryptShareBytes(new Uint8Array(deflated), passphrase);
  const url = `${origin.replace(/\/+$/, "")}${SHARE_ROUTE}${data}`;
  return url.length > maxLength ? { ok: false, reason: "too-large", size: url.length } : { ok: true, url };
}
