/**
 * Passphrase-protected share links. The share data (the DEFLATE'd export, see
 * `share.ts`) is encrypted with AES-GCM under a key derived from the
 * passphrase with PBKDF2-SHA-256; the link carries `p1.<base64url(salt | iv |
 * ciphertext)>`. Without the passphrase the link reveals nothing but its
 * length; a wrong passphrase or an edited link fails GCM's check.
 * Uses WebCrypto (`crypto.subtle`), present in browsers, Workers and Node.
 */
import { base64UrlToBytes, bytesToBase64Url } from "./base64";
import type { Result } from "./types";

export const ENCRYPTED_PREFIX = "p1.";
export const PBKDF2_ITERATIONS = 310_000;
const SALT_BYTES = 16;
const IV_BYTES = 12;

async function keyFor(passphrase: string, salt: Uint8Array<ArrayBuffer>, usage: KeyUsage): Promise<CryptoKey> {
  const material = await crypto.subtle.importKey("raw", new TextEncoder().encode(passphrase.normalize("NFC")), "PBKDF2", false, ["deriveKey"]);
  return crypto.subtle.deriveKey({ name: "PBKDF2", hash: "SHA-256", salt, iterations: PBKDF2_ITERATIONS }, material, { name: "AES-GCM", length: 256 }, false, [usage]);
}

export function isEncryptedShare(data: string): boolean {
  return data.startsWith(ENCRYPTED_PREFIX);
}

/** Encrypts share bytes under a passphrase; returns the link data (`p1.…`). */
export async function encryptShareBytes(plain: Uint8Array<ArrayBuffer>, passphrase: string): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(SALT_BYTES));
  const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
  const key = await keyFor(passphrase, salt, "encrypt");
  const sealed = new Uint8Array(await crypto.subtle.encrypt({ name: "AES-GCM", iv }, key, plain));
  const out = new Uint8Array(SALT_BYTES + IV_BYTES + sealed.length);
  out.set(salt, 0);
  out.set(iv, SALT_BYTES);
  out.set(sealed, SALT_BYTES + IV_BYTES);
  return `${ENCRYPTED_PREFIX}${bytesToBase64Url(out)}`;
}

/** Decrypts `p1.…` link data; a wrong passphrase and a damaged link are told apart where possible. Never throws. */
export async function decryptShareBytes(data: string, passphrase: string): Promise<Result<Uint8Array>> {
  const bytes = base64UrlToBytes(data.slice(ENCRYPTED_PREFIX.length));
  if (!bytes || bytes.length < SALT_BYTES + IV_BYTES + 16)
    return { ok: false, error: "The share link is damaged: its encrypted data is incomplete (was it cut or edited?)." };
  const salt = bytes.slice(0, SALT_BYTES);
  const iv = bytes.slice(SALT_BYTES, SALT_BYTES + IV_BYTES);
  try {
    const key = await keyFor(passphrase, salt, "decrypt");
    const plain = await crypto.subtle.decrypt({ name: "AES-GCM", iv }, key, bytes.slice(SALT_BYTES + IV_BYTES));
    return { ok: true, value: new Uint8Array(plain) };
  } catch {
    return { ok: false, error: "Wrong passphrase — or the link was changed after it was made." };
  }
}
