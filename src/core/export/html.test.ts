import { describe, expect, it } from "vitest";
import { escapeHtml, sessionHtml } from "./html";
import { sampleSession } from "./test-helpers";

const SCRIPT = "<script>alert(1)</script>";
const IMG = `<img src=x onerror="alert(1)">`;
const EVIL = `${SCRIPT}${IMG}</pre></details><style>*{display:none}</style>`;

function poisoned() {
  const s = sampleSession({ title: EVIL });
  for (const m of s.messages) {
    if (m.info.role === "assistant") {
      m.info.modelID = EVIL;
      m.info.agent = EVIL;
    }
    for (const p of m.parts) {
      if (p.type === "text" || p.type === "reasoning") p.text = `hello ${EVIL}`;
      if (p.type === "file") p.filename = EVIL;
      if (p.type === "patch") p.files = [EVIL];
      if (p.type === "tool") {
        p.tool = EVIL;
        p.state.input = { [EVIL]: EVIL };
        if (p.state.status === "completed") {
          p.state.output = EVIL;
          p.state.title = EVIL;
          p.state.attachments = [{ mime: "image/svg+xml", filename: EVIL, url: `data:image/svg+xml,${encodeURIComponent(`<svg onload="alert(1)">`)}` }];
        }
        if (p.state.status === "error") p.state.error = EVIL;
      }
    }
  }
  const last = s.messages[4];
  if (last?.info.role === "assistant") last.info.error = { name: "APIError", data: { message: EVIL } };
  return s;
}

