import { describe, expect, it } from "vitest";
import { costWords } from "./totals";

describe("costWords", () => {
  it("is the amount when every step had a price, and says what is not counted when some did not", () => {
    expect(costWords(0.42, 0)).toEqual({ short: "$0.42", long: "$0.42" });
    expect(costWords(0, 0)).toEqual({ short: "$0.00", long: "$0.00" });
    expect(costWords(0.42, 3)).toEqual({ short: "$0.42 + ?", long: "$0.42, not counting 3 steps on a model with no known price" });
    expect(costWords(0, 1)).toEqual({ short: "price unknown", long: "price unknown (1 step on a model with no known price)" });
  });
});
