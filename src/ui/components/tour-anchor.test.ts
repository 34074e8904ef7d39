import { describe, expect, it } from "vitest";
import { placeTour } from "./tour-anchor";

const size = { width: 320, height: 150 };
const desk = { width: 1400, height: 900 };

describe("tour placement", () => {
  it("goes below its element when there is room, aligned with it", () => {
    expect(placeTour({ top: 100, left: 400, bottom: 140, right: 600 }, size, desk)).toEqual({ kind: "popover", side: "below", top: 150, left: 400 });
  });
  it("goes above an element near the bottom, and stays inside the viewport on the right", () => {
    expect(placeTour({ top: 800, left: 1300, bottom: 840, right: 1390 }, size, desk)).toEqual({ kind: "popover", side: "above", top: 640, left: 1072 });
  });
  it("sits beside a tall element (right, else left), not on it", () => {
    expect(placeTour({ top: 80, left: 290, bottom: 880, right: 960 }, size, desk)).toEqual({ kind: "popover", side: "right", top: 80, left: 970 });
    expect(placeTour({ top: 80, left: 700, bottom: 880, right: 1390 }, size, desk)).toEqual({ kind: "popover", side: "left", top: 80, left: 370 });
    // A little short of room: over the element's edge (its padding), not its middle.
    expect(placeTour({ top: 80, left: 280, bottom: 880, right: 1100 }, size, desk)).toEqual({ kind: "popover", side: "right", top: 80, left: 1072 });
  });
  it("with no room anywhere, covers the lower part of a tall element, so its start stays visible", () => {
    const p = placeTour({ top: 20, left: 10, bottom: 880, right: 1390 }, size, desk);
    expect(p).toEqual({ kind: "popover", side: "over", top: 720, left: 10 });
  });
  it("without an element it sits in the bottom-right corner; on a phone it is a bottom sheet", () => {
    expect(placeTour(undefined, size, desk)).toEqual({ kind: "popover", side: "over", top: 734, left: 1064 });
    // In the conversation's corner when its area is known (not over the side panel at its right).
    expect(placeTour(undefined, size, desk, { top: 70, left: 280, bottom: 780, right: 980 })).toEqual({ kind: "popover", side: "over", top: 614, left: 644 });
    expect(placeTour({ top: 100, left: 10, bottom: 140, right: 380 }, size, { width: 390, height: 844 })).toEqual({ kind: "sheet" });
  });
});
