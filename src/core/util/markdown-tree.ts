/**
 * Rules over a parsed markdown tree (mdast) that the screen and the exports share: raw HTML is
 * shown as the text it is, and a message's headings sit below the headings that frame it.
 */
import type { Heading, Nodes, Parent, Root } from "mdast";

/**
 * Raw HTML in markdown becomes literal text: `Promise<void>` stays `Promise<void>`, `<div>` reads as
 * typed. Model output is never rendered as HTML. An HTML block at flow level becomes a paragraph.
 */
export function htmlAsText(tree: Root): void {
  const walk = (node: Parent, flow: boolean) => {
    const kids = node.children;
    for (let i = 0; i < kids.length; i++) {
      const k = kids[i] as Nodes;
      if (k.type === "html") {
        const text = { type: "text" as const, value: k.value, position: k.position };
        kids[i] = (flow ? { type: "paragraph", children: [text], position: k.position } : text) as (typeof kids)[number];
      } else if ("children" in k) walk(k, k.type === "blockquote" || k.type === "listItem" || k.type === "footnoteDefinition");
    }
  };
  walk(tree, true);
}

/** Every heading in a tree, in document order (code blocks are leaves: `# x` in a fence is not one). */
export function headingsOf(tree: Nodes): Heading[] {
  const out: Heading[] = [];
  const walk = (n: Nodes) => {
    if (n.type === "heading") out.push(n);
    else if ("children" in n) for (const c of n.children) walk(c);
  };
  walk(tree);
  return out;
}

/**
 * How many levels to lower a text's headings so its top one is at `top` (a message under an
 * `## Assistant` heading starts at 3). Never raises a heading; depth stays at most 6 when applied.
 */
export function headingShift(headings: readonly Heading[], top: number): number {
  if (headings.length === 0) return 0;
  const min = Math.min(...headings.map((h) => h.depth));
  return Math.max(0, top - min);
}

export const shiftedDepth = (depth: number, shift: number): Heading["depth"] => Math.min(6, depth + shift) as Heading["depth"];
