/** Inline stylesheet of the HTML export: light and dark through `prefers-color-scheme`. */
export const HTML_EXPORT_CSS = `
:root { color-scheme: light dark; --bg: #ffffff; --fg: #1d1f23; --muted: #6a6f78; --card: #f5f6f8; --line: #dde0e5;
  --user: #eef4ff; --err: #b42318; --ok: #067647; --accent: #3a5ccc; }
@media (prefers-color-scheme: dark) {
  :root { --bg: #15171b; --fg: #e6e8eb; --muted: #9aa0aa; --card: #1f2228; --line: #30343c; --user: #1b2436;
    --err: #f97066; --ok: #47cd89; --accent: #8aa4ff; }
}
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--fg); font: 15px/1.55 system-ui, -apple-system, "Segoe UI", sans-serif; }
header, main, footer { max-width: 860px; margin: 0 auto; padding: 0 20px; }
header { padding-top: 28px; border-bottom: 1px solid var(--line); }
h1 { font-size: 1.5rem; margin: 0 0 6px; overflow-wrap: anywhere; }
h2 { font-size: 1rem; margin: 0 0 4px; }
h3 { font-size: .8rem; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); margin: 10px 0 4px; }
.meta { color: var(--muted); font-size: .85rem; margin: 0 0 10px; }
article { margin: 18px 0; padding: 14px 16px; border: 1px solid var(--line); border-radius: 10px; }
article.user { background: var(--user); }
.text { white-space: pre-wrap; overflow-wrap: anywhere; margin: 8px 0; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; background: var(--card); border: 1px solid var(--line);
  border-radius: 6px; padding: 8px 10px; margin: 4px 0; font: 13px/1.45 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
  max-height: 480px; overflow: auto; }
details { margin: 8px 0; border: 1px solid var(--line); border-radius: 8px; background: var(--card); padding: 6px 10px; }
summary { cursor: pointer; overflow-wrap: anywhere; }
details.reasoning .text { color: var(--muted); font-style: italic; }
.tool-name { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-weight: 600; }
.status { font-size: .8rem; padding: 0 6px; border-radius: 8px; border: 1px solid var(--line); }
/* Tones of core/conversation/tool-outcome.ts: a non-zero exit is a failure, a stopped call neither. */
.status-ok .status { color: var(--ok); }
.status-failure .status, .error { color: var(--err); }
.status-failure .status { border-color: var(--err); }
.status-stopped .status, .status-busy .status { color: var(--muted); }
.file, .note { color: var(--muted); font-size: .9rem; }
img.attachment { max-width: 100%; border-radius: 6px; border: 1px solid var(--line); }
.md { overflow-wrap: anywhere; margin: 8px 0; }
.md > :first-child { margin-top: 0; }
.md h3, .md h4, .md h5, .md h6 { text-transform: none; letter-spacing: normal; color: var(--fg); font-size: 1rem; margin: 14px 0 6px; }
.md h3 { font-size: 1.1rem; }
.md p, .md ul, .md ol, .md blockquote, .md table { margin: 8px 0; }
.md code { font: 13px ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; background: var(--card); border-radius: 4px; padding: 0 3px; }
.md pre code { background: none; padding: 0; }
.md pre { white-space: pre; max-height: none; }
.md blockquote { border-left: 3px solid var(--line); padding-left: 12px; color: var(--muted); }
.md table { border-collapse: collapse; display: block; overflow-x: auto; }
.md th, .md td { border: 1px solid var(--line); padding: 4px 8px; text-align: left; }
.md a { color: var(--accent); }
.md .blocked { color: var(--muted); }
.md img { max-width: 100%; }
footer { color: var(--muted); font-size: .8rem; padding: 24px 20px 40px; }
`;
