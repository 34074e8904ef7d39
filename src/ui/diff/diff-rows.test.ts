import { describe, expect, it } from "vitest";
import { fileDiff } from "../../core/tools/workspace";
import { diffFromPatch, diffTexts, splitRows } from "./diff-rows";

const before = ["import { a } from './a';", "", "export function sum(x: number, y: number) {", "  return x + y;", "}", "const keep = 1;", ""].join("\n");
const after = ["import { a } from './a';", "", "export function sum(x: number, y: number, z = 0) {", "  return x + y + z;", "}", "const keep = 1;", "const added = true;", ""].join("\n");

describe("diff rows", () => {
  it("numbers lines on both sides and marks only the changed words of paired lines", () => {
    const d = diffTexts(before, after);
    expect(d.additions).toBe(3);
    expect(d.deletions).toBe(2);
    const rows = d.hunks.flatMap((h) => h.rows);
    const del = rows.find((r) => r.kind === "del" && r.text.includes("function sum"));
    const add = rows.find((r) => r.kind === "add" && r.text.includes("function sum"));
    expect([del?.old, del?.new]).toEqual([3, undefined]);
    expect([add?.old, add?.new]).toEqual([undefined, 3]);
    expect(add?.segments?.filter((s) => s.changed).map((s) => s.text).join("")).toContain("z = 0");
    expect(add?.segments?.filter((s) => s.changed).map((s) => s.text).join("")).not.toContain("function");
    // An added line with no removed counterpart has no word marks.
    const lone = rows.find((r) => r.text === "const added = true;");
    expect(lone).toMatchObject({ kind: "add", new: 7 });
    expect(lone?.segments).toBeUndefined();
    const ctx = rows.find((r) => r.text === "const keep = 1;");
    expect(ctx).toMatchObject({ kind: "context", old: 6, new: 6 });
  });

  it("reads the edit tools' patches without their Index/===/---/+++ headers", () => {
    const patch = fileDiff("src/sum.ts", before, after).diff;
    expect(patch).toContain("Index: src/sum.ts");
    const d = diffFromPatch(patch);
    const texts = d.hunks.flatMap((h) => h.rows.map((r) => r.text));
    expect(texts.some((t) => t.includes("Index:") || t.startsWith("===") || t.startsWith("--") || t.startsWith("++"))).toBe(false);
    expect(d).toMatchObject({ additions: 3, deletions: 2 });
    expect(d.hunks[0]?.header).toMatch(/^@@ -1,\d+ \+1,\d+ @@$/);
  });

  it("writes a new file's hunk as unified diffs do (-0,0), in the tool's patch and in the viewer alike", () => {
    const patch = fileDiff("new.txt", "", "one line\n").diff;
    expect(patch).toContain("@@ -0,0 +1,1 @@");
    expect(diffFromPatch(patch).hunks[0]?.header).toBe("@@ -0,0 +1,1 @@");
    expect(diffTexts(undefined, "one line\n").hunks[0]?.header).toBe("@@ -0,0 +1,1 @@");
    expect(diffTexts("gone\n", "").hunks[0]?.header).toBe("@@ -1,1 +0,0 @@");
  });

  it("puts removals beside the additions that replace them, context on both sides", () => {
    const rows = diffTexts("a\nb\nc\nd\n", "a\nB\nc\nd\ne\nf\n").hunks.flatMap((h) => h.rows);
    const split = splitRows(rows);
    expect(split.map((r) => [r.left?.text ?? "", r.right?.text ?? ""])).toEqual([
      ["a", "a"],
      ["b", "B"],
      ["c", "c"],
      ["d", "d"],
      ["", "e"],
      ["", "f"],
    ]);
  });

  it("new and deleted files, CRLF, and unreadable patches", () => {
    expect(diffTexts(undefined, "x\ny\n")).toMatchObject({ additions: 2, deletions: 0 });
    expect(diffTexts("x\n", undefined)).toMatchObject({ additions: 0, deletions: 1 });
    expect(diffTexts("a\r\nb\r\n", "a\nb\n").hunks).toEqual([]);
    expect(diffFromPatch("@@ nonsense")).toMatchObject({ hunks: [] });
  });
});
