import { describe, expect, it } from "vitest";
import { splitBlocks } from "./blocks";

describe("splitBlocks", () => {
  it("splits paragraphs at blank lines once the next block has started", () => {
    expect(splitBlocks("one\n\ntwo")).toEqual({ done: ["one"], open: "two" });
    // The next line has not arrived: the first block stays open (it could be continued).
    expect(splitBlocks("one\n\n")).toEqual({ done: [], open: "one\n\n" });
  });

  it("never splits inside fenced code, even at blank lines", () => {
    const md = "```ts\nconst a = 1;\n\nconst b = 2;\n```\n\nafter";
    expect(splitBlocks(md)).toEqual({ done: ["```ts\nconst a = 1;\n\nconst b = 2;\n```"], open: "after" });
    expect(splitBlocks("~~~~\nx\n\n~~~\ny")).toEqual({ done: [], open: "~~~~\nx\n\n~~~\ny" });
  });

  it("keeps loose lists and indented continuations together", () => {
    const md = "1. one\n\n2. two\n\n   more of two\n\npara";
    expect(splitBlocks(md)).toEqual({ done: ["1. one\n\n2. two\n\n   more of two"], open: "para" });
  });

  it("rejoins to the original text (nothing lost but blank lines between blocks)", () => {
    const md = "# Title\n\nSome *text*.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n- x\n- y\n\n```\ncode\n```\n\nend";
    const { done, open } = splitBlocks(md);
    expect(done).toHaveLength(5);
    expect([...done, open].join("\n\n")).toBe(md);
  });

  it("a block reported done never changes as more text streams in", () => {
    const md = "alpha **bold**\n\n```js\nlet x\n\nlet y\n```\n\n- a\n\n- b\n\nomega and more words";
    const seen = new Map<number, string>();
    for (let n = 1; n <= md.length; n++) {
      const { done } = splitBlocks(md.slice(0, n));
      done.forEach((b, i) => {
        const before = seen.get(i);
        if (before !== undefined) expect(b).toBe(before);
        seen.set(i, b);
      });
    }
    expect([...seen.values()]).toEqual(["alpha **bold**", "```js\nlet x\n\nlet y\n```", "- a\n\n- b"]);
  });
});
