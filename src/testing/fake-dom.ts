/**
 * A very small DOM for unit tests of code that walks and builds elements (the glance): elements, text,
 * attributes, scroll sizes, a document and a window with localStorage, a hash, a width, timers and events. Nothing is laid out: a
 * test sets `scrollHeight`/`clientHeight` itself.
 */
export const SVG_NS = "http://www.w3.org/2000/svg";
export const HTML_NS = "http://www.w3.org/1999/xhtml";

export class FakeNode {
  parentNode: FakeElement | null = null;
  readonly childNodes: FakeNode[] = [];
  constructor(
    readonly nodeType: number,
    public nodeValue: string | null = null,
  ) {}
  get firstChild(): FakeNode | null {
    return this.childNodes[0] ?? null;
  }
  get lastChild(): FakeNode | null {
    return this.childNodes[this.childNodes.length - 1] ?? null;
  }
  get nextSibling(): FakeNode | null {
    const sibs = this.parentNode?.childNodes;
    if (!sibs) return null;
    return sibs[sibs.indexOf(this) + 1] ?? null;
  }
  get textContent(): string {
    return this.nodeType === 3 ? (this.nodeValue ?? "") : this.childNodes.map((c) => c.textContent).join("");
  }
  appendChild<T extends FakeNode>(c: T): T {
    c.parentNode?.childNodes.splice(c.parentNode.childNodes.indexOf(c), 1);
    c.parentNode = this as unknown as FakeElement;
    this.childNodes.push(c);
    return c;
  }
  remove(): void {
    if (!this.parentNode) return;
    this.parentNode.childNodes.splice(this.parentNode.childNodes.indexOf(this), 1);
    this.parentNode = null;
  }
}

export class FakeElement extends FakeNode {
  readonly attributes = new Map<string, string>();
  scrollTop = 0;
  scrollHeight = 0;
  clientHeight = 0;
  constructor(
    readonly localName: string,
    readonly namespaceURI: string = HTML_NS,
  ) {
    super(1);
  }
  get id(): string {
    return this.attributes.get("id") ?? "";
  }
  set id(v: string) {
    this.attributes.set("id", v);
  }
  get className(): string {
    return this.attributes.get("class") ?? "";
  }
  set className(v: string) {
    this.attributes.set("class", v);
  }
  getAttribute(n: string): string | null {
    return this.attributes.get(n) ?? null;
  }
  getAttributeNames(): string[] {
    return [...this.attributes.keys()];
  }
  hasAttribute(n: string): boolean {
    return this.attributes.has(n);
  }
  setAttribute(n: string, v: string): void {
    this.attributes.set(n, String(v));
  }
  get children(): FakeElement[] {
    return this.childNodes.filter((c): c is FakeElement => c instanceof FakeElement);
  }
  /** Every element below this one, in document order. */
  descendants(): FakeElement[] {
    return this.children.flatMap((c) => [c, ...c.descendants()]);
  }

}

/** Builds an element: `el("div", { class: "x" }, "text", el("p"))`. */
export function el(tag: string, attrs: Record<string, string> = {}, ...kids: (FakeNode | string)[]): FakeElement {
  const e = new FakeElement(tag, tag === "svg" || tag === "path" ? SVG_NS : HTML_NS);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  for (const k of kids) e.appendChild(typeof k === "string" ? new FakeNode(3, k) : k);
  return e;
}

export class FakeDocument {
  readonly head = new FakeElement("head");
  readonly body = new FakeElement("body");
  visibilityState: "visible" | "hidden" = "visible";
  private readonly listeners = new Map<string, ((e: { target: unknown }) => void)[]>();
  createElement(tag: string): FakeElement {
    return new FakeElement(tag);
  }
  createElementNS(ns: string, tag: string): FakeElement {
    return new FakeElement(tag, ns);
  }
  createTextNode(text: string): FakeNode {
    return new FakeNode(3, text);
  }
  /** The first element in the head, then the body, matching `tag[attr=value]` (or `tag`). */
  querySelector(sel: string): FakeElement | null {
    const m = /^(\w+)(?:\[([\w-]+)=([\w-]+)\])?$/.exec(sel);
    if (!m) throw new Error(`fake-dom: unsupported selector ${sel}`);
    const all = [...this.head.descendants(), ...this.body.descendants()];
    return all.find((e) => e.localName === m[1] && (m[2] === undefined || e.getAttribute(m[2]) === m[3])) ?? null;
  }
  getElementById(id: string): FakeElement | null {
    return this.body.id === id ? this.body : (this.body.descendants().find((e) => e.id === id) ?? null);
  }
  addEventListener(type: string, l: (e: { target: unknown }) => void): void {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), l]);
  }
  /** Calls the listeners of `type` with an event whose target is `target` (a scroll's box; the document otherwise). */
  dispatch(type: string, target: unknown = this): void {
    for (const l of this.listeners.get(type) ?? []) l({ target });
  }
}

export class FakeStorage {
  readonly map = new Map<string, string>();
  getItem(k: string): string | null {
    return this.map.get(k) ?? null;
  }
  setItem(k: string, v: string): void {
    this.map.set(k, v);
  }
  removeItem(k: string): void {
    this.map.delete(k);
  }
}

/** A window: `timers` holds what `setTimeout` and `requestIdleCallback` were given; `run()` runs them in order. */
export class FakeWindow {
  readonly document = new FakeDocument();
  readonly localStorage = new FakeStorage();
  readonly location = { hash: "" };
  innerWidth = 1400;
  readonly timers: { fn: () => void; ms: number }[] = [];
  private readonly listeners = new Map<string, (() => void)[]>();
  setTimeout(fn: () => void, ms = 0): number {
    this.timers.push({ fn, ms });
    return this.timers.length;
  }
  requestIdleCallback(fn: () => void): number {
    return this.setTimeout(fn, 0);
  }
  /** Runs the pending timers (and any they add) until none is left. */
  run(): void {
    for (let t = this.timers.shift(); t; t = this.timers.shift()) t.fn();
  }
  addEventListener(type: string, l: () => void): void {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), l]);
  }
  dispatch(type: string): void {
    for (const l of this.listeners.get(type) ?? []) l();
  }
  /** The window as the DOM's type (the code under test takes a real `Window`). */
  get asWindow(): Window {
    return this as unknown as Window;
  }
}
