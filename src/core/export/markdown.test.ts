import { describe, expect, it } from "vitest";
import { fence, sessionMarkdown } from "./markdown";
import { inertHtml, lowerHeadings } from "./message-markdown";
import { sampleSession } from "./test-helpers";
import type { Nodes } from "mdast";
import { parseMarkdown } from "../util/parse-markdown";

const date = (ms: number) => new Date(ms).toISOString();

describe("sessionMarkdown", () => {
  const s = sampleSession();
  const file = { info: s.session, messages: s.messages };

  it("writes the header, the messages in order and --- separators", () => {
    const md = sessionMarkdown(file, { formatDate: date });
    expect(md.startsWith(`# Fix the add() bug\n\n**Session ID:** ${s.session.id}\n**Created:** 2026-01-01T00:00:00.000Z\n**Updated:** 2026-01-01T00:01:00.000Z\n\n---\n\n## User\n\nWhy does add() fail?\n\n_Attached: shot.png (image/png)_\n\n---\n\n## Assistant (Build · gpt-5 · 2.5s)\n\nRunning the tests.\n\n**Tool: bash** · ✗ exit 1\n\n**Tool: read** · ✗ failed`)).toBe(true);
    expect(md.split("\n---\n").length).toBe(6);
    expect(md).toContain("## User\n\nThanks! Add a test too.");
    expect(md).not.toContain("_Thinking:_");
    expect(md).not.toContain("**Input:**");
    expect(md.endsWith("Done.\n")).toBe(true);
  });

  it("thinking: reasoning as _Thinking:_ blocks", () => {
    expect(sessionMarkdown(file, { thinking: true })).toContain("_Thinking:_\n\nLook at the test first.");
  });

  it("toolDetails: input as json, output and error as code blocks", () => {
    const md = sessionMarkdown(file, { toolDetails: true });
    expect(md).toContain('**Tool: bash** · ✗ exit 1\n\n**Input:**\n\n```json\n{\n  "command": "npm test"\n}\n```\n\n**Output:**\n\n```\n1 failed\n```');
    expect(md).toContain("**Tool: read** · ✗ failed\n\n**Input:**");
    expect(md).toContain("**Error:**\n\n```\nFile not found\n```");
  });

  it("assistantMetadata off: plain headings", () => {
    const md = sessionMarkdown(file, { assistantMetadata: false });
    expect(md).toContain("## Assistant\n\nRunning the tests.");
    expect(md).not.toContain("## Assistant (");
  });

  it("leaves out synthetic text, messages hidden by a revert, and shows message errors", () => {
    const t = sampleSession();
    t.messages[0]?.parts.push({ id: "prt_zz", sessionID: t.session.id, messageID: t.messages[0].info.id, type: "text", text: "SYNTHETIC", synthetic: true });
    const last = t.messages[4];
    if (last?.info.role === "assistant") last.info.error = { name: "APIError", data: { message: "rate limited" } };
    let md = sessionMarkdown({ info: t.session, messages: t.messages });
    expect(md).not.toContain("SYNTHETIC");
    expect(md).toContain("**Error:** rate limited");
    t.session.revert = { messageID: t.messages[2]?.info.id ?? "" };
    md = sessionMarkdown({ info: t.session, messages: t.messages });
    expect(md).not.toContain("Thanks! Add a test too.");
    expect(md).not.toContain("Fixed: it subtracted.");
  });

  it("fences outlast backticks in the content", () => {
    expect(fence("a ```` b")).toBe("`````\na ```` b\n`````");
    expect(fence("x", "json")).toBe("```json\nx\n```");
  });
});

