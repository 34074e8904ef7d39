import { describe, expect, it } from "vitest";
import { capMemoryGrowth } from "./wasm-memory-cap";

const PAGE = 65_536;

describe("capMemoryGrowth", () => {
  it("lets memory grow up to the cap, refuses beyond it, and remembers the largest size", () => {
    const cap = capMemoryGrowth(4 * PAGE);
    try {
      const mem = new WebAssembly.Memory({ initial: 1, maximum: 100 });
      expect(mem.grow(2)).toBe(1);
      expect(() => mem.grow(2)).toThrow(RangeError);
      expect(mem.buffer.byteLength).toBe(3 * PAGE);
      expect(mem.grow(1)).toBe(3);
      expect(cap.largest()).toBe(4 * PAGE);
    } finally {
      cap.lift();
    }
    expect(new WebAssembly.Memory({ initial: 1, maximum: 100 }).grow(10)).toBe(1);
  });
});
