import { describe, expect, it } from "vitest";
import { deleteQuestion, movedNote } from "./file-words";

describe("deleteQuestion", () => {
  it("names the file and its size", () => {
    expect(deleteQuestion("src/a.ts", { type: "file", size: 2048 })).toEqual({
      title: "Delete src/a.ts?",
      body: "src/a.ts (2.0 KB) will be deleted from the workspace. There is no undo in Files; download the zip first if you may need it again.",
    });
    expect(deleteQuestion("e", { type: "file", size: 0 }).body).toContain("e (0 bytes)");
  });

  it("says how many files go with a folder, and how many of them Files does not show", () => {
    expect(deleteQuestion("web", { type: "folder", files: 12, hidden: 0, complete: true }).body).toBe(
      "The folder web/ and the 12 files in it will be deleted from the workspace. There is no undo in Files; download the zip first if you may need it again.",
    );
    expect(deleteQuestion("web", { type: "folder", files: 1, hidden: 0, complete: true }).body).toContain("the 1 file in it will");
    expect(deleteQuestion("web", { type: "folder", files: 1204, hidden: 1200, complete: true }).body).toContain(
      "the 1,204 files in it (1,200 of them in folders Files does not show, such as .git or node_modules)",
    );
    expect(deleteQuestion("web", { type: "folder", files: 3, hidden: 3, complete: true }).body).toContain("(all are in folders Files does not show");
    expect(deleteQuestion("web", { type: "folder", files: 50000, hidden: 0, complete: false }).body).toContain("web/ and more than 50,000 files in it");
    expect(deleteQuestion("web", { type: "folder", files: 0, hidden: 0, complete: true })).toEqual({
      title: "Delete the folder web/?",
      body: "The folder web/ is empty; it will be deleted from the workspace.",
    });
  });
});

describe("movedNote", () => {
  it("says renamed within a folder, moved across folders", () => {
    expect(movedNote("src/a.ts", "src/b.ts", false)).toBe("Renamed src/a.ts to src/b.ts.");
    expect(movedNote("a.ts", "src/a.ts", false)).toBe("Moved a.ts to src/a.ts.");
    expect(movedNote("lib", "src/lib", true)).toBe("Moved lib/ to src/lib/.");
  });
});
