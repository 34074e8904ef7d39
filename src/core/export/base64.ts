/** Base64 (standard and URL-safe, unpadded) for byte arrays, in browsers and Node alike. */

const CHUNK = 0x8000;

/** Standard base64 with padding. */
export function bytesToBase64(bytes: Uint8Array): string {
  let bin = "";
  for (let i = 0; i < bytes.length; i += CHUNK) bin += String.fromCharCode(...bytes.subarray(i, i + CHUNK));
  return btoa(bin);
}

/** Decodes standard base64; `undefined` when the text is not base64. */
export function base64ToBytes(text: string): Uint8Array | undefined {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length % 4 === 1) return undefined;
  let bin: string;
  try {
    bin = atob(text);
  } catch {
    return undefined;
  }
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/** URL-safe base64 without padding (RFC 4648 §5), fit for a URL fragment. */
export function bytesToBase64Url(bytes: Uint8Array): string {
  return bytesToBase64(bytes).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** Decodes URL-safe base64 (padding optional); `undefined` when the text is not base64url. */
export function base64UrlToBytes(text: string): Uint8Array | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return undefined;
  const std = text.replace(/-/g, "+").replace(/_/g, "/");
  return base64ToBytes(std + "=".repeat((4 - (std.length % 4)) % 4));
}
