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

/** The file content to write for `text` (with `\n` endings) in the style of `like`. */
export function encodeTextFile(text: string, like: Pick<TextFile, "bom" | "crlf">): string {
  const body = like.crlf ? lf(text).replace(/\n/g, "\r\n") : text;
  return like.bom ? `\uFEFF${body}` : body;
}
