/**
 * Syntax highlighting with lowlight (highlight.js grammars, the common set), loaded on demand: this
 * module is only ever imported dynamically, so it stays out of the entry bundle. It returns a tree
 * of spans with class names (no HTML strings).
 */
import { common, createLowlight } from "lowlight";

const lowlight = createLowlight(common);

export interface HlText {
  type: "text";
  value: string;
}
export interface HlElement {
  type: "element";
  className: string;
  children: HlNode[];
}
export type HlNode = HlText | HlElement;

interface HastLike {
  type: string;
  value?: string;
  properties?: { className?: unknown };
  children?: HastLike[];
}

function convert(n: HastLike): HlNode[] {
  if (n.type === "text") return [{ type: "text", value: n.value ?? "" }];
  const children = (n.children ?? []).flatMap(convert);
  if (n.type !== "element") return children;
  const cls = n.properties?.className;
  return [{ type: "element", className: Array.isArray(cls) ? cls.filter((c) => typeof c === "string").join(" ") : "", children }];
}

/** Highlights `code` in `lang`; undefined when the language is unknown (the caller shows plain text). */
export function highlight(lang: string, code: string): HlNode[] | undefined {
  if (!lowlight.registered(lang)) return undefined;
  return convert(lowlight.highlight(lang, code) as HastLike);
}
