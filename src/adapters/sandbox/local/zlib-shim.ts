/**
 * Browser stand-in for `node:zlib`, aliased in vite.config.ts. just-bash's
 * browser build imports `gzipSync`, `gunzipSync` and `constants` from it;
 * fflate provides real implementations. (just-bash's gzip/gunzip/zcat also
 * need Node's `Buffer`, so in a browser the local sandbox replaces them with
 * commands that say they are unavailable: see missing-commands.ts.)
 */
import { gunzipSync as inflateGzip, gzipSync as deflateGzip } from "fflate";

export const constants = {
  Z_NO_COMPRESSION: 0,
  Z_BEST_SPEED: 1,
  Z_BEST_COMPRESSION: 9,
  Z_DEFAULT_COMPRESSION: -1,
} as const;

export interface ZlibOptions {
  level?: number;
  /** Refuse results larger than this many bytes (as node:zlib does). */
  maxOutputLength?: number;
}

type Level = 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9;

function toBytes(data: Uint8Array | ArrayBuffer | string): Uint8Array {
  if (typeof data === "string") return new TextEncoder().encode(data);
  return data instanceof Uint8Array ? data : new Uint8Array(data);
}

function checkSize(out: Uint8Array, max: number | undefined): Uint8Array {
  if (max !== undefined && out.length > max) {
    throw new RangeError(`Cannot create a buffer larger than ${max} bytes (maxOutputLength)`);
  }
  return out;
}

export function gzipSync(data: Uint8Array | ArrayBuffer | string, opts: ZlibOptions = {}): Uint8Array {
  const raw = opts.level ?? constants.Z_DEFAULT_COMPRESSION;
  const level = (raw < 0 ? 6 : Math.min(9, Math.max(0, Math.round(raw)))) as Level;
  return checkSize(deflateGzip(toBytes(data), { level }), opts.maxOutputLength);
}

export function gunzipSync(data: Uint8Array | ArrayBuffer | string, opts: ZlibOptions = {}): Uint8Array {
  try {
    return checkSize(inflateGzip(toBytes(data)), opts.maxOutputLength);
  } catch (e) {
    if (e instanceof RangeError) throw e;
    throw new Error(`incorrect header check (${e instanceof Error ? e.message : String(e)})`);
  }
}

export default { constants, gzipSync, gunzipSync };
