import { describe, expect, it } from "vitest";
import { MESSAGE_OVERHEAD } from "../tokens/part-text";
import { selectTail, tailBudget } from "./tail";
import { History, sized, text } from "./test-fixtures";

describe("tailBudget", () => {
  it("is clamp(floor(usable × 0.25), 2k, 15k)", () => {
    expect(tailBudget({ contextWindow: 128_000, maxOutputTokens: 16_384 })).toBe(15_000); // usable 95,232
    expect(tailBudget({ contextWindow: 32_768, maxOutputTokens: 8_192 })).toBe(4_096); // usable 16,384
    expect(tailBudget({ contextWindow: 6_000, maxOutputTokens: 1_000 })).toBe(2_000); // usable 4,000
  });
});

describe("selectTail", () => {
  // Each turn: a user message of 1,000 tokens and an answer of 1,000 tokens (+ framing).
  const turn = 2 * (1_000 + MESSAGE_OVERHEAD);
  function fourTurns() {
    const h = new History();
    for (let i = 0; i < 4; i++) {
      h.user(text(sized(1_000)));
      h.assistant([text(sized(1_000))]);
    }
    return h;
  }

  it("keeps as many whole recent turns as fit, starting at a user message", () => {
    const h = fourTurns();
    expect(selectTail(h.msgs, { budget: 2 * turn, encoding: "x" })).toBe(4);
    expect(selectTail(h.msgs, { budget: 2 * turn - 1, encoding: "x" })).toBe(6);
    expect(h.msgs[6]?.info.role).toBe("user");
  });

  it("keeps no tail when not even the last turn fits", () => {
    expect(selectTail(fourTurns().msgs, { budget: turn - 1, encoding: "x" })).toBeUndefined();
  });

  it("always leaves the first turn to summarise", () => {
    expect(selectTail(fourTurns().msgs, { budget: 1_000_000, encoding: "x" })).toBe(2);
  });

  it("never reaches back past the previous compaction boundary", () => {
    const h = fourTurns();
    const boundary = h.msgs[3]?.info.id;
    // Turns 2 and 3 are newer than the boundary; turn 2 (index 4) is the first, so it stays in the head.
    expect(selectTail(h.msgs, { budget: 1_000_000, encoding: "x", after: boundary })).toBe(6);
  });
});
