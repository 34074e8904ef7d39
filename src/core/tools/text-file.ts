/**
 * A text file's encoding details that an edit must keep: a UTF-8 byte-order
 * mark and the line-ending style (CRLF files stay CRLF).
 */

export interface TextFile {
  /** The text without BOM, with `\n` line endings. */
  text: string;
  bom: boolean;
  crlf: boolean;
  /** Whether the bytes are UTF-8 throughout: other bytes read as U+FFFD, and writing the text back would change them. */
  utf8: boolean;
  /** A UTF-16 file (by its byte-order mark): read as such; not UTF-8, so not edited in place. */
  utf16?: "utf-16le" | "utf-16be";
}

/** The UTF-16 encoding a byte-order mark names, if the bytes start with one. */
export function utf16Bom(bytes: Uint8Array): "utf-16le" | "utf-16be" | undefined {
  if (bytes.length < 2) return undefined;
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return "utf-16le";
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return "utf-16be";
  return undefined;
}

/**
 * Whether bytes look like something other than text: a NUL byte, or more than 30 % control bytes, in the first
 * 4 KB. A UTF-16 file (with its byte-order mark) is text, though its ASCII letters come with NUL bytes.
 */
export function binaryBytes(bytes: Uint8Array): boolean {
  if (utf16Bom(bytes)) return false;
  const head = bytes.subarray(0, 4096);
  if (head.length === 0) return false;
  let odd = 0;
  for (const b of head) {
    if (b === 0) return true;
    if (b < 9 || (b > 13 && b < 32)) odd++;
  }
  return odd / head.length > 0.3;
}

const BOM = [0xef, 0xbb, 0xbf];

export function hasBom(bytes: Uint8Array): boolean {
  return bytes.length >= 3 && bytes[0] === BOM[0] && bytes[1] === BOM[1] && bytes[2] === BOM[2];
}

export function lf(s: string): string {
  return s.replace(/\r\n/g, "\n");
}

/** Decodes a file for editing. */
export function decodeTextFile(bytes: Uint8Array): TextFile {
  const utf16 = utf16Bom(bytes);
  if (utf16) {
    const raw = new TextDecoder(utf16).decode(bytes.subarray(2));
    return { text: lf(raw), bom: true, crlf: raw.includes("\r\n"), utf8: false, utf16 };
  }
  const bom = hasBom(bytes);
  const body = bom ? bytes.subarray(3) : bytes;
  let utf8 = true;
  let raw: string;
  try {
    raw = new TextDecoder("utf-8", { fatal: true }).decode(body);
  } catch {
    utf8 = false;
    raw = new TextDecoder().decode(body);
  }
  return { text: lf(raw), bom, crlf: raw.includes("\r\n"), utf8 };
}

/** What the model is told when a file is not UTF-8 text (the read tool's note, the edit tool's refusal). */
export const NOT_UTF8_NOTE =
  "This file is not UTF-8 text: the bytes shown as \uFFFD are in another encoding (Latin-1, Windows-1252, …). The edit tool cannot change it without changing those bytes; rewrite the whole file with the write tool (as UTF-8) if that is what the user wants.";

/** What the model is told about a UTF-16 file (read shows it; edit refuses it). */
export const UTF16_NOTE =
  "This file is UTF-16 text (it starts with a UTF-16 byte-order mark). The edit tool cannot change it in place; rewrite the whole file with the write tool (as UTF-8) if that is what the user wants.";

/** The note for a file that is not UTF-8: UTF-16, or another encoding. */
export function encodingNote(file: Pick<TextFile, "utf16">): string {
  return file.utf16 ? UTF16_NOTE : NOT_UTF8_NOTE;
}

/** The file content to write for `text` (with `\n` endings) in the style of `like`. */
export function encodeTextFile(text: string, like: Pick<TextFile, "bom" | "crlf">): string {
  const body = like.crlf ? lf(text).replace(/\n/g, "\r\n") : text;
  return like.bom ? `\uFEFF${body}` : body;
}
