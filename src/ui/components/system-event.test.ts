import { describe, expect, it } from "vitest";
import { checkText } from "./system-event";

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
