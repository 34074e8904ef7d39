/**
 * A text file's encoding details that an edit must keep: a UTF-8 byte-order
 * mark and the line-ending style (CRLF files stay CRLF).
 */

export interface TextFile {
  /** The text without BOM, with `\n` line endings. */
  text: string;
  bom: boolean;
  crlf: boolean;
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
  const raw = new TextDecoder().decode(bom ? bytes.subarray(3) : bytes);
  return { text: lf(raw), bom, crlf: raw.includes("\r\n") };
}

/** The file content to write for `text` (with `\n` endings) in the style of `like`. */
export function encodeTextFile(text: string, like: Pick<TextFile, "bom" | "crlf">): string {
  const body = like.crlf ? lf(text).replace(/\n/g, "\r\n") : text;
  return like.bom ? `\uFEFF${body}` : body;
}
