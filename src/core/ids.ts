/**
 * Prefixed, time-sortable identifiers.
 *
 * Body (26 chars) = 12 hex digits of a 48-bit millisecond timestamp
 * + 3 hex digits of a per-millisecond counter + 11 random base62 characters.
 * Ascending ids sort chronologically as plain strings; descending ids (used for
 * sessions) invert the time fields so the newest sorts first.
 */
export type IdPrefix = "ses" | "msg" | "prt" | "per" | "tool" | "snap" | "pin";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const MAX_48 = 0xffffffffffff;
let lastMs = 0;
let counter = 0;

function randomTail(length: number): string {
  const bytes = new Uint8Array(length);
  crypto.getRandomValues(bytes);
  let out = "";
  for (const b of bytes) out += BASE62[b % 62];
  return out;
}

function nextStamp(now: number): { ms: number; count: number } {
  if (now > lastMs) {
    lastMs = now;
    counter = 0;
  } else {
    counter++;
    if (counter > 0xfff) {
      // More than 4096 ids in one millisecond: borrow the next millisecond.
      lastMs++;
      counter = 0;
    }
  }
  return { ms: lastMs, count: counter };
}

/** A new id whose string order is creation order. */
export function ascendingId(prefix: IdPrefix, now: number = Date.now()): string {
  const { ms, count } = nextStamp(now);
  return `${prefix}_${ms.toString(16).padStart(12, "0")}${count.toString(16).padStart(3, "0")}${randomTail(11)}`;
}

/** A new id whose string order is reverse creation order (newest first). */
export function descendingId(prefix: IdPrefix, now: number = Date.now()): string {
  const { ms, count } = nextStamp(now);
  const invMs = MAX_48 - ms;
  const invCount = 0xfff - count;
  return `${prefix}_${invMs.toString(16).padStart(12, "0")}${invCount.toString(16).padStart(3, "0")}${randomTail(11)}`;
}

/** The creation time encoded in an id made by this module (ms since epoch). */
export function idTime(id: string): number {
  const body = id.slice(id.indexOf("_") + 1);
  const ms = Number.parseInt(body.slice(0, 12), 16);
  return id.startsWith("ses_") ? MAX_48 - ms : ms;
}

const ID_RE = /^[a-z]+_[0-9a-f]{15}[0-9A-Za-z]{11}$/;
/** Whether a string has the shape of an id made by this module. */
export function isTabcodeId(id: string): boolean {
  return ID_RE.test(id);
}
