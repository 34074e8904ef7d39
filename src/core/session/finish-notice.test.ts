import { describe, expect, it } from "vitest";
import type { MessageWithParts } from "../schema";
import { finishNotice } from "./finish-notice";

const tokens = { input: 1, output: 1, reasoning: 0, cache: { read: 0, write: 0 } };
function answer(finish: string, rawReason?: string): MessageWithParts {
  return {
    info: { id: "msg_2", sessionID: "ses_1", role: "assistant", parentID: "msg_1", modelID: "m", providerID: "p", agent: "build", mode: "build", path: { cwd: "/", root: "/" }, cost: 0, tokens, finish, time: { created: 1, completed: 2 } },
    parts: [{ id: "prt_1", sessionID: "ses_1", messageID: "msg_2", type: "step-finish", reason: finish, cost: 0, tokens, ...(rawReason ? { rawReason } : {}) }],
  } as MessageWithParts;
}

describe("finishNotice", () => {
  it("length → cut at the output limit", () => {
    expect(finishNotice(answer("length"))).toEqual({ kind: "length", text: "The answer was cut at the output limit." });
  });
  it("content-filter → the provider's own word", () => {
    expect(finishNotice(answer("content-filter", "refusal"))?.text).toBe("The provider stopped this answer (refusal).");
    expect(finishNotice(answer("content-filter"))?.text).toBe("The provider stopped this answer (content filter).");
  });
  it("a normal end → nothing", () => {
    expect(finishNotice(answer("stop"))).toBeUndefined();
    expect(finishNotice(answer("tool-calls"))).toBeUndefined();
  });
});
