import { describe, expect, it } from "vitest";
import { contextMeterAttributes } from "./context-meter";

/**
 * The region a `<meter>` is drawn in, as HTML defines it (the "meter" element's boundaries and regions):
 * the boundaries are clamped (min ≤ low ≤ high ≤ max, value within [min, max]); with the optimum below
 * `low`, the value is in the optimum region below `low`, suboptimal from `low` to `high`, and in the even
 * less good region above `high`.
 */
function region(a: ReturnType<typeof contextMeterAttributes>): "green" | "amber" | "red" {
  const max = Math.max(a.min, a.max);
  const value = Math.min(Math.max(a.value, a.min), max);
  const low = Math.min(Math.max(a.low, a.min), max);
  const high = Math.min(Math.max(a.high, low), max);
  if (value < low) return "green";
  if (value <= high) return "amber";
  return "red";
}

describe("contextMeterAttributes", () => {
  // usable 100,000 tokens; auto-compaction at usable × threshold.
  for (const threshold of [1, 0.8, 0.5, 0.1]) {
    const usable = 100_000;
    const overflowAt = Math.floor(usable * threshold);
    it(`is red exactly from where auto-compaction starts (threshold ${threshold})`, () => {
      const at = (total: number) => region(contextMeterAttributes({ total, usable, overflowAt }));
      expect(at(overflowAt - 1)).not.toBe("red");
      expect(at(overflowAt)).toBe("red");
      expect(at(usable)).toBe("red");
      expect(at(usable * 2.15)).toBe("red");
      expect(at(0)).toBe("green");
    });
  }

  it("is amber between 60 % of the window and the compaction point", () => {
    const size = { usable: 100_000, overflowAt: 100_000 };
    expect(region(contextMeterAttributes({ ...size, total: 59_999 }))).toBe("green");
    expect(region(contextMeterAttributes({ ...size, total: 60_000 }))).toBe("amber");
    expect(region(contextMeterAttributes({ ...size, total: 99_999 }))).toBe("amber");
  });

  it("keeps the value inside the window", () => {
    expect(contextMeterAttributes({ total: 250_000, usable: 100_000, overflowAt: 100_000 }).value).toBe(100_000);
  });

  it("leaves the meter empty for a model whose window is unknown (nothing to compare with)", () => {
    const none = contextMeterAttributes({ total: 10_000, usable: 0, overflowAt: 0 });
    expect(none).toMatchObject({ max: 1, value: 0 });
    expect(region(none)).toBe("green");
  });
});
