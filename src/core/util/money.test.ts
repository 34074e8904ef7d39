import { describe, expect, it } from "vitest";
import { formatUSD } from "./money";

describe("formatUSD", () => {
  it("keeps two significant digits below ten cents and cents above, with no jump at a cent", () => {
    expect([0, 0.00000042, 0.0000123, 0.00023, 0.0099, 0.0101, 0.012, 0.05, 0.0999, 0.1, 0.123, 1.5, 1234.567].map(formatUSD)).toEqual([
      "$0.00",
      "<$0.000001",
      "$0.000012",
      "$0.00023",
      "$0.0099",
      "$0.01",
      "$0.012",
      "$0.05",
      "$0.10",
      "$0.10",
      "$0.12",
      "$1.50",
      "$1234.57",
    ]);
  });
  it("says $0.00 for nothing, a negative or a broken number", () => {
    expect([-1, Number.NaN, Number.POSITIVE_INFINITY].map(formatUSD)).toEqual(["$0.00", "$0.00", "$0.00"]);
  });
});
