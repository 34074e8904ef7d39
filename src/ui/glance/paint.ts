/**
 * The glance: what the screen showed when this tab last left a session, painted again at once when that
 * session is opened in a new page, before the app's scripts have run (a cold open of a long session takes
 * ~0.6 s on 2 cores until the app paints; the stylesheet is there at ~0.2–0.3 s). It is a still picture:
 * inert, hidden from assistive technology, and removed the moment the app paints the session itself (or
 * after `GLANCE_MAX_MS` at the latest).
 *
 * This file is inlined into index.html as a classic script (`build-plugins/glance-inline.ts` strips the
 * types and the `export` keywords), so it imports nothing and uses nothing newer than the browsers the app
 * supports. The snapshot comes from this origin's own storage, but it holds model and tool output, so the
 * painter trusts none of it: it creates only the elements and attributes listed here, sets text only as
 * text, and drops any style or attribute value that could name a resource. Nothing is parsed as HTML.
 */

/** localStorage: a session's picture is under `<GLANCE_KEY>:<session id>` (the same name as in `dismiss.ts`). */
export const GLANCE_KEY = "tabcode:glance";
/** Id of the layer the snapshot is painted in, over the whole page. */
export const GLANCE_ID = "tabcode-glance";
/** Format version: a snapshot of another version is ignored. */
export const GLANCE_VERSION = 1;
/** The layer is removed after this long even if the app never paints the session (it shows its own state then). */
export const GLANCE_MAX_MS = 4_000;

/**
 * One captured node: text, or an element as `[tag, class, style, attributes, children, distance from the
 * bottom of its scroll range (when it was scrolled)]`.
 */
export type GlanceNode = string | GlanceElement;
export type GlanceElement = [tag: string, cls: string, style: string, attrs: Record<string, string>, kids: GlanceNode[], fromBottom?: number];

export interface Glance {
  v: number;
  /** The session shown: the snapshot is painted only for the address `#/s/<session>`. */
  session: string;
  /** The viewport it was taken at: text wraps differently at another width, so it is painted only at this one. */
  width: number;
  /** The app's stylesheet when it was taken: after an update its classes may mean something else, so it is not painted. */
  build: string;
  /** When it was taken (ms since the epoch). */
  at: number;
  root: GlanceNode[];
}

/** HTML elements a snapshot may hold (the app's layout, its controls and rendered markdown). */
export const GLANCE_HTML_TAGS: readonly string[] = [
  "div", "span", "p", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "li", "pre", "code", "blockquote",
  "strong", "em", "b", "i", "u", "s", "del", "ins", "mark", "sub", "sup", "small", "kbd", "samp", "var",
  "abbr", "cite", "q", "dfn", "time", "table", "thead", "tbody", "tfoot", "tr", "th", "td", "caption", "hr",
  "br", "a", "button", "header", "footer", "main", "aside", "nav", "section", "article", "details", "summary",
  "label", "fieldset", "legend", "figure", "figcaption", "dl", "dt", "dd", "output", "progress", "meter",
  "textarea", "input", "select", "option", "form",
];
/** SVG elements (the app's icons). */
export const GLANCE_SVG_TAGS: readonly string[] = ["svg", "g", "path", "circle", "ellipse", "rect", "line", "polyline", "polygon"];
/** Attributes kept besides class and style: geometry for SVG, the look of a control. No URL-valued attribute is here. */
export const GLANCE_ATTRS: readonly string[] = [
  "viewBox", "d", "fill", "stroke", "stroke-width", "stroke-linecap", "stroke-linejoin", "fill-rule", "clip-rule",
  "opacity", "cx", "cy", "r", "rx", "ry", "x", "y", "x1", "y1", "x2", "y2", "width", "height", "points",
  "transform", "placeholder", "type", "disabled", "rows", "open", "value", "max", "min", "low", "high", "optimum",
];

