import { describe, expect, it } from "vitest";
import { History, text } from "../../core/compaction/test-fixtures";
import type { MessageWithParts, Part } from "../../core/schema";
import { changesOf } from "./turn-changes";

function withParts(m: MessageWithParts, extra: Record<string, unknown>[]): void {
  for (const e of extra) m.parts.push({ id: `prt_${m.parts.length}${m.info.id}`, sessionID: m.info.sessionID, messageID: m.info.id, ...e } as Part);
}

describe("changesOf", () => {
  it("one step, or the whole turn from the first snapshot before to the last one after", () => {
    const h = new History();
    h.user(text("fix it"));
    const s1 = h.assistant([text("step 1")]);
    withParts(s1, [
      { type: "patch", hash: "h0", files: ["a.ts", "b.ts"] },
      { type: "step-finish", reason: "tool-calls", snapshot: "h1", cost: 0, tokens: { input: 0, output: 0, reasoning: 0, cache: { read: 0, write: 0 } } },
    ]);
    const s2 = h.assistant([text("step 2")]);
    withParts(s2, [{ type: "text", text: "no changes" }]);
    const s3 = h.assistant([text("step 3")]);
    withParts(s3, [
      { type: "patch", hash: "h1", files: ["b.ts", "c.ts"] },
      { type: "snapshot", snapshot: "h2" },
    ]);
    h.user(text("next"));
    const other = h.assistant([text("other turn")]);
    withParts(other, [{ type: "patch", hash: "h2", files: ["z.ts"] }]);

    expect(changesOf(h.msgs, s3.info.id, "step")).toEqual({ from: "h1", to: "h2", files: ["b.ts", "c.ts"] });
    expect(changesOf(h.msgs, s1.info.id, "turn")).toEqual({ from: "h0", to: "h2", files: ["a.ts", "b.ts", "c.ts"] });
    // A step without an "after" snapshot (cut short) compares with the current files.
    expect(changesOf(h.msgs, other.info.id, "turn")).toEqual({ from: "h2", to: undefined, files: ["z.ts"] });
    expect(changesOf(h.msgs, s2.info.id, "step")).toBeUndefined();
  });
});
