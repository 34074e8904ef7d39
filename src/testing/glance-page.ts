/**
 * The page and window the glance's unit tests share: a page like the app's, a window at the session's address
 * with the stylesheet loaded.
 */
import { el, type FakeElement, FakeWindow } from "./fake-dom";

export const SESSION = "ses_abc";
export const BUILD = "/assets/index-Abc123.css";
export const PICTURE = `tabcode:glance:${SESSION}`;

/** A page like the app's: a sidebar, a scrolled message list with markdown, a composer with a draft. */
export function appPage(): FakeElement {
  const list = el(
    "div",
    { class: "message-list" },
    el(
      "div",
      { class: "message-canvas", style: "height: 90000px;" },
      el(
        "div",
        { class: "message-window", style: "transform: translateY(88000px);" },
        el("article", { class: "message assistant" }, el("h2", {}, "Plan"), el("p", {}, "Read ", el("code", {}, "src/a.ts"), " first."), el("pre", { class: "code" }, el("code", { class: "language-ts" }, "const a = 1 < 2;"))),
        el("article", { class: "message user" }, el("p", {}, "Answer 4999 with care")),
      ),
    ),
  );
  list.scrollHeight = 90_000;
  list.clientHeight = 700;
  list.scrollTop = 90_000 - 700 - 40;
  const icon = el("svg", { viewBox: "0 0 16 16", class: "icon" }, el("path", { d: "M1 1h14v14H1z", fill: "currentColor" }));
  return el(
    "div",
    { class: "app" },
    el("nav", { class: "sidebar", "aria-label": "Sessions" }, el("button", { class: "icon", type: "button" }, icon), el("input", { type: "search", placeholder: "Search", value: "my secret search" })),
    el("main", { class: "session" }, list, el("textarea", { placeholder: "Message tabcode", rows: "3" }, "a draft")),
  );
}

export function windowAt(hash: string, width = 1400, build = BUILD): FakeWindow {
  const w = new FakeWindow();
  // The stylesheet loaded (`sheet` set), as when the inline script runs after it.
  w.document.head.appendChild(Object.assign(el("link", { rel: "stylesheet", href: build }), { sheet: {} }));
  w.location.hash = hash;
  w.innerWidth = width;
  return w;
}
