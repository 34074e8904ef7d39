import { describe, expect, it } from "vitest";
import { utf8Length } from "./utf8";

/** The reference: what an encoder writes. */
const bytes = (s: string) => new TextEncoder().encode(s).length;

describe("utf8Length", () => {
  it("counts the bytes an encoder writes: ASCII, two- and three-byte characters, astral pairs, lone halves", () => {
    for (const s of ["", "abc", "é", "日本", "😀", "\ud800", "\udc00x", "a\ud83dz", "mixed é 日 😀 \ud800 end"]) expect(utf8Length(s), JSON.stringify(s)).toBe(bytes(s));
  });

  it("counts a long text in steps without splitting an astral pair between them", () => {
    // 16,383 ASCII characters put the first pair across the step boundary; pairs and CJK throughout.
    const long = `${"a".repeat(16_383)}${"😀日é".repeat(20_000)}${"\ud800"}`;
    expect(utf8Length(long)).toBe(bytes(long));
    const pairs = "😀".repeat(40_000);
    expect(utf8Length(pairs)).toBe(160_000);
  });

  it("stops counting past the limit (an import's size check does not read a huge text to its end)", () => {
    const big = "日".repeat(200_000);
    const n = utf8Length(big, 1_000);
    expect(n).toBeGreaterThan(1_000);
    expect(n).toBeLessThan(bytes(big));
  });
});