describe("lowerHeadings", () => {
  it("puts a message's top heading at the given level and keeps the rest as written", () => {
    const text = ["# Plan", "", "Steps below.", "", "## Steps #", "", "```md", "# not a heading", "```", "", "Setext", "===", "", "Sub", "---", "", "#hashtag", ""].join("\n");
    expect(lowerHeadings(text, 3)).toBe(["### Plan", "", "Steps below.", "", "#### Steps #", "", "```md", "# not a heading", "```", "", "### Setext", "", "#### Sub", "", "#hashtag", ""].join("\n"));
    // Already low enough, or no headings: untouched (never raised).
    expect(lowerHeadings("### a\n\n#### b", 3)).toBe("### a\n\n#### b");
    expect(lowerHeadings("no headings -- here\n\n---\n", 3)).toBe("no headings -- here\n\n---\n");
    // Past level 6 there is no heading: deeper ones stay at 6.
    expect(lowerHeadings("# a\n\n##### e\n\n###### f", 3)).toBe("### a\n\n###### e\n\n###### f");
    // In a list item and a quote too.
    expect(lowerHeadings("- # item\n\n> ## quoted", 3)).toBe("- ### item\n\n> #### quoted");
    // A setext heading of two lines in a quote: one heading line, the quote's marker not in its text.
    expect(lowerHeadings("> Title\n> more\n> ===", 3)).toBe("> ### Title more");
  });

  it("a transcript's outline holds: an answer's '## Plan' sits under '## Assistant'", () => {
    const t = sampleSession();
    const part = t.messages[2]?.parts[1];
    if (part?.type === "text") part.text = "## Plan\n\nDo it.";
    const md = sessionMarkdown({ info: t.session, messages: t.messages }, { assistantMetadata: false });
    expect(md).toContain("## Assistant\n\n### Plan\n\nDo it.");
    expect(md).not.toContain("\n## Plan");
  });
});

