/**
 * A read-ahead cache over a byte reader: SQLite asks for one page (4 KB) at a
 * time, and each read of a dropped `File` in a Worker (`FileReaderSync` over a
 * `Blob` slice) costs a round trip to the browser's blob store. Reading
 * aligned blocks of `blockSize` and keeping the last `blocks` of them turns
 * the rows of one session, written together and so stored close together,
 * into a few large reads. Memory stays bounded (blockSize × blocks).
 */
import type { ByteReader } from "./reader-vfs";

export function cachedReader(inner: ByteReader, blockSize = 256 * 1024, blocks = 32): ByteReader & { reads: () => number } {
  const cache = new Map<number, Uint8Array>();
  let reads = 0;
  const block = (n: number): Uint8Array => {
    const hit = cache.get(n);
    if (hit) {
      // Most recently used last.
      cache.delete(n);
      cache.set(n, hit);
      return hit;
    }
    reads++;
    const bytes = inner.read(n * blockSize, blockSize);
    cache.set(n, bytes);
    if (cache.size > blocks) {
      const oldest = cache.keys().next().value;
      if (oldest !== undefined) cache.delete(oldest);
    }
    return bytes;
  };
  return {
    size: inner.size,
    reads: () => reads,
    read(offset, length) {
      const end = Math.min(inner.size, offset + length);
      if (end <= offset) return new Uint8Array(0);
      const first = Math.floor(offset / blockSize);
      if (first === Math.floor((end - 1) / blockSize)) {
        const b = block(first);
        return b.subarray(offset - first * blockSize, end - first * blockSize);
      }
      const out = new Uint8Array(end - offset);
      for (let pos = offset; pos < end; ) {
        const n = Math.floor(pos / blockSize);
        const b = block(n);
        const from = pos - n * blockSize;
        const take = Math.min(b.length - from, end - pos);
        if (take <= 0) break;
        out.set(b.subarray(from, from + take), pos - offset);
        pos += take;
      }
      return out;
    },
  };
}
