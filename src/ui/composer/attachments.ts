/**
 * What the composer attaches to a prompt: pasted or dropped images (data: URLs,
 * the type read from the bytes, never from the name) and @-mentioned workspace
 * files (text with its path, or an image). Failures are values in plain words.
 */
import type { PromptFile } from "../../core/session/loop";

export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
export const MAX_TEXT_BYTES = 256 * 1024;
export const MAX_ATTACHMENTS = 10;

export interface Attachment extends PromptFile {
  /** Stable key for the chip list. */
  key: string;
  kind: "image" | "text";
}

export type Attached = { ok: true; value: Attachment } | { ok: false; error: string };

type ImageMime = "image/png" | "image/jpeg" | "image/gif" | "image/webp";

const startsWith = (b: Uint8Array, sig: readonly number[], at = 0) => sig.every((v, i) => b[at + i] === v);
const ascii = (s: string) => [...s].map((c) => c.charCodeAt(0));

/** The image type the bytes are (PNG, JPEG, GIF, WebP), or undefined: SVG and anything else is refused. */
export function sniffImage(b: Uint8Array): ImageMime | undefined {
  if (startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "image/png";
  if (startsWith(b, [0xff, 0xd8, 0xff])) return "image/jpeg";
  if (startsWith(b, ascii("GIF87a")) || startsWith(b, ascii("GIF89a"))) return "image/gif";
  if (startsWith(b, ascii("RIFF")) && startsWith(b, ascii("WEBP"), 8)) return "image/webp";
  return undefined;
}

export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

function base64(bytes: Uint8Array): string {
  let s = "";
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

let counter = 0;
const nextKey = () => `att-${++counter}`;

/** An image from bytes (a paste, a drop, or a workspace file). */
export function imageFrom(bytes: Uint8Array, filename: string, path?: string): Attached {
  const mime = sniffImage(bytes);
  if (!mime)
    return {
      ok: false,
      error: `${filename} is not a PNG, JPEG, GIF or WebP image, so it was not attached.`,
    };
  if (bytes.length > MAX_IMAGE_BYTES)
    return {
      ok: false,
      error: `${filename} is ${formatSize(bytes.length)}; images up to ${formatSize(MAX_IMAGE_BYTES)} can be attached.`,
    };
  return {
    ok: true,
    value: {
      key: nextKey(),
      kind: "image",
      mime,
      filename,
      url: `data:${mime};base64,${base64(bytes)}`,
      ...(path ? { path } : {}),
    },
  };
}

/** The text of bytes when they are UTF-8 text (no NUL bytes), else undefined. */
export function decodeText(bytes: Uint8Array): string | undefined {
  if (bytes.includes(0)) return undefined;
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/** A workspace file picked from the @ list: an image, or text with its path. */
export function workspaceFileFrom(bytes: Uint8Array, path: string, root: string): Attached {
  const filename = path.split("/").at(-1) ?? path;
  if (sniffImage(bytes)) return imageFrom(bytes, filename, path);
  if (bytes.length > MAX_TEXT_BYTES)
    return {
      ok: false,
      error: `${path} is ${formatSize(bytes.length)}; files up to ${formatSize(MAX_TEXT_BYTES)} can be attached — ask the agent to read it instead.`,
    };
  const text = decodeText(bytes);
  if (text === undefined)
    return {
      ok: false,
      error: `${path} is neither text nor an image, so it was not attached.`,
    };
  return {
    ok: true,
    value: {
      key: nextKey(),
      kind: "text",
      mime: "text/plain",
      filename,
      url: `file://${root}/${path}`,
      path,
      text,
    },
  };
}
