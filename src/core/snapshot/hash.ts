/** SHA-256 content hashes (Web Crypto: present in browsers, workers and Node ≥ 20). */

const encoder = new TextEncoder();

function toHex(buf: ArrayBuffer): string {
  const bytes = new Uint8Array(buf);
  let out = "";
  for (const b of bytes) out += b.toString(16).padStart(2, "0");
  return out;
}

/** Lower-case hex SHA-256 of `data` (strings are hashed as UTF-8). */
export async function sha256Hex(data: Uint8Array | string): Promise<string> {
  const bytes = typeof data === "string" ? encoder.encode(data) : data;
  // Copy into a plain ArrayBuffer-backed view: digest() rejects SharedArrayBuffer views.
  const view = bytes.buffer instanceof ArrayBuffer ? bytes : new Uint8Array(bytes);
  return toHex(await crypto.subtle.digest("SHA-256", view as Uint8Array<ArrayBuffer>));
}
