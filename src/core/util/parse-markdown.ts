import type { Root } from "mdast";
import { type Extension, fromMarkdown } from "mdast-util-from-markdown";
import { gfmFromMarkdown } from "mdast-util-gfm";
import { gfm } from "micromark-extension-gfm";

/**
 * Markdown as the screen reads it (CommonMark with GFM: tables, task lists, footnotes), as a tree. `also` adds
 * handlers for the parser's tokens (e.g. to learn where a construct the tree does not keep was in the text).
 */
export function parseMarkdown(text: string, also?: Extension): Root {
  return fromMarkdown(text, { extensions: [gfm()], mdastExtensions: also ? [gfmFromMarkdown(), also] : [gfmFromMarkdown()] });
}
