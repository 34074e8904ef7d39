import { describe, expect, it } from "vitest";
import { Calibration, reportedInputTokens } from "./calibration";

describe("Calibration", () => {
  it("starts at 1, takes the first sample, then moves half way", () => {
    const c = new Calibration();
    expect(c.ratio("m")).toBe(1);
    expect(c.observe("m", 1_200, 1_000)).toBe(1.2);
    expect(c.observe("m", 1_000, 1_000)).toBeCloseTo(1.1, 10);
    expect(c.apply("m", 10_000)).toBe(11_000);
    expect(c.ratio("other")).toBe(1);
  });

  it("clamps to [0.5, 2]", () => {
    const c = new Calibration();
    expect(c.observe("a", 10_000, 1_000)).toBe(2);
    expect(c.observe("b", 100, 1_000)).toBe(0.5);
  });

  it("ignores unusable samples", () => {
    const c = new Calibration();
    expect(c.observe("m", 0, 1_000)).toBe(1);
    expect(c.observe("m", 500, 100)).toBe(1); // too small to calibrate on
    expect(c.observe("m", Number.NaN, 1_000)).toBe(1);
  });

  it("reset forgets", () => {
    const c = new Calibration();
    c.observe("m", 1_500, 1_000);
    c.reset("m");
    expect(c.ratio("m")).toBe(1);
  });

  it("reads the provider's input as uncached + cache read + cache write", () => {
    expect(reportedInputTokens({ input: 100, output: 50, reasoning: 5, cache: { read: 900, write: 10 } })).toBe(1_010);
  });
});
