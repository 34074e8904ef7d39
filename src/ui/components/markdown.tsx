import { memo } from "react";
import ReactMarkdown, { type Components } from "react-markdown";
import remarkGfm from "remark-gfm";

/** Only inline raster images are shown; anything else would make the browser call a URL chosen by the model. */
const SAFE_IMAGE = /^data:image\/(png|jpe?g|gif|webp);base64,/i;

const components: Components = {
  a: ({ href, children }) => (
    <a href={href} target="_blank" rel="noopener noreferrer nofollow">
      {children}
    </a>
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
};

/**
 * Markdown for untrusted model output: raw HTML is never rendered (no
 * rehype-raw; `skipHtml` drops it) and unsafe URLs are removed by the default
 * URL transform.
 */
export const Markdown = memo(function Markdown({ text }: { text: string }) {
  return (
    <div className="markdown">
      <ReactMarkdown remarkPlugins={[remarkGfm]} skipHtml components={components}>
        {text}
      </ReactMarkdown>
    </div>
  );
});
