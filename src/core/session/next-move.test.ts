import { describe, expect, it } from "vitest";
import { compaction, History, text, tool } from "../compaction/test-fixtures";
import type { PolicyDecision } from "../compaction/policy";
import { conversationView } from "../conversation/view";
import type { RequestSize } from "../tokens/request-size";
import { type MovePolicy, nextMove } from "./next-move";

const size = { total: 1000 } as RequestSize;
const policy = (d: PolicyDecision, summariesLeft = 2): MovePolicy => ({ decide: () => d, summariesLeft });

describe("nextMove", () => {
  it("runs a pending compaction first, stops when the turn is done, else measures", () => {
    const h = new History();
    h.turn("one", [text("answer")]);
    expect(nextMove(conversationView(undefined, h.msgs), undefined, policy({ kind: "send" })).kind).toBe("done");
    h.user(text("two"));
    expect(nextMove(conversationView(undefined, h.msgs), undefined, policy({ kind: "send" })).kind).toBe("measure");
    h.user(compaction(false));
    expect(nextMove(conversationView(undefined, h.msgs), undefined, policy({ kind: "send" })).kind).toBe("compact");
  });

  it("with the request's size: the policy chooses send, prune or summarise, within the per-prompt cap", () => {
    const h = new History();
    h.turn("one", [tool("read", {}, "big output")]);
    h.user(text("two"));
    const view = conversationView(undefined, h.msgs);
    const part = h.msgs[1]?.parts[0];
    if (part?.type !== "tool") throw new Error("fixture");
    expect(nextMove(view, size, policy({ kind: "send" }))).toEqual({ kind: "send" });
    expect(nextMove(view, size, policy({ kind: "prune", parts: [part], freed: 10 }))).toEqual({ kind: "prune", parts: [part] });
    // Nothing to prune is a send.
    expect(nextMove(view, size, policy({ kind: "prune", parts: [], freed: 0 })).kind).toBe("send");
    expect(nextMove(view, size, policy({ kind: "summarize", mode: "cached-prefix", tailStartID: "msg_x" }))).toEqual({ kind: "summarize", mode: "cached-prefix", tailStartID: "msg_x" });
    // The cap is reached: the provider decides.
    expect(nextMove(view, size, policy({ kind: "summarize", mode: "transcript" }, 0)).kind).toBe("send");
  });
});
