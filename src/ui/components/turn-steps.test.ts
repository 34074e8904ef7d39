import { describe, expect, it } from "vitest";
import type { MessageWithParts } from "../../core/schema";
import { answerEnd, stepPlace } from "./turn-steps";

let n = 0;
function msg(role: "user" | "assistant", summary = false): MessageWithParts {
  const id = `msg_${String(n++).padStart(4, "0")}`;
  return { info: { id, role, ...(summary ? { summary: true } : {}) }, parts: [] } as unknown as MessageWithParts;
}

describe("steps of an answer", () => {
  it("a three-step answer: one header, one last step; a summary starts its own block but does not end the answer", () => {
    const list = [msg("user"), msg("assistant"), msg("assistant"), msg("assistant"), msg("user"), msg("assistant"), msg("assistant", true), msg("assistant")];
    expect(list.map((_, i) => stepPlace(list, i))).toEqual([
      { continued: false, last: false },
      { continued: false, last: false },
      { continued: true, last: false },
      { continued: true, last: true },
      { continued: false, last: false },
      // Answered on after the summary: Regenerate is offered once, at the answer's real end.
      { continued: false, last: false },
      { continued: false, last: false },
      { continued: false, last: true },
    ]);
    expect(stepPlace(list, 99)).toEqual({ continued: false, last: false });
  });

  it("tabcode's own messages (a compaction request, the continue prompt) do not end an answer; a person's message does", () => {
    const user = (parts: unknown[]) => ({ ...msg("user"), parts }) as unknown as MessageWithParts;
    const compaction = user([{ type: "compaction", auto: true }]);
    const cont = user([{ type: "text", text: "Continue if you have next steps.", synthetic: true, metadata: { compaction_continue: true } }]);
    const list = [user([{ type: "text", text: "Do it." }]), msg("assistant"), compaction, msg("assistant", true), cont, msg("assistant"), user([{ type: "text", text: "Next." }]), msg("assistant")];
    expect(list.map((_, i) => stepPlace(list, i).last)).toEqual([false, false, false, false, false, true, false, true]);
    // Fork from the answer goes through the same last step, past the compaction in its middle.
    expect(answerEnd(list, 1)).toBe(5);
    expect(answerEnd(list, 7)).toBe(7);
    expect(list.map((_, i) => stepPlace(list, i).last && answerEnd(list, i) === i)).toEqual(list.map((_, i) => stepPlace(list, i).last));
  });
});