/** A value is kept only when it cannot name a resource or escape its attribute. */
export function safeValue(v: string): boolean {
  return v.length <= 2_000 && !/url\s*\(|src\s*\(|image-set|image\s*\(|@import|expression|javascript:|\\|<|>|\/\//i.test(v);
}

/** Elements a browser may focus: the picture sets them `tabindex="-1"`. */
const FOCUSABLE = ["a", "button", "input", "select", "textarea", "summary", "details"];

/** `type` of an input: only the kinds that look like the app's controls. */
const INPUT_TYPES = ["text", "search", "checkbox", "radio", "range", "number", "button"];

/** The app's build, as the path of the page's first stylesheet (its name carries the build's hash). */
export function glanceBuild(d: Document): string {
  const link = d.querySelector("link[rel=stylesheet]");
  return link?.getAttribute("href") || "";
}

/** Whether attribute `name` (one of `GLANCE_ATTRS`) with `value` is kept on a `tag`: the capture and the painter both ask. */
export function keepAttr(tag: string, name: string, value: string): boolean {
  if (!safeValue(value)) return false;
  if (name === "type") return tag === "input" && INPUT_TYPES.indexOf(value) >= 0;
  // A control's value is never kept (a draft, a search, a key); a progress bar's is a number.
  if (name === "value" || name === "max" || name === "min" || name === "low" || name === "high" || name === "optimum") return tag === "progress" || tag === "meter";
  return true;
}

/** Paints the snapshot kept for the page's address, if there is one. Never throws. */
export function paintGlance(w: Window): void {
  try {
    // Only a session's address can have one: other pages do not read storage here.
    if (w.location.hash.indexOf("#/s/") !== 0) return;
    const raw = w.localStorage.getItem(`${GLANCE_KEY}:${w.location.hash.slice(4)}`);
    if (!raw) return;
    const g = JSON.parse(raw) as Glance;
    if (!g || g.v !== GLANCE_VERSION || typeof g.session !== "string" || !Array.isArray(g.root)) return;
    if (w.location.hash !== `#/s/${g.session}` || w.innerWidth !== g.width) return;
    // Only over the same build's stylesheet, loaded (never unstyled: in development there is none).
    const d = w.document;
    const sheet = d.querySelector("link[rel=stylesheet]") as HTMLLinkElement | null;
    if (!g.build || !sheet?.sheet || g.build !== glanceBuild(d)) return;
    const html = new Set(GLANCE_HTML_TAGS);
    const svg = new Set(GLANCE_SVG_TAGS);
    const attrs = new Set(GLANCE_ATTRS);
    const scrolled: [Element, number][] = [];
    let budget = 20_000;
    const build = (n: GlanceNode, parent: Node, inSvg: boolean): void => {
      if (--budget < 0) return;
      if (typeof n === "string") {
        parent.appendChild(d.createTextNode(n));
        return;
      }
      if (!Array.isArray(n)) return;
      const [tag, cls, style, at, kids, fromBottom] = n;
      if (typeof tag !== "string") return;
      const isSvg = inSvg || tag === "svg";
      if (isSvg ? !svg.has(tag) : !html.has(tag)) return;
      // A form would be a form (a button in it submits): the picture's is a plain box with the same classes.
      const el = isSvg ? d.createElementNS("http://www.w3.org/2000/svg", tag) : d.createElement(tag === "form" ? "div" : tag);
      // Never focusable, even where `inert` is not supported.
      if (FOCUSABLE.indexOf(tag) >= 0) el.setAttribute("tabindex", "-1");
      if (typeof cls === "string" && cls && safeValue(cls)) el.setAttribute("class", cls);
      if (typeof style === "string" && style && safeValue(style)) el.setAttribute("style", style);
      if (at && typeof at === "object") {
        for (const k of Object.keys(at)) {
          const v = at[k];
          if (attrs.has(k) && typeof v === "string" && keepAttr(tag, k, v)) el.setAttribute(k, v);
        }
      }
      if (Array.isArray(kids)) for (const k of kids) build(k, el, isSvg);
      if (typeof fromBottom === "number") scrolled.push([el, fromBottom]);
      parent.appendChild(el);
    };
    // The layer takes the clicks and the wheel (they would reach the page still loading under it); the
    // picture in it is inert.
    const layer = d.createElement("div");
    layer.id = GLANCE_ID;
    layer.setAttribute("aria-hidden", "true");
    layer.setAttribute("style", "position:fixed;inset:0;z-index:2147483000;overflow:hidden;background:var(--bg)");
    const root = d.createElement("div");
    root.setAttribute("inert", "");
    root.setAttribute("style", "height:100%");
    for (const n of g.root) build(n, root, false);
    // Cut short (more nodes than the budget), it would miss its last parts: the composer, the newest messages.
    if (budget < 0) return;
    layer.appendChild(root);
    d.body.appendChild(layer);
    for (const [el, fromBottom] of scrolled) el.scrollTop = el.scrollHeight - el.clientHeight - fromBottom;
    w.setTimeout(() => layer.remove(), GLANCE_MAX_MS);
  } catch {
    // A snapshot that cannot be painted is simply not painted: the app shows the session as always.
  }
}
