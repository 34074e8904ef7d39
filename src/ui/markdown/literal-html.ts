import type { Root } from "mdast";
import { htmlAsText } from "../../core/util/markdown-tree";

/** A remark plugin: raw HTML in markdown is shown as literal text (the rule lives in the core, shared with the exports). */
export function remarkLiteralHtml() {
  return (tree: Root) => htmlAsText(tree);
}
