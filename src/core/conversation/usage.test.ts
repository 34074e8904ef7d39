import { describe, expect, it } from "vitest";
import { addTokens, contextUsed, costOf, toTokens } from "./usage";

describe("usage", () => {
  it("splits cached reads out of input and reasoning out of output, so nothing is billed twice", () => {
    const t = toTokens({ inputTokens: 1000, cacheReadTokens: 600, cacheWriteTokens: 100, outputTokens: 300, reasoningTokens: 120, totalTokens: 1300 });
    expect(t).toEqual({ input: 300, output: 180, reasoning: 120, cache: { read: 600, write: 100 }, total: 1300 });
    expect(contextUsed(t)).toBe(1300);
    expect(contextUsed({ ...t, total: undefined })).toBe(300 + 180 + 120 + 600 + 100);
  });

  it("treats missing or nonsense numbers as zero and prefers the provider's uncached input", () => {
    expect(toTokens({ inputTokens: Number.NaN, outputTokens: -5, noCacheInputTokens: 42 })).toEqual({ input: 42, output: 0, reasoning: 0, cache: { read: 0, write: 0 } });
  });

  it("prices per million tokens, reasoning at the output rate", () => {
    const t = { input: 1_000_000, output: 500_000, reasoning: 500_000, cache: { read: 2_000_000, write: 0 } };
    expect(costOf(t, { input: 2, output: 8, cacheRead: 0.5, cacheWrite: 0 })).toBe(2 + 4 + 4 + 1);
    expect(addTokens(t, t).cache.read).toBe(4_000_000);
  });
});
