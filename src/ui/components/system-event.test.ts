import { describe, expect, it } from "vitest";
import type { MessageWithParts, Part } from "../../core/schema";
import { checkText, compactedCounts, systemEventKind } from "./system-event";

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

  it("counts the messages each compaction folded away", () => {
    const a = user([{ type: "text", text: "a" }]);
    const b = user([{ type: "text", text: "b" }]);
    const c1 = user([{ type: "compaction", auto: true }]);
    const d = user([{ type: "text", text: "d" }]);
    const c2 = user([{ type: "compaction", auto: false }]);
    const sent = new Set([c1.info.id, c2.info.id]);
    expect(compactedCounts([a, b, c1, d, c2], sent)).toEqual(
      new Map([
        [c1.info.id, 2],
        [c2.info.id, 1],
      ]),
    );
  });
});

describe("the post-compaction check on the divider", () => {
  it("says how many pins and files were checked and how many had to be re-added", () => {
    const base = { pins: 3, files: 2, reinjectedPins: 0, reinjectedFiles: 0, userMessages: 4, droppedUserMessages: 0, time: 1 };
    expect(checkText(base).text).toBe("pins checked 5/5");
    expect(checkText(base).detail).toBe("3 pins and 2 touched files checked in the next request; nothing was missing; 4 earlier messages of yours sent verbatim");
    const missing = checkText({ ...base, reinjectedPins: 1, reinjectedFiles: 1, droppedUserMessages: 2 });
    expect(missing.text).toBe("pins checked 5/5 · 2 re-added");
    expect(missing.detail).toContain("1 pin and 1 file were missing and re-added");
    expect(missing.detail).toContain("(2 older did not fit)");
    expect(checkText(undefined).text).toBe("pins checked on the next request");
  });
});
