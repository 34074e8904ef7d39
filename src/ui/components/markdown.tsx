import { memo, useRef } from "react";
import ReactMarkdown, { type Components } from "react-markdown";
import remarkGfm from "remark-gfm";
import { splitBlocks } from "../markdown/blocks";
import { CodeBlock } from "../markdown/code-block";
import { remarkLiteralHtml } from "../markdown/literal-html";

/** Only inline raster images are shown; anything else would make the browser call a URL chosen by the model. */
const SAFE_IMAGE = /^data:image\/(png|jpe?g|gif|webp);base64,/i;

interface HastText {
  type: string;
  value?: string;
  tagName?: string;
  properties?: { className?: unknown };
  children?: HastText[];
}
const textOf = (n: HastText): string => (n.type === "text" ? (n.value ?? "") : (n.children ?? []).map(textOf).join(""));

function components(highlight: boolean): Components {
  return {
    a: ({ href, children }) =>
      href ? (
        <a href={href} target="_blank" rel="noopener noreferrer nofollow">
          {children}
        </a>
      ) : (
        // The URL was unsafe (e.g. javascript:) and was removed: show the text, link to nothing.
        <span className="blocked-link" title="Link removed: it was not a web address">
          {children}
        </span>
      ),
    // GFM task lists: a read-only mark with a name, not an unlabeled (disabled) form control.
    input: ({ type, checked }) =>
      type === "checkbox" ? (
        <span role="img" aria-label={checked ? "done" : "not done"} className="task-mark">
          {checked ? "☑" : "☐"}
        </span>
      ) : null,
    img: ({ src, alt }) =>
      typeof src === "string" && SAFE_IMAGE.test(src) ? (
        <img src={src} alt={alt ?? ""} />
      ) : (
        <span className="blocked-image" title="Remote images are not loaded: they could send data to another site">
          [image: {alt || "untitled"}
          {typeof src === "string" && src ? ` — ${src.slice(0, 120)}` : ""}]
        </span>
      ),
    // A table wider than the column (a phone) scrolls sideways in its own box instead of being cut off; the
    // box takes focus so it can be scrolled from the keyboard.
    table: ({ children }) => (
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a named, focusable scroll region is the accessible pattern for content that scrolls (WCAG 2.1.1)
      <section className="table-scroll" aria-label="Table (scrolls sideways)" tabIndex={0}>
        <table>{children}</table>
      </section>
    ),
    pre: ({ node }) => {
      const code = (node?.children ?? []).find((c): c is Extract<typeof c, { type: "element" }> => c.type === "element" && c.tagName === "code");
      const cls = code?.properties?.className;
      const lang = Array.isArray(cls) ? cls.map(String).find((c) => c.startsWith("language-"))?.slice(9) : undefined;
      const text = code ? textOf(code as HastText).replace(/\n$/, "") : "";
      return <CodeBlock lang={lang} code={text} highlight={highlight} />;
    },
  };
}
const FINISHED = components(true);
const STREAMING = components(false);
const PLUGINS = [remarkGfm, remarkLiteralHtml];

/** remend closes unfinished marks (`**`, backticks, links) of the open block; loaded right after start, outside the entry. */
let heal: (s: string) => string = (s) => s;
export const healReady = import("remend").then(
  (m) => {
    heal = (s) => m.default(s, { katex: false });
  },
  () => undefined,
);

/** One top-level block. Memoised on its text: a finished block renders once. */
const Block = memo(function Block({ text, open }: { text: string; open: boolean }) {
  return (
    <ReactMarkdown remarkPlugins={PLUGINS} skipHtml components={open ? STREAMING : FINISHED}>
      {open ? heal(text) : text}
    </ReactMarkdown>
  );
});

/**
 * Markdown for untrusted model output: raw HTML shows as literal text (never as HTML), unsafe URLs are
 * removed by the default URL transform and render as plain text. While `streaming`, the text is split
 * into blocks: finished ones are rendered once, only the open one re-renders (with unfinished marks such
 * as `**` closed by remend, so no raw asterisks show), and code is highlighted once its block closes.
 */
export const Markdown = memo(function Markdown({ text, streaming = false }: { text: string; streaming?: boolean }) {
  // Text that was already finished when it came on screen is parsed as one document: a processor and a parse
  // per block cost ~1 ms per block when a session opens (a long answer has a hundred). Text that streamed here
  // keeps its blocks, so finishing it re-parses nothing.
  const split = useRef(streaming);
  if (streaming) split.current = true;
  if (!split.current)
    return (
      <div className="markdown">
        <Block text={text} open={false} />
      </div>
    );
  const { done, open } = splitBlocks(text);
  return (
    <div className="markdown">
      {done.map((b, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: blocks only ever append; a finished block keeps its index and text
        <Block key={i} text={b} open={false} />
      ))}
      {open && <Block key={done.length} text={open} open={streaming} />}
    </div>
  );
});