describe("sessionHtml", () => {
  it("escapes every piece of content: no script, no image or markup from content", () => {
    const s = poisoned();
    const html = sessionHtml({ info: s.session, messages: s.messages });
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/<style>\*/);
    expect(html).not.toMatch(/<svg/i);
    // The only <img> is our own, for the safe inline PNG the user attached.
    const imgs = html.match(/<img[^>]*>/g) ?? [];
    expect(imgs).toEqual([`<img class="attachment" alt="${escapeHtml(EVIL)}" src="data:image/png;base64,iVBORw0KGgo=">`]);
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=&quot;alert(1)&quot;&gt;");
    expect(html).toContain(`<title>${escapeHtml(EVIL)}</title>`);
    // Document structure is intact: every tool card is closed by us, not by content.
    expect(html.match(/<details class="tool/g)?.length).toBe(2);
    expect(html.match(/<\/details>/g)?.length).toBe(3); // two tools + one reasoning
  });

  it("is self-contained: inline CSS with light and dark schemes, a CSP that forbids scripts", () => {
    const s = sampleSession();
    const html = sessionHtml({ info: s.session, messages: s.messages });
    expect(html.startsWith("<!doctype html>")).toBe(true);
    expect(html).toContain("@media (prefers-color-scheme: dark)");
    expect(html).toContain(`content="default-src 'none'; style-src 'unsafe-inline'; img-src data:"`);
    expect(html).not.toMatch(/<link|<script|src="http|href="http/i);
  });

  it("says which steps had no known price instead of passing the rest off as the whole cost", () => {
    const s = sampleSession();
    // The last answer ran on a model with no known price: its step cost nothing known.
    const messages = s.messages.map((m, i) =>
      i === s.messages.length - 1 ? { ...m, parts: m.parts.map((p) => (p.type === "step-finish" ? { ...p, cost: 0, priceUnknown: true } : p)) } : m,
    );
    const html = sessionHtml({ info: s.session, messages }, { formatDate: () => "D" });
    expect(html).toContain("200 out · $0.03, not counting 1 step on a model with no known price");
    expect(html).toContain("50 in · 10 out · price unknown (1 step on a model with no known price)");
  });

  it("shows tool cards with input and output, usage and cost per message", () => {
    const s = sampleSession();
    const html = sessionHtml({ info: s.session, messages: s.messages }, { formatDate: () => "D" });
    expect(html).toContain(
      '<details class="tool status-failure"><summary><span class="tool-name">bash</span> npm test <span class="status">exit 1</span></summary><h3>Input</h3><pre>{\n  &quot;command&quot;: &quot;npm test&quot;\n}</pre><h3>Output</h3><pre>1 failed</pre></details>',
    );
    expect(html).toContain('<details class="tool status-failure"><summary><span class="tool-name">read</span> <span class="status">failed</span></summary><h3>Input</h3>');
    expect(html).toContain('<h3>Error</h3><pre class="error">File not found</pre>');
    expect(html).toContain("build · openai/gpt-5 · 2.5s · 1,000 in · 100 out · 50 reasoning · cache 200 read / 0 write · $0.01");
    expect(html).toContain("300 in · 40 out · $0.02");
    expect(html).toContain("1,550 tokens in · 200 out · $0.035");
    expect(html).toContain('<details class="reasoning"><summary>Thinking</summary>');
    expect(sessionHtml({ info: s.session, messages: s.messages }, { thinking: false })).not.toContain("Thinking");
  });

  it("says how each call ended as the app's tool card does: exit code in red, stopped, timed out", () => {
    const s = sampleSession();
    const parts = s.messages[1]?.parts ?? [];
    const bash = parts.find((p) => p.type === "tool" && p.tool === "bash");
    if (bash?.type !== "tool" || bash.state.status !== "completed") throw new Error("sample changed");
    const withMeta = (metadata: Record<string, unknown>) => {
      bash.state = { ...(bash.state as Extract<typeof bash.state, { status: "completed" }>), metadata };
      return sessionHtml({ info: s.session, messages: s.messages });
    };
    expect(withMeta({ exit: 1 })).toContain('<details class="tool status-failure"><summary><span class="tool-name">bash</span> npm test <span class="status">exit 1</span>');
    expect(withMeta({ exit: 124, timedOut: true })).toContain('<details class="tool status-failure"><summary><span class="tool-name">bash</span> npm test <span class="status">timed out</span>');
    expect(withMeta({ exit: 130, aborted: true })).toContain('<details class="tool status-stopped"><summary><span class="tool-name">bash</span> npm test <span class="status">stopped</span>');
    expect(withMeta({ exit: 0 })).toContain('<details class="tool status-ok"><summary><span class="tool-name">bash</span> npm test <span class="status">done</span>');
    // The failure's colour is the page's error colour.
    expect(withMeta({ exit: 1 })).toMatch(/\.status-failure \.status, \.error \{ color: var\(--err\); \}/);
  });

  it("renders an answer's markdown as the app shows it: raw HTML as text, no unsafe link, no remote image, headings under the message's", () => {
    const s = sampleSession();
    const t = s.messages[2]?.parts[1];
    if (t?.type !== "text" || s.messages[2]?.info.role !== "assistant") throw new Error("fixture: message 2 is an answer with text");
    t.text = [
      "# Plan",
      "",
      "**bold** and `a < b` [docs](https://example.com/docs) [bad](javascript:alert(1)) <b>x</b> <img src=x onerror=alert(1)>",
      "",
      "## Steps",
      "",
      "| a | b |",
      "|---|---|",
      "| 1 | 2 |",
      "",
      "- [x] done",
      "",
      "```ts",
      "const x = 1 < 2;",
      "```",
      "",
      "![tracker](https://evil.example/pixel.png) ![dot](data:image/png;base64,iVBORw0KGgo=)",
      "",
      "Note[^1].",
      "",
      "[^1]: A footnote.",
    ].join("\n");
    const html = sessionHtml({ info: s.session, messages: s.messages });
    const start = html.indexOf("<article", html.indexOf("Running the tests."));
    const body = html.slice(html.indexOf(`<div class="md">`, start), html.indexOf("</article>", start));
    // The answer's "# Plan" sits under the message's own <h2>.
    expect(body).toContain("<h3>Plan</h3>");
    expect(body).toContain("<h4>Steps</h4>");
    expect(body).not.toMatch(/<h[12][ >]/);
    expect(body).toContain("<strong>bold</strong>");
    expect(body).toContain("<code>a &#x3C; b</code>");
    expect(body).toContain('<a href="https://example.com/docs" rel="noopener noreferrer nofollow">docs</a>');
    expect(body).toContain('<span class="blocked" title="Link removed: it was not a web address">bad</span>');
    expect(body).not.toContain("javascript:");
    // Raw HTML reads as typed.
    expect(body).toContain("&#x3C;b>x&#x3C;/b>");
    expect(body).toContain("&#x3C;img src=x onerror=alert(1)>");
    expect(body).not.toMatch(/<b>|<img src="?x/);
    expect(body).toContain("<table>");
    expect(body).toContain("<td>2</td>");
    expect(body).toContain('<input type="checkbox" checked disabled>');
    expect(body).toContain('<pre><code class="language-ts">const x = 1 &#x3C; 2;\n</code></pre>');
    // A remote image is never loaded; an inline one is shown.
    expect(body).not.toContain("<img src=\"https://");
    expect(body).toContain("[image: tracker — https://evil.example/pixel.png]");
    expect(body).toContain('<img src="data:image/png;base64,iVBORw0KGgo=" alt="dot">');
    // Footnote ids carry the part's id, so two answers' footnotes never share one.
    expect(body).toContain(`href="#${t.id}-fn-1"`);
    expect(body).toContain(`id="${t.id}-fn-1"`);
    expect(body).toContain(`<h3 id="${t.id}-footnote-label">Footnotes</h3>`);
    expect(body).toContain(`aria-describedby="${t.id}-footnote-label"`);
    expect(body).not.toContain('"footnote-label"');
    // What a person typed is shown as typed.
    const u = s.messages[0]?.parts[0];
    if (u?.type === "text") {
      u.text = "# not a heading here **x**";
      expect(sessionHtml({ info: s.session, messages: s.messages })).toContain('<div class="text"># not a heading here **x**</div>');
    }
  });
});