describe("inertHtml: raw HTML from the model reads as text in the Markdown export", () => {
  const hasHtml = (md: string): boolean => {
    const walk = (n: Nodes): boolean => n.type === "html" || ("children" in n && n.children.some((c) => walk(c as Nodes)));
    return walk(parseMarkdown(md));
  };
  const CODE = ["```html", "<div class=\"card\"><img src=x onerror=alert(1)></div>", "```"].join("\n");

  it("escapes raw HTML outside code; code blocks and spans stay byte for byte", () => {
    expect(inertHtml("Hi <script>alert(1)</script> there")).toBe("Hi &lt;script>alert(1)&lt;/script> there");
    expect(inertHtml(`<img src=x onerror="alert(1)">`)).toBe(`&lt;img src=x onerror="alert(1)">`);
    const text = `Markup:\n\n${CODE}\n\nInline \`<div>\` and <div>raw</div>.\n\n    <div>indented code</div>\n`;
    expect(inertHtml(text)).toBe(`Markup:\n\n${CODE}\n\nInline \`<div>\` and &lt;div>raw&lt;/div>.\n\n    <div>indented code</div>\n`);
    // No `<`: the very same string, not parsed.
    expect(inertHtml("a > b")).toBe("a > b");
  });

  it("a backtick inside a tag's attribute cannot re-pair code spans to let HTML through", () => {
    for (const attack of ['a <b title="`">x</b> and `<script>alert(1)</script>` end', '<span title="`"> `<img src=x onerror=alert(1)>`', "`` <i title='`'> `<svg onload=alert(1)>` ``"]) {
      const out = inertHtml(attack);
      expect(hasHtml(out), out).toBe(false);
    }
  });

  it("keeps what is no HTML: comparisons read the same, web autolinks stay links, an escaped `\\<` stays one `<`", () => {
    expect(inertHtml("if a < b")).toBe("if a &lt; b");
    expect(inertHtml("See <https://example.com> or <mailto:a@b.c>.")).toBe("See <https://example.com> or <mailto:a@b.c>.");
    expect(inertHtml("<javascript:alert(1)>")).toBe("&lt;javascript:alert(1)>");
    expect(inertHtml("\\<b> and \\\\<b>")).toBe("&lt;b> and \\\\&lt;b>");
    // An HTML comment and a block are text too.
    expect(inertHtml("<!-- hidden -->\n<details open ontoggle=alert(1)>")).toBe("&lt;!-- hidden -->\n&lt;details open ontoggle=alert(1)>");
  });

  it("a link destination in angle brackets is CommonMark, not HTML: it comes out without its brackets, the same link", () => {
    // The destinations as a browser follows them (CommonMark percent-encodes what a bare destination cannot hold).
    const links = (md: string) => {
      const out: string[] = [];
      const walk = (n: Nodes) => {
        if (n.type === "link" || n.type === "image" || n.type === "definition") out.push(`${n.type} ${decodeURIComponent(n.url)}`);
        if ("children" in n) for (const c of n.children) walk(c as Nodes);
      };
      walk(parseMarkdown(md));
      return out;
    };
    for (const text of [
      "See [the notes](<My Notes.md>) and [x](<https://example.com/a b?q=1>).",
      '![chart](<img/a chart.png> "A <b>chart</b>")',
      "[docs][d]\n\n[d]: <https://example.com/docs (v2)>",
      "A [link](<#top>) and <b>bold</b>.",
      "[odd](<a\\>b\\<c>)",
    ]) {
      const out = inertHtml(text);
      expect(links(out), out).toEqual(links(text));
      expect(hasHtml(out), out).toBe(false);
      expect(out, text).not.toMatch(/<[^\s]/);
    }
    expect(inertHtml("See [the notes](<My Notes.md>).")).toBe("See [the notes](My%20Notes.md).");
    expect(inertHtml("[x](<https://example.com/a b?q=1>)")).toBe("[x](https://example.com/a%20b?q=1)");
    expect(inertHtml("[docs][d]\n\n[d]: <https://example.com/docs (v2)>")).toBe("[docs][d]\n\n[d]: https://example.com/docs%20%28v2%29");
    // The raw HTML beside it is still text.
    expect(inertHtml("A [link](<#top>) and <b>bold</b>.")).toBe("A [link](#top) and &lt;b>bold&lt;/b>.");
  });

  it("no destination, autolink or stray `<` opens an element for a renderer without CommonMark", () => {
    for (const attack of [
      "[x](<svg/onload=alert(1)>)",
      "[x](<img src=x onerror=alert(1)>)",
      "[x](<https://e.com/onmouseover=alert(1)>)",
      "[x]: <iframe src=javascript:alert(1)>",
      // No tag needs a `=` to run script: <script …> and the raw-text elements.
      "[a](<script \\>alert(1)//>) `</script>`",
      "[a](<script>)alert(1)[b](</script>)",
      "[a](<style>)",
      "[d]: <script \\>alert(1)//>",
      "[x](<textarea>)",
      "[x](<plaintext>)",
      // Autolinks whose `/` or quotes would start an attribute of a tag `<https:`.
      '<https://e.com/?a="x"onmouseover=alert(1)>',
      "<https://e.com/onmouseover=alert(1)>",
      "<http://e.com/STYLE=x>",
    ]) {
      const out = inertHtml(attack);
      expect(out, attack).not.toMatch(/<[a-z]/i);
      expect(hasHtml(out), out).toBe(false);
    }
    // Not a destination (a space between `]` and `(`, a nested link's outer one): the `<` is HTML's, so escaped.
    expect(inertHtml("[x] (<b>)")).toBe("[x] (&lt;b>)");
    expect(inertHtml("[a [b](<c.md>)](<d onclick=x>)")).toBe("[a [b](c.md)](&lt;d onclick=x>)");
  });

  it("autolinks: web and mail addresses stay links (CommonMark's, no HTML); other schemes are text", () => {
    expect(inertHtml("Write to <someone@example.com> or see <HTTPS://example.com/a?b=c>.")).toBe("Write to <someone@example.com> or see <HTTPS://example.com/a?b=c>.");
    expect(inertHtml("<irc://example.com/chan> <data:text/html,x>")).toBe("&lt;irc://example.com/chan> &lt;data:text/html,x>");
  });

  it("the transcript holds no live tag from an answer, its reasoning, names or errors; tool output stays in its fence", () => {
    const t = sampleSession({ title: "<img src=x onerror=alert(1)>" });
    for (const m of t.messages)
      for (const p of m.parts) {
        if (p.type === "text") p.text = `Answer <script>alert(1)</script> <img src=x onerror=alert(2)>\n\n${CODE}`;
        if (p.type === "reasoning") p.text = "<iframe src=javascript:alert(3)>";
        if (p.type === "tool" && p.state.status === "completed") p.state.output = "<div>out</div>";
      }
    const last = t.messages[4];
    if (last?.info.role === "assistant") last.info.error = { name: "APIError", data: { message: "<html><body>502</body></html>" } };
    const md = sessionMarkdown({ info: t.session, messages: t.messages }, { thinking: true, toolDetails: true });
    const outsideCode = md.replace(/^(`{3,})[^\n]*\n[\s\S]*?\n\1$/gm, "");
    expect(outsideCode).not.toMatch(/<(?:script|img|iframe|html|div)/i);
    expect(md).toContain("# &lt;img src=x onerror=alert(1)>");
    expect(md).toContain("Answer &lt;script>alert(1)&lt;/script> &lt;img src=x onerror=alert(2)>");
    expect(md).toContain(CODE);
    expect(md).toContain("**Output:**\n\n```\n<div>out</div>\n```");
    expect(md).toContain("**Error:** &lt;html>&lt;body>502&lt;/body>&lt;/html>");
  });
});
