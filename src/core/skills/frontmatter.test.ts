import { describe, expect, it } from "vitest";
import { parseFrontmatter } from "./frontmatter";

function data(src: string) {
  const r = parseFrontmatter(src);
  if (!r.ok) throw new Error(r.error);
  return r.data;
}

describe("parseFrontmatter", () => {
  it("splits frontmatter and body", () => {
    expect(parseFrontmatter("---\nname: pdf\ndescription: Work with PDFs\n---\n# Body\ntext\n")).toEqual({
      ok: true,
      data: { name: "pdf", description: "Work with PDFs" },
      body: "# Body\ntext\n",
    });
  });

  it("handles CRLF, a BOM and comments", () => {
    expect(data("\uFEFF---\r\n# a comment\r\nname: x # trailing\r\n---\r\nbody")).toEqual({ name: "x" });
  });

  it("reads quoted strings", () => {
    expect(data(`---\na: "say \\"hi\\"\\n"\nb: 'it''s: fine'\nc: "colon: # not a comment"\n---\n`)).toEqual({
      a: 'say "hi"\n',
      b: "it's: fine",
      c: "colon: # not a comment",
    });
  });

  it("reads multi-line quoted and plain scalars by folding lines", () => {
    expect(data("---\na: \"first\n  second\"\nb: plain\n  continued here\n---\n")).toEqual({ a: "first second", b: "plain continued here" });
  });

  it("reads folded and literal block scalars with chomping", () => {
    const src = "---\nfold: >\n  one\n  two\n\n  three\nlit: |\n  line 1\n    indented\nstrip: >-\n  x\n  y\nkeep: |+\n  k\nafter: ok\n---\n";
    expect(data(src)).toEqual({
      fold: "one two\nthree\n",
      lit: "line 1\n  indented\n",
      strip: "x y",
      keep: "k\n",
      after: "ok",
    });
  });

  it("reads nested maps and lists", () => {
    expect(data("---\nmetadata:\n  author: me\n  version: '1'\ntags:\n  - a\n  - b # c\n---\n")).toEqual({
      metadata: { author: "me", version: "1" },
      tags: ["a", "b"],
    });
  });

  it("accepts empty frontmatter", () => {
    expect(data("---\n---\nbody")).toEqual({});
  });

  it.each([
    ["no frontmatter", "# Just markdown", /missing frontmatter/],
    ["unclosed", "---\nname: x\n", /unclosed frontmatter/],
    ["unclosed quote", '---\nname: "x\n---\n', /unclosed quoted value/],
    ["junk line", "---\nname: x\njust text\n---\n", /not a "key: value"/],
    ["duplicate key", "---\nname: a\nname: b\n---\n", /duplicate key "name"/],
    ["text after quote", "---\nname: 'a' b\n---\n", /unexpected text/],
    ["a huge block", `---\ndescription: "${"x ".repeat(10_000)}\n${"y\n".repeat(5_000)}---\n`, /larger than 16 KB/],
    ["prototype key", "---\n__proto__:\n  x: y\n---\n", /unsupported key/],
  ])("reports %s as an error value", (_, src, msg) => {
    const r = parseFrontmatter(src);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatch(msg);
  });
});
