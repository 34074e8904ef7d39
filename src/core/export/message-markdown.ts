/**
 * A message's markdown in the exports. In the Markdown transcript its headings are lowered below the
 * transcript's own (`## Assistant`) and its raw HTML is made inert (`inertHtml`); in the HTML page it is rendered as the app shows it, with the same
 * rules: raw HTML is text, links go only to web and mail addresses, images only from inline data.
 */
import type { Element, ElementContent, Root as HastRoot, RootContent } from "hast";
import type { Nodes } from "mdast";
import { toHtml } from "hast-util-to-html";
import { toHast } from "mdast-util-to-hast";
import { headingShift, headingsOf, htmlAsText, shiftedDepth } from "../util/markdown-tree";
import { parseMarkdown as parse } from "../util/parse-markdown";

/**
 * The text with its headings lowered so the top one is at level `top` (levels past 6 stay 6), written
 * as `#` headings; a `Title\n===` heading becomes one too. Everything else is left byte for byte.
 */
export function lowerHeadings(text: string, top: number): string {
  // No "#" and no underline-like line: no heading, and nothing to parse.
  if (!text.includes("#") && !/^[ \t>]*(?:=+|-+)[ \t]*$/m.test(text)) return text;
  const heads = headingsOf(parse(text));
  const shift = headingShift(heads, top);
  if (shift === 0) return text;
  let out = text;
  // From the end, so earlier offsets stay true.
  for (const h of [...heads].reverse()) {
    const start = h.position?.start.offset;
    const end = h.position?.end.offset;
    if (start === undefined || end === undefined) continue;
    const hashes = "#".repeat(shiftedDepth(h.depth, shift));
    const source = out.slice(start, end);
    const atx = /^#{1,6}(?=[ \t]|$)/.exec(source);
    let heading: string;
    if (atx) heading = hashes + source.slice(atx[0].length);
    else {
      // A setext heading: its text (the lines above the underline) on one line.
      const first = h.children[0]?.position?.start.offset;
      const last = h.children[h.children.length - 1]?.position?.end.offset;
      if (first === undefined || last === undefined) continue;
      // Continuation lines inside a quote or list carry its markers: they are not the heading's text.
      heading = `${hashes} ${out.slice(first, last).replace(/[ \t]*\r?\n[ \t>]*/g, " ")}`;
    }
    out = out.slice(0, start) + heading + out.slice(end);
  }
  return out;
}

/**
 * An autolink (`<https://…>`, `<a@b.c>`) to these stays a link: it is no HTML. Other schemes (`<javascript:…>`,
 * `<irc://…>`) become text: CommonMark would link them, but nothing a transcript needs goes there.
 */
const SAFE_AUTOLINK = /^(?:https?:|mailto:)/i;

/**
 * An autolink kept as written must not read as a live element to a renderer that knows no CommonMark: to HTML,
 * `<https:` opens a tag, and a `/` or a quote in the address can start an attribute of it
 * (`<https://e.com/onmouseover=alert(1)>`). One with an event handler or style attribute so placed becomes text.
 */
