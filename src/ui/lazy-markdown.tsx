import type { ComponentProps } from "react";
import type { Markdown as MarkdownT } from "./components/markdown";
import { onDemand } from "./on-demand";

/**
 * The markdown pipeline (react-markdown, remark-gfm, micromark) is its own
 * chunk: main.tsx starts loading it at start-up, in parallel with opening the
 * database, so it is usually there before the first message renders; until
 * then (or if it cannot be fetched) a message shows as plain text.
 */
export const Markdown = onDemand<ComponentProps<typeof MarkdownT>>("Markdown", () => import("./components/markdown"), "Markdown", ({ text }) => <div className="markdown plain-text">{text}</div>);
