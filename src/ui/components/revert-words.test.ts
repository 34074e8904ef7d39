import { describe, expect, it } from "vitest";
import { revertWords } from "./revert-words";

describe("revertWords", () => {
  it("says what was reverted, what came with it, and where the files stand", () => {
    expect(revertWords(1, 0, { snapshot: "h" })).toBe("Your last message and its answer were reverted, and the files restored.");
    expect(revertWords(3, 0, undefined)).toBe("Your last 3 messages and their answers were reverted.");
    expect(revertWords(1, 1, { snapshot: "h" })).toBe("Your last message and its answer were reverted, with the summary written after it, and the files restored.");
    expect(revertWords(2, 1, { snapshot: "h" })).toBe("Your last 2 messages and their answers were reverted, with the summary written after them, and the files restored.");
    // "undo" on a compaction: only the summary went.
    expect(revertWords(0, 1, { snapshot: "h" })).toBe("The summary was undone: the model sees the conversation it replaced again.");
    // After an automatic summary the model carried on: that went too.
    expect(revertWords(0, 1, undefined, 2)).toBe("The summary was undone, with what the model did after it: the model sees the conversation it replaced again.");
    // Files that could not go back are never called restored, even when an earlier revert took a snapshot.
    expect(revertWords(2, 0, { snapshot: "h", filesKept: true })).toBe(
      "Your last 2 messages and their answers were reverted. The files were left as they are: their earlier versions are not in this browser (the session came from an export or a share).",
    );
  });

  it("names the user's own later changes the revert undid, or kept", () => {
    expect(revertWords(1, 0, { snapshot: "h", undone: ["notes.md"] })).toBe(
      "Your last message and its answer were reverted, and the files restored. Your own later changes to notes.md were undone with it.",
    );
    expect(revertWords(1, 0, { snapshot: "h", undone: ["a", "b", "c", "d", "e"] })).toBe(
      "Your last message and its answer were reverted, and the files restored. Your own later changes to a, b, c and 2 more were undone with them.",
    );
    expect(revertWords(2, 0, { snapshot: "h", ownKept: ["a.ts", "b.ts"] })).toBe(
      "Your last 2 messages and their answers were reverted, and the files restored. Your own later changes to a.ts and b.ts were kept.",
    );
  });

  it("undo on a summary's divider with turns after it: the summary first, then what went with it", () => {
    expect(revertWords(1, 1, { snapshot: "h" }, 1, true)).toBe(
      "The summary was undone, with your later message and its answer (files included): the model sees the conversation it replaced again.",
    );
    expect(revertWords(2, 1, { snapshot: "h", filesKept: true }, 2, true)).toBe(
      "The summary was undone, with your 2 later messages and their answers: the model sees the conversation it replaced again. The files were left as they are: their earlier versions are not in this browser (the session came from an export or a share).",
    );
  });
});
