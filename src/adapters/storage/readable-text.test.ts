import { describe, expect, it } from "vitest";
import { openFence, readableAround } from "./readable-text";

describe("readable text for search snippets", () => {
  it("reads markdown as it is shown: no marks, link targets, fences or table rules; code and angle brackets intact", () => {
    const md = [
      "## Fix the parser",
      "",
      "The **bug** is in `parse_csv_line` (see [the docs](https://example.com/docs)).",
      "",
      "| name | value |",
      "|---|---|",
      "| `__init__` | a < b and c > d |",
      "",
      "```ts",
      "const rows: Array<string> = [];",
      "```",
      "- one",
      "- two",
      "> quoted",
    ].join("\n");
    expect(readableAround(md, 0)).toBe(
      "Fix the parser · The bug is in parse_csv_line (see the docs). · name · value · __init__ · a < b and c > d · const rows: Array<string> = []; · one · two · quoted",
    );
  });

  it("parses only a window around the match of a long answer, as code when the window starts inside a fence", () => {
    const filler = Array.from({ length: 200 }, (_, i) => `Paragraph ${i} with **bold** words.`).join("\n\n");
    const code = ["```python", ...Array.from({ length: 120 }, (_, i) => `# comment ${i}: x = ${i}`), "```"].join("\n");
    const md = `${filler}\n\n${code}\n\nThe end.`;
    const at = md.indexOf("# comment 100");
    const text = readableAround(md, at);
    expect(text).toContain("# comment 100: x = 100");
    expect(text).not.toContain("Paragraph 0 ");
    expect(text.length).toBeLessThan(3_500);
    const bold = readableAround(md, md.indexOf("Paragraph 150"));
    expect(bold).toContain("Paragraph 150 with bold words.");
    expect(bold).not.toContain("**");
  });

  it("follows code fences as markdown does: a fence closes with the same character, as long or longer", () => {
    expect(openFence("```python\nx = 1\n```\n")).toBeUndefined();
    expect(openFence("````md\nan inner ```python fence\n```\nstill code")).toBe("````");
    expect(openFence("~~~\n```\n")).toBe("~~~");
    expect(openFence("~~~\n```\n~~~\n")).toBeUndefined();
    // Inline code with three backticks is no fence; an indented block of four spaces neither.
    expect(openFence("use ```a``` here\n    ```\n")).toBeUndefined();
    expect(openFence("``` js `x`\n")).toBeUndefined();
    // A window that starts inside a tilde fence reads as code.
    const md = `${"Intro line.\n\n".repeat(200)}~~~\n${Array.from({ length: 150 }, (_, i) => `**not bold ${i}**`).join("\n")}\n~~~\n`;
    expect(readableAround(md, md.indexOf("**not bold 120**"))).toContain("**not bold 120**");
  });
});
