import { describe, expect, it } from "vitest";
import type { MessageWithParts } from "../../core/schema";
import { stepPlace } from "./turn-steps";

let n = 0;
function msg(role: "user" | "assistant", summary = false): MessageWithParts {
  const id = `msg_${String(n++).padStart(4, "0")}`;
  return { info: { id, role, ...(summary ? { summary: true } : {}) }, parts: [] } as unknown as MessageWithParts;
}

describe("steps of an answer", () => {
  it("a three-step answer: one header, one last step; a summary starts its own block", () => {
    const list = [msg("user"), msg("assistant"), msg("assistant"), msg("assistant"), msg("user"), msg("assistant"), msg("assistant", true), msg("assistant")];
    expect(list.map((_, i) => stepPlace(list, i))).toEqual([
      { continued: false, last: false },
      { continued: false, last: false },
      { continued: true, last: false },
      { continued: true, last: true },
      { continued: false, last: false },
      { continued: false, last: true },
      { continued: false, last: true },
      { continued: false, last: true },
    ]);
    expect(stepPlace(list, 99)).toEqual({ continued: false, last: false });
  });
});
