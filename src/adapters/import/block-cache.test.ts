import { describe, expect, it } from "vitest";
import { cachedReader } from "./block-cache";
import type { ByteReader } from "./reader-vfs";

function source(size: number): ByteReader & { calls: number } {
  const bytes = Uint8Array.from({ length: size }, (_, i) => (i * 7) % 251);
  const r = {
    size,
    calls: 0,
    read(offset: number, length: number) {
      r.calls++;
      return bytes.slice(offset, Math.min(size, offset + length));
    },
  };
  return r;
}

describe("read-ahead block cache", () => {
  it("returns exactly the bytes of the source, across block edges and at the end of the file", () => {
    const src = source(10_000);
    const c = cachedReader(src, 1024, 3);
    for (const [off, len] of [
      [0, 100],
      [1000, 100],
      [1020, 3000],
      [9_990, 100],
      [12_000, 10],
      [4096, 4096],
    ] as const) {
      expect([...c.read(off, len)]).toEqual([...src.read(off, len)]);
    }
  });

  it("serves neighbouring page reads from one block read, and keeps at most `blocks` blocks", () => {
    const src = source(64 * 1024);
    const c = cachedReader(src, 16 * 1024, 2);
    for (let off = 0; off < 16 * 1024; off += 4096) c.read(off, 4096);
    expect(c.reads()).toBe(1);
    c.read(16 * 1024, 10);
    c.read(32 * 1024, 10);
    c.read(0, 10); // evicted by the two above
    expect(c.reads()).toBe(4);
  });
});
