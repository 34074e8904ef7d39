import { describe, expect, it } from "vitest";
import { escapeRegex, MAX_PATTERN_LENGTH, safeRegex } from "./safe-regex";

describe("safeRegex", () => {
  it("builds a regex with flags", () => {
    const r = safeRegex("foo\\d+", "i");
    expect(r.ok && r.regex.test("FOO12")).toBe(true);
    expect(r.ok && r.regex.flags).toBe("i");
  });

  it("accepts a leading inline flag group", () => {
    const r = safeRegex("(?i)hello");
    expect(r.ok && r.regex.test("HeLLo")).toBe(true);
  });

  it("turns syntax errors into readable messages", () => {
    const r = safeRegex("foo(");
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatch(/^Invalid regex "foo\(":/);
  });

  it("refuses too long patterns, empty ones and unknown flags", () => {
    expect(safeRegex("a".repeat(MAX_PATTERN_LENGTH + 1)).ok).toBe(false);
    expect(safeRegex("").ok).toBe(false);
    expect(safeRegex("a", "g").ok).toBe(false);
  });

  it("refuses nested quantifiers", () => {
    for (const p of ["(a+)+$", "(\\w*)*x", "(x+){2,}"]) expect(safeRegex(p).ok).toBe(false);
    expect(safeRegex("(ab)+c").ok).toBe(true);
    expect(safeRegex("\\(a+\\)+").ok).toBe(true);
  });

  it("escapes literal text", () => {
    const r = safeRegex(escapeRegex("a.b*(c)"));
    expect(r.ok && r.regex.test("a.b*(c)")).toBe(true);
    expect(r.ok && r.regex.test("aXbb(c)")).toBe(false);
  });
});
