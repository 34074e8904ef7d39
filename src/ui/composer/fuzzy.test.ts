import { describe, expect, it } from "vitest";
import { fuzzyFilter, fuzzyScore } from "./fuzzy";
import { mentionAt } from "./mention-at";

const PATHS = ["README.md", "src/app.ts", "src/app.test.ts", "src/components/app-shell.tsx", "src/utils/parse.ts", "docs/api.md", "package.json"];

describe("fuzzy path filter", () => {
  it("keeps paths with the query's characters in order, case-insensitive", () => {
    expect(fuzzyScore("src/app.ts", "SAT")).toBeDefined();
    expect(fuzzyScore("src/app.ts", "tas")).toBeUndefined();
    expect(fuzzyFilter(PATHS, "zzz")).toEqual([]);
  });
  it("ranks file-name and word-start matches first, shorter paths on ties", () => {
    expect(fuzzyFilter(PATHS, "app")[0]).toBe("src/app.ts");
    expect(fuzzyFilter(PATHS, "parse")[0]).toBe("src/utils/parse.ts");
    expect(fuzzyFilter(PATHS, "pkg")).toEqual(["package.json"]);
    expect(fuzzyFilter(PATHS, "rdme")[0]).toBe("README.md");
  });
  it("an empty query lists paths (shortest first), up to the limit", () => {
    expect(fuzzyFilter(PATHS, "", 3)).toEqual(["README.md", "src/app.ts", "docs/api.md"]);
  });
});

describe("the @ mention being typed", () => {
  it("is found at the start or after a space, up to the caret", () => {
    expect(mentionAt("@src", 4)).toEqual({ start: 0, query: "src" });
    expect(mentionAt("look at @ap", 11)).toEqual({ start: 8, query: "ap" });
    expect(mentionAt("look at @", 9)).toEqual({ start: 8, query: "" });
  });
  it("is not an e-mail address, a finished mention or text after the caret", () => {
    expect(mentionAt("me@example.com", 14)).toBeUndefined();
    expect(mentionAt("@src/app.ts and", 15)).toBeUndefined();
    expect(mentionAt("@src more", 2)).toEqual({ start: 0, query: "s" });
  });
});
