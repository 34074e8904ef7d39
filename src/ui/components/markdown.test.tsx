import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { healReady, Markdown } from "./markdown";

const html = (text: string, streaming = false) => renderToStaticMarkup(<Markdown text={text} streaming={streaming} />);

describe("Markdown (untrusted model text)", () => {
  it("shows raw HTML as literal text, never as HTML", () => {
    const out = html("It returns `x` as Promise<void> and wraps it in <div class=x>here</div>.\n\n<script>alert(1)</script>\n\nafter");
    expect(out).toContain("Promise&lt;void&gt;");
    expect(out).toContain("&lt;div class=x&gt;here&lt;/div&gt;");
    expect(out).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(out).not.toMatch(/<div class=x|<script|<void/);
    expect(out).toContain("after");
  });

  it("renders a javascript: link as plain text that opens nothing", () => {
    const out = html("[click me](javascript:alert(1)) and [ok](https://example.com/a)");
    expect(out).not.toContain("javascript:");
    expect(out).toMatch(/<span class="blocked-link"[^>]*>click me<\/span>/);
    expect(out).toContain('href="https://example.com/a"');
    expect(out.match(/<a /g)).toHaveLength(1);
  });

  it("mid-stream: an unfinished **bold** shows as bold, not as asterisks", async () => {
    await healReady;
    const out = html("First block.\n\nThis is **almost bold", true);
    expect(out).toContain("<strong>almost bold</strong>");
    expect(out).not.toContain("**");
    // Finished text is rendered as written.
    expect(html("plain **x")).toContain("**x");
  });

  it("finished text is one document: a reference link resolves across blocks (parsed block by block it did not)", () => {
    const out = html("See [the docs][d].\n\nMore text.\n\n[d]: https://example.com/docs");
    expect(out).toContain('<a href="https://example.com/docs"');
    expect(out).not.toContain("[the docs]");
  });

  it("a table sits in a focusable box that scrolls sideways (a wide table on a phone is not cut off)", () => {
    const out = html("| file | change |\n|---|---|\n| a.ts | b |");
    expect(out).toMatch(/<section class="table-scroll" aria-label="Table \(scrolls sideways\)" tabindex="0"><table><thead>/);
    expect(out).toContain("<td>a.ts</td>");
  });

  it("code blocks carry a language label, a copy button and a wrap toggle", () => {
    const out = html("```ts\nconst a: Promise<void> = f();\n```");
    expect(out).toContain('class="code-lang">ts<');
    expect(out).toContain('aria-label="Copy ts code"');
    expect(out).toContain('aria-pressed="false"');
    expect(out).toContain("Promise&lt;void&gt;");
  });
});
