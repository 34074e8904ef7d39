import { describe, expect, it } from "vitest";
import type { MessageWithParts, Part } from "../schema";
import { foldedCounts, isConversationMessage, systemEventKind } from "./system-event";

let n = 0;
function user(parts: Array<Record<string, unknown>>): MessageWithParts {
  const id = `msg_${String(n++).padStart(4, "0")}`;
  return {
    info: { id, sessionID: "ses_1", role: "user", time: { created: n }, agent: "build", model: { providerID: "x", modelID: "y" } },
    parts: parts.map((p, i) => ({ id: `prt_${id}_${i}`, sessionID: "ses_1", messageID: id, ...p }) as Part),
  } as MessageWithParts;
}

describe("system events", () => {
  it("recognises compaction requests, the continue prompt and other injected text; a typed message is the user's", () => {
    expect(systemEventKind(user([{ type: "compaction", auto: true }]))).toBe("compaction");
    expect(systemEventKind(user([{ type: "text", text: "Continue if you have next steps.", synthetic: true, metadata: { compaction_continue: true } }]))).toBe("continue");
    expect(systemEventKind(user([{ type: "text", text: "file contents", synthetic: true }]))).toBe("synthetic");
    expect(systemEventKind(user([{ type: "text", text: "Goal: x", synthetic: true, metadata: { goal: "start" } }]))).toBe("goal");
    expect(systemEventKind(user([{ type: "text", text: "Continue toward the goal: x", synthetic: true, metadata: { goal: "continue" } }]))).toBe("goal-continue");
    expect(systemEventKind(user([{ type: "text", text: "hello" }]))).toBeUndefined();
    // Typed text with an injected attachment stays the user's message.
    expect(systemEventKind(user([{ type: "text", text: "see this" }, { type: "text", text: "<file>", synthetic: true }]))).toBeUndefined();
  });

  it("counts the messages each compaction folded away, people's messages and answers only, into the total too", () => {
    const a = user([{ type: "text", text: "a" }]);
    const b = user([{ type: "text", text: "b" }]);
    const c1 = user([{ type: "compaction", auto: true }]);
    const cont = user([{ type: "text", text: "Continue if you have next steps.", synthetic: true, metadata: { compaction_continue: true } }]);
    const d = user([{ type: "text", text: "d" }]);
    const c2 = user([{ type: "compaction", auto: false }]);
    const e = user([{ type: "text", text: "e" }]);
    const sent = new Set([c2.info.id, e.info.id]);
    // c1 and the continue prompt are not sent any more either: system events are not counted as messages.
    expect(foldedCounts([a, b, c1, cont, d, c2, e], sent)).toEqual({
      byRequest: new Map([
        [c1.info.id, 2],
        [c2.info.id, 1],
      ]),
      total: 3,
    });
    expect([a, c1, cont].map(isConversationMessage)).toEqual([true, false, false]);
  });
});
