import { describe, expect, it } from "vitest";
import {
  BlockAnchorReplacer,
  ContextAwareReplacer,
  EscapeNormalizedReplacer,
  IndentationFlexibleReplacer,
  LineTrimmedReplacer,
  levenshtein,
  multipleMatchesError,
  NOT_FOUND_ERROR,
  type Replacer,
  replace,
  TrimmedBoundaryReplacer,
  WhitespaceNormalizedReplacer,
} from "./replacers";

const all = (r: Replacer, content: string, find: string) => [...r(content, find)];

function ok(content: string, oldString: string, newString: string, replaceAll = false): string {
  const r = replace(content, oldString, newString, replaceAll);
  if (!r.ok) throw new Error(r.error);
  return r.content;
}

describe("replace", () => {
  it("replaces a unique exact match", () => {
    expect(ok("a\nb\nc\n", "b", "B")).toBe("a\nB\nc\n");
  });

  it("refuses identical strings", () => {
    expect(replace("x", "x", "x")).toEqual({ ok: false, error: "No changes to apply: oldString and newString are identical." });
  });

  it("reports not found and multiple matches", () => {
    expect(replace("abc", "zzz", "y")).toEqual({ ok: false, error: NOT_FOUND_ERROR });
    expect(replace("x = 1\nx = 1\n", "x = 1", "x = 2")).toEqual({ ok: false, error: multipleMatchesError("x = 1\nx = 1\n", [0, 6]) });
    expect(multipleMatchesError("x = 1\nx = 1\n", [0, 6])).toBe(
      "Found 2 matches for oldString (starting on lines 1, 2). Provide more surrounding lines in oldString to identify the correct match, or set replaceAll to change every occurrence.",
    );
  });

  it("replaces every occurrence with replaceAll, literally (no $ patterns)", () => {
    expect(ok("a.a.a", "a", "$&-$1", true)).toBe("$&-$1.$&-$1.$&-$1");
  });

  it("matches lines whose surrounding whitespace differs", () => {
    const content = "function f() {\n    foo();\n    bar();\n}\n";
    expect(ok(content, "foo();\nbar();", "    baz();")).toBe("function f() {\n    baz();\n}\n");
  });

  it("matches with flexible indentation", () => {
    const content = "class A {\n    if (x) {\n        go();\n    }\n}\n";
    const find = "if (x) {\n    go();\n}";
    expect(all(IndentationFlexibleReplacer, content, find)).toEqual(["    if (x) {\n        go();\n    }"]);
    expect(ok(content, find, "    stop();")).toBe("class A {\n    stop();\n}\n");
  });

  it("matches collapsed whitespace inside a line", () => {
    const content = "let total  =   a +  b;\n";
    expect(all(WhitespaceNormalizedReplacer, content, "total = a + b")).toEqual(["total  =   a +  b"]);
    expect(ok(content, "let total = a + b;", "let total = a - b;")).toBe("let total = a - b;\n");
  });

  it("matches a block by its anchors when the middle differs a little", () => {
    const content = "start();\nconst value = computeThing(1);\nend();\nother();\n";
    const find = "start();\nconst value = computeThings(1);\nend();";
    expect(all(BlockAnchorReplacer, content, find)).toEqual(["start();\nconst value = computeThing(1);\nend();"]);
    expect(ok(content, find, "replaced();")).toBe("replaced();\nother();\n");
  });

  it("picks the most similar anchored block among several, above the threshold", () => {
    const content = "begin\nalpha one\nend\nbegin\nzzzzzzzzz\nend\n";
    expect(all(BlockAnchorReplacer, content, "begin\nalpha 1\nend")).toEqual(["begin\nalpha one\nend"]);
    expect(all(BlockAnchorReplacer, "begin\nqqq\nend\nbegin\nwww\nend\n", "begin\nalpha beta gamma\nend")).toEqual([]);
  });

  it("unescapes escaped newlines and quotes", () => {
    const content = 'say("hi")\nnext\n';
    expect(all(EscapeNormalizedReplacer, content, 'say(\\"hi\\")\\nnext')).toContain('say("hi")\nnext');
    expect(ok(content, 'say(\\"hi\\")', 'say("bye")')).toBe('say("bye")\nnext\n');
  });

  it("trims surrounding blank lines of the search", () => {
    expect(all(TrimmedBoundaryReplacer, "a\nfoo bar\nb", "\n  foo bar  \n")).toContain("foo bar");
    expect(ok("a\nfoo bar\nb", "\n\nfoo bar\n\n", "X")).toBe("a\nX\nb");
  });

  it("matches by context when at least half the middle lines agree", () => {
    const content = "head\none\ntwo\nCHANGED\ntail\n";
    expect(all(ContextAwareReplacer, content, "head\none\ntwo\nthree\ntail")).toEqual(["head\none\ntwo\nCHANGED\ntail"]);
    expect(all(ContextAwareReplacer, content, "head\nx\ny\nz\ntail")).toEqual([]);
  });

  it("keeps a trailing newline of the matched block when the search has one", () => {
    expect(all(LineTrimmedReplacer, "  a\n  b\nc\n", "a\nb\n")).toEqual(["  a\n  b\n"]);
  });

  it("matches a block whose lines are unique once trimmed", () => {
    const content = "x();\nfoo();\n  y();\n  foo();\n";
    expect(ok(content, "y();\nfoo();", "z();")).toBe("x();\nfoo();\nz();\n");
  });

  it("stops at the first stage that matches more than once (no looser unique match)", () => {
    // Exact "foo();" occurs twice; the trimmed-line stage would find "  foo();" alone.
    expect(replace("  foo();\nfoo();  \n", "foo();", "x")).toMatchObject({ ok: false, error: expect.stringMatching(/^Found 2 matches for oldString \(starting on lines 1, 2\)/) });
    // Two trimmed-line matches: the whitespace stage must not pick one of them.
    expect(replace("  b c\nb c  \n", "\tb c", "x")).toMatchObject({ ok: false, error: expect.stringMatching(/^Found 2 matches for oldString \(starting on lines 1, 2\)/) });
  });

  it("rejects an anchored block whose middle does not resemble oldString", () => {
    const content = "function f() {\n  const total = items.reduce((a, b) => a + b, 0);\n  log(total);\n  return total;\n}\n";
    const find = "function f() {\n  await sendEmailToEveryone();\n}";
    expect(all(BlockAnchorReplacer, content, find)).toEqual([]);
    expect(replace(content, find, "function f() {}")).toEqual({ ok: false, error: NOT_FOUND_ERROR });
  });

  it("needs three lines for a block anchor, even with a trailing newline", () => {
    expect(all(BlockAnchorReplacer, "if (a) {\n  one();\n  two();\n}\n", "if (a) {\n}\n")).toEqual([]);
  });

  it("rejects a match spanning far more text than oldString", () => {
    const body = Array.from({ length: 30 }, (_, i) => `  step${i}();`).join("\n");
    const content = `function run() {\n${body}\n}\n`;
    // Anchors match; the one middle line resembles one of 30 lines of the real block.
    const find = "function run() {\n  step1();\n}";
    expect(all(BlockAnchorReplacer, content, find)).toEqual([]);
    const r = replace(content, find, "function run() {}");
    expect(r.ok).toBe(false);
  });

  it("finds an anchored block when an inner line repeats the closing anchor", () => {
    const content = "function a() {\n  if (x) {\n    go();\n  }\n  done();\n}\n";
    const find = "function a() {\n  if (x) {\n    go();\n  }\n  done(1);\n}";
    expect(ok(content, find, "B")).toBe("B\n");
  });

  it("computes edit distance", () => {
    expect(levenshtein("kitten", "sitting")).toBe(3);
    expect(levenshtein("", "abc")).toBe(3);
    expect(levenshtein("same", "same")).toBe(0);
  });
});