const TAG_UNSAFE_AUTOLINK = /[/"'](?:on[a-z]+|style)=/i;

/**
 * Where a link's, an image's or a definition's destination is written in angle brackets (`[x](<a b.md>)`,
 * `[x]: <url>`): each one's `<` offset with the offset of its closing `>`. CommonMark reads them as part of the
 * link, never as HTML; the tree does not keep where they were, the parser's tokens do.
 */
function angleDestinations(text: string): { tree: Nodes; at: Map<number, number> } {
  const at = new Map<number, number>();
  let open: number | undefined;
  const mark = (token: { start: { offset: number } }) => {
    // Called for the opening marker, then for its closing one.
    const i = token.start.offset;
    if (text[i] === "<") open = i;
    else if (text[i] === ">" && open !== undefined) {
      at.set(open, i);
      open = undefined;
    }
  };
  const tree = parse(text, { enter: { resourceDestinationLiteralMarker: mark, definitionDestinationLiteralMarker: mark } });
  return { tree, at };
}

/**
 * An angle-bracket destination written without its brackets, the same link to CommonMark (which percent-encodes
 * the space anyway): no `<` is left that a renderer without CommonMark could open a tag with (`<script \>…` needs
 * neither a `=` nor a space to run). Backslash escapes are read first, as CommonMark reads them.
 */
function bareDestination(inside: string): string {
  const raw = inside.replace(/\\([!-/:-@[-`{-~])/g, "$1");
  let out = "";
  for (const c of raw) {
    const code = c.charCodeAt(0);
    // Spaces and controls, the brackets, parentheses and backslash: what a bare destination cannot hold as written.
    out += code <= 0x20 || code === 0x7f || "<>()\\".includes(c) ? `%${code.toString(16).toUpperCase().padStart(2, "0")}` : c;
  }
  return out;
}

/**
 * Markdown whose raw HTML reads as text in any renderer, HTML allowed or not: every `<` outside code
 * spans, code blocks and web or mail autolinks becomes `&lt;` (which renders as `<`; a backslash-escaped
 * `\<` too, its backslash dropped). Model output is untrusted; code is left byte for byte.
 */
export function inertHtml(text: string): string {
  // Escaping one `<` can re-pair the backticks around it (`<b title="`">` then a code span), so a second parse may
  // find HTML the first did not: escape until none is left; past a few rounds, escape every `<` (code too).
  let out = text;
  for (let round = 0; round < 4; round++) {
    out = inertOnce(out);
    if (!hasHtml(parse(out))) return out;
  }
  return out.replace(/</g, "&lt;");
}

function hasHtml(n: Nodes): boolean {
  if (n.type === "html") return true;
  return "children" in n && n.children.some((c) => hasHtml(c as Nodes));
}

function inertOnce(text: string): string {
  if (!text.includes("<")) return text;
  const keep: [number, number][] = [];
  const walk = (n: Nodes) => {
    const start = n.position?.start.offset;
    const end = n.position?.end.offset;
    const code = n.type === "code" || n.type === "inlineCode";
    const autolink = n.type === "link" && start !== undefined && text[start] === "<" && SAFE_AUTOLINK.test(n.url) && !TAG_UNSAFE_AUTOLINK.test(n.url);
    if ((code || autolink) && start !== undefined && end !== undefined) keep.push([start, end]);
    else if ("children" in n) for (const c of n.children) walk(c);
  };
  const { tree, at } = angleDestinations(text);
  walk(tree);
  let out = "";
  let from = 0;
  let k = 0;
  for (let i = text.indexOf("<"); i >= 0; i = text.indexOf("<", i + 1)) {
    // The ranges come in document order.
    while (keep[k] && (keep[k]?.[1] ?? 0) <= i) k++;
    if ((keep[k]?.[0] ?? Number.POSITIVE_INFINITY) <= i) continue;
    const close = at.get(i);
    if (close !== undefined) {
      out += text.slice(from, i) + bareDestination(text.slice(i + 1, close));
      from = close + 1;
      i = close;
      continue;
    }
    let slashes = 0;
    while (text[i - 1 - slashes] === "\\") slashes++;
    out += `${text.slice(from, slashes % 2 === 1 ? i - 1 : i)}&lt;`;
    from = i + 1;
  }
  return out + text.slice(from);
}

/** Only these link targets are kept: web and mail addresses, and places in the page. */
const SAFE_LINK = /^(?:https?:|mailto:|#)/i;
/** Only inline raster images may be shown: no SVG (it can carry script), no remote URLs. */
export const SAFE_IMAGE = /^data:image\/(?:png|jpeg|gif|webp);base64,[A-Za-z0-9+/]+=*$/;

function safeNode(n: ElementContent, idPrefix: string): ElementContent[] {
  if (n.type !== "element") return n.type === "text" || n.type === "comment" ? [n] : [];
  if (n.tagName === "img") {
    const src = typeof n.properties.src === "string" ? n.properties.src : "";
    if (SAFE_IMAGE.test(src)) return [{ ...n, properties: { src, alt: n.properties.alt ?? "" } }];
    const alt = typeof n.properties.alt === "string" && n.properties.alt ? n.properties.alt : "untitled";
    return [{ type: "element", tagName: "span", properties: { className: ["blocked"], title: "Remote images are not loaded" }, children: [{ type: "text", value: `[image: ${alt}${src ? ` — ${src.slice(0, 120)}` : ""}]` }] }];
  }
  const el: Element = { ...n, properties: { ...n.properties }, children: n.children.flatMap((c) => safeNode(c, idPrefix)) };
  // The footnotes' label has a fixed id (and the references point at it): one per message in a page of many.
  if (el.properties.id === "footnote-label") el.properties.id = `${idPrefix}-footnote-label`;
  if (el.properties.ariaDescribedBy !== undefined) el.properties.ariaDescribedBy = [`${idPrefix}-footnote-label`];
  if (n.tagName === "a") {
    const href = typeof n.properties.href === "string" ? n.properties.href : "";
    if (!SAFE_LINK.test(href)) return [{ type: "element", tagName: "span", properties: { className: ["blocked"], title: "Link removed: it was not a web address" }, children: el.children }];
    if (!href.startsWith("#")) el.properties.rel = ["noopener", "noreferrer", "nofollow"];
  }
  return [el];
}

/**
 * A message's markdown as HTML for the exported page: GFM (tables, task lists, footnotes), headings from
 * level `top`, raw HTML as text, unsafe links and images defused. `idPrefix` keeps footnote ids of
 * different messages apart in one page.
 */
export function markdownHtml(text: string, top: number, idPrefix: string): string {
  const tree = parse(text);
  htmlAsText(tree);
  const heads = headingsOf(tree);
  const shift = headingShift(heads, top);
  for (const h of heads) h.depth = shiftedDepth(h.depth, shift);
  const hast = toHast(tree, { clobberPrefix: `${idPrefix}-`, footnoteLabelTagName: `h${top}`, footnoteLabelProperties: {} }) as HastRoot;
  const safe: HastRoot = { type: "root", children: hast.children.flatMap((c) => (c.type === "doctype" ? [] : (safeNode(c, idPrefix) as RootContent[]))) };
  return toHtml(safe);
}
