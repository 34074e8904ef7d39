/**
 * A remark plugin that turns raw HTML in markdown into literal text: `Promise<void>` stays
 * `Promise<void>` and `<div>` shows as typed. Model output is never rendered as HTML.
 */
interface MdNode {
  type: string;
  value?: string;
  children?: MdNode[];
}

function literal(node: MdNode, block: boolean): void {
  const kids = node.children;
  if (!kids) return;
  for (let i = 0; i < kids.length; i++) {
    const k = kids[i];
    if (!k) continue;
    if (k.type === "html") {
      const text: MdNode = { type: "text", value: k.value ?? "" };
      // An HTML block at flow level becomes a paragraph of text; inline HTML becomes text in place.
      kids[i] = block ? { type: "paragraph", children: [text] } : text;
    } else literal(k, k.type === "root" || k.type === "blockquote" || k.type === "listItem");
  }
}

export function remarkLiteralHtml() {
  return (tree: MdNode) => literal(tree, true);
}
