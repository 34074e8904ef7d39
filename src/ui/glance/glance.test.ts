import { describe, expect, it, vi } from "vitest";
import { glanceScript } from "../../../build-plugins/glance-inline";
import { el, type FakeElement, FakeNode, FakeWindow } from "../../testing/fake-dom";
import { captureGlance, GLANCE_MAX_CHARS, GLANCE_TYPING_QUIET_MS, glanceKeeper, serializeGlance } from "./capture";
import { forgetGlance, glanceShowing, glanceTyping, installGlance } from "./keeper";
import * as first from "./dismiss";
import { dismissGlance, forgetGlances } from "./dismiss";
import { GLANCE_ID, GLANCE_KEY, GLANCE_MAX_MS, type Glance, type GlanceNode, paintGlance, safeValue } from "./paint";

const SESSION = "ses_abc";
const BUILD = "/assets/index-Abc123.css";
const PICTURE = `tabcode:glance:${SESSION}`;

/** A page like the app's: a sidebar, a scrolled message list with markdown, a composer with a draft. */
function appPage(): FakeElement {
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

function capturedPage(): Glance {
  const root = el("div", { id: "root" }, appPage());
  const g = captureGlance(root as unknown as Element, SESSION, 1400, BUILD, 1_000);
  if (!g) throw new Error("no glance");
  return g;
}

function windowAt(hash: string, width = 1400, build = BUILD): FakeWindow {
  const w = new FakeWindow();
  // The stylesheet loaded (`sheet` set), as when the inline script runs after it.
  w.document.head.appendChild(Object.assign(el("link", { rel: "stylesheet", href: build }), { sheet: {} }));
  w.location.hash = hash;
  w.innerWidth = width;
  return w;
}

function painted(w: FakeWindow): FakeElement | null {
  return w.document.getElementById(GLANCE_ID);
}

function tags(e: FakeElement): string[] {
  return e.descendants().map((d) => d.localName);
}

describe("the glance: capture", () => {
  it("keeps the layout's classes, text, inline geometry and how far each scrolled box was from its bottom", () => {
    const g = capturedPage();
    const json = JSON.stringify(g);
    expect(g).toMatchObject({ v: 1, session: SESSION, width: 1400, build: BUILD, at: 1_000 });
    expect(json).toContain("Answer 4999 with care");
    expect(json).toContain("const a = 1 < 2;");
    expect(json).toContain("transform: translateY(88000px);");
    const list = (g.root[0] as Extract<GlanceNode, unknown[]>)[4][1] as Extract<GlanceNode, unknown[]>;
    expect(list[1]).toBe("session");
    const messageList = list[4][0] as Extract<GlanceNode, unknown[]>;
    expect(messageList[1]).toBe("message-list");
    expect(messageList[5]).toBe(40);
  });

  it("reads the scroll position only of the boxes that may have scrolled", () => {
    const page = appPage();
    const list = page.descendants().find((e) => e.className === "message-list");
    // A code block off screen: reading its position would lay it out (content-visibility: auto).
    const pre = page.descendants().find((e) => e.localName === "pre");
    let reads = 0;
    if (pre) Object.defineProperty(pre, "scrollTop", { get: () => ++reads });
    const g = captureGlance(el("div", {}, page) as unknown as Element, SESSION, 1400, BUILD, 1_000, (e) => e === (list as unknown));
    const json = JSON.stringify(g);
    expect(reads).toBe(0);
    expect(json).toContain('"message-list"');
    const found = (nodes: GlanceNode[]): Extract<GlanceNode, unknown[]> | undefined => {
      for (const n of nodes) {
        if (typeof n === "string") continue;
        if (n[1] === "message-list") return n;
        const inner = found(n[4]);
        if (inner) return inner;
      }
      return undefined;
    };
    expect(found(g?.root ?? [])?.[5]).toBe(40);
    // Told nothing scrolled: no position is kept.
    const none = captureGlance(el("div", {}, appPage()) as unknown as Element, SESSION, 1400, BUILD, 1_000, () => false);
    expect(found(none?.root ?? [])?.[5]).toBeUndefined();
    // Unless the box is marked as one whose position is always read (a hidden tab's list never said it scrolled).
    const marked = appPage();
    marked.descendants().find((e) => e.className === "message-list")?.setAttribute("data-glance", "scroll");
    const kept = captureGlance(el("div", {}, marked) as unknown as Element, SESSION, 1400, BUILD, 1_000, () => false);
    expect(found(kept?.root ?? [])?.[5]).toBe(40);
  });

  it("never keeps what a control holds: a search, a draft", () => {
    const json = JSON.stringify(capturedPage());
    expect(json).not.toContain("my secret search");
    expect(json).not.toContain("a draft");
    expect(json).toContain("Message tabcode");
  });

  it("leaves out dialogs, menus, hidden parts and elements it does not know (images, canvases)", () => {
    const root = el(
      "div",
      {},
      el("div", { role: "dialog" }, "API key sk-in-a-dialog"),
      el("dialog", {}, "a native dialog"),
      el("div", { role: "menu" }, "Fork"),
      el("div", { hidden: "" }, "hidden text"),
      el("div", { role: "alertdialog" }, "an alert"),
      el("div", { role: "tooltip" }, "a tip"),
      el("div", { "data-glance": "skip" }, "left out on purpose"),
      el("img", { src: "https://example.com/x.png" }),
      el("canvas", {}, "fallback"),
      el("p", {}, "kept"),
    );
    const json = JSON.stringify(captureGlance(root as unknown as Element, SESSION, 800, BUILD));
    for (const gone of ["sk-in-a-dialog", "a native dialog", "Fork", "hidden text", "an alert", "a tip", "left out on purpose", "example.com", "fallback"]) expect(json).not.toContain(gone);
    expect(json).toContain("kept");
  });

  it("drops a style or attribute value that could name a resource", () => {
    const root = el("div", {}, el("div", { style: "background: url(https://x.test/a.png)" }, "a"), el("div", { style: "height: 20px" }, "b"));
    const json = JSON.stringify(captureGlance(root as unknown as Element, SESSION, 800, BUILD));
    expect(json).not.toContain("x.test");
    expect(json).toContain("height: 20px");
  });

  it("is not kept when it holds the API key (whole, split across highlighted spans, or anything shaped like a key), or when it is too large", () => {
    const g = capturedPage();
    const key = "my-proxy-token-42";
    expect(serializeGlance(g, [key])).toBeDefined();
    const withKey = { ...g, root: [...g.root, ["p", "", "", {}, [key]] as GlanceNode] };
    expect(serializeGlance(withKey, [key])).toBeUndefined();
    const split = { ...g, root: [...g.root, ["pre", "", "", {}, [["span", "hl-string", "", {}, ["KEY=my-proxy"]], ["span", "", "", {}, ["-token-42"]]]] as GlanceNode] };
    expect(serializeGlance(split, [key])).toBeUndefined();
    const shaped = { ...g, root: [...g.root, ["p", "", "", {}, ["OPENAI_API_KEY=sk-proj-abcdefghijklmnop"]] as GlanceNode] };
    expect(serializeGlance(shaped, [])).toBeUndefined();
    const huge = { ...g, root: ["x".repeat(GLANCE_MAX_CHARS)] };
    expect(serializeGlance(huge, [])).toBeUndefined();
  });

  it("gives up on a page with more elements than it may take", () => {
    const root = el("div", {});
    for (let i = 0; i < 12_001; i++) root.appendChild(el("span", {}, String(i)));
    expect(captureGlance(root as unknown as Element, SESSION, 800, BUILD)).toBeUndefined();
  });
});

describe("the glance: painting", () => {
  it("paints the kept screen for the session's address: same elements, classes and text, inert and hidden from assistive technology", () => {
    const w = windowAt(`#/s/${SESSION}`);
    w.localStorage.setItem(PICTURE, JSON.stringify(capturedPage()));
    paintGlance(w.asWindow);
    const layer = painted(w);
    expect(layer?.getAttribute("aria-hidden")).toBe("true");
    // The layer takes the clicks; the picture in it is inert, and nothing in it can take focus.
    expect(layer?.getAttribute("inert")).toBeNull();
    expect(layer?.children[0]?.getAttribute("inert")).toBe("");
    for (const e of layer?.descendants().filter((d) => ["button", "input", "textarea", "a"].includes(d.localName)) ?? []) expect(e.getAttribute("tabindex")).toBe("-1");
    expect(layer?.textContent).toContain("Answer 4999 with care");
    expect(layer?.textContent).toContain("const a = 1 < 2;");
    const article = layer?.descendants().find((e) => e.localName === "article");
    expect(article?.className).toBe("message assistant");
    const svg = layer?.descendants().find((e) => e.localName === "svg");
    expect(svg?.namespaceURI).toBe("http://www.w3.org/2000/svg");
    expect(svg?.getAttribute("viewBox")).toBe("0 0 16 16");
    // The input keeps its look (type, placeholder), not a value.
    const input = layer?.descendants().find((e) => e.localName === "input");
    expect(input?.getAttribute("type")).toBe("search");
    expect(input?.getAttribute("value")).toBeNull();
  });

  it("scrolls each box back to the same distance from its bottom", () => {
    const w = windowAt(`#/s/${SESSION}`);
    w.localStorage.setItem(PICTURE, JSON.stringify(capturedPage()));
    // The fake lays nothing out: give every new element the list's sizes before the painter reads them.
    const make = w.document.createElement.bind(w.document);
    w.document.createElement = (tag: string) => Object.assign(make(tag), { scrollHeight: 5_000, clientHeight: 600 });
    paintGlance(w.asWindow);
    const list = painted(w)?.descendants().find((e) => e.className === "message-list");
    expect(list?.scrollTop).toBe(5_000 - 600 - 40);
  });

  it("paints nothing after an update of the app (another stylesheet: its classes may mean something else), nor unstyled", () => {
    const w = windowAt(`#/s/${SESSION}`, 1400, "/assets/index-Def456.css");
    w.localStorage.setItem(PICTURE, JSON.stringify(capturedPage()));
    paintGlance(w.asWindow);
    expect(painted(w)).toBeNull();
    // The stylesheet failed to load.
    const failed = windowAt(`#/s/${SESSION}`);
    Object.assign(failed.document.head.children[0] ?? {}, { sheet: null });
    failed.localStorage.setItem(PICTURE, JSON.stringify(capturedPage()));
    paintGlance(failed.asWindow);
    expect(painted(failed)).toBeNull();
    // No stylesheet at all (development), and a snapshot taken there.
    const dev = new FakeWindow();
    dev.location.hash = `#/s/${SESSION}`;
    dev.localStorage.setItem(PICTURE, JSON.stringify({ ...capturedPage(), build: "" }));
    paintGlance(dev.asWindow);
    expect(painted(dev)).toBeNull();
  });

  it("paints nothing for another address, another width, another version or a damaged snapshot", () => {
    const good = JSON.stringify(capturedPage());
    const cases: [string, number, string][] = [
      ["#/s/ses_other", 1400, good],
      ["#/", 1400, good],
      [`#/s/${SESSION}/m/msg_1`, 1400, good],
      [`#/s/${SESSION}`, 390, good],
      [`#/s/${SESSION}`, 1400, JSON.stringify({ ...capturedPage(), v: 2 })],
      [`#/s/${SESSION}`, 1400, "{not json"],
      [`#/s/${SESSION}`, 1400, JSON.stringify({ v: 1, session: SESSION, width: 1400, build: BUILD, root: "nope" })],
    ];
    for (const [hash, width, raw] of cases) {
      const w = windowAt(hash, width);
      w.localStorage.setItem(PICTURE, raw);
      expect(() => paintGlance(w.asWindow)).not.toThrow();
      expect(painted(w)).toBeNull();
    }
    const empty = windowAt(`#/s/${SESSION}`);
    paintGlance(empty.asWindow);
    expect(painted(empty)).toBeNull();
  });

  it("creates only listed elements and attributes from a hostile snapshot, and sets text only as text", () => {
    const hostile: Glance = {
      v: 1,
      session: SESSION,
      width: 1400,
      build: BUILD,
      at: 0,
      root: [
        ["script", "", "", {}, ["alert(1)"]],
        ["img", "", "", { src: "https://evil.test/x.png" }, []],
        ["iframe", "", "", { src: "https://evil.test" }, []],
        ["style", "", "", {}, ["body{background:url(https://evil.test)}"]],
        ["div", "", "background-image: url(https://evil.test/a.png)", { onclick: "alert(1)", href: "https://evil.test", src: "x", style: "color:red" }, ["<img src=x onerror=alert(1)>"]],
        ["a", "x\" onmouseover=\"alert(1)", "", { href: "javascript:alert(1)" }, ["link text"]],
        ["input", "", "", { type: "image", value: "secret" }, []],
        ["svg", "", "", {}, [["image", "", "", { href: "https://evil.test/i.png" }, []], ["use", "", "", { href: "#x" }, []], ["path", "", "", { d: "M0 0", fill: "url(https://evil.test#g)" }, []]]],
        ["progress", "", "", { value: "3", max: "10" }, []],
      ],
    };
    const w = windowAt(`#/s/${SESSION}`);
    w.localStorage.setItem(PICTURE, JSON.stringify(hostile));
    paintGlance(w.asWindow);
    const layer = painted(w);
    if (!layer) throw new Error("not painted");
    // The form-like container is a div; the root is the first div.
    expect(tags(layer)).toEqual(["div", "div", "a", "input", "svg", "path", "progress"]);
    const all = layer.descendants();
    const attrs = all.flatMap((e) => [...e.attributes.entries()].map(([k, v]) => `${e.localName}.${k}=${v}`));
    expect(attrs.join("\n")).not.toMatch(/evil|javascript|secret|type=image/);
    // Only listed attributes: a quote in a class is part of its value, never a new attribute.
    expect(all.flatMap((e) => [...e.attributes.keys()]).filter((k) => !["class", "style", "id", "aria-hidden", "inert", "tabindex", "value", "max", "d"].includes(k))).toEqual([]);
    expect(attrs).toContain("progress.value=3");
    // The markup in a text node stays text.
    const div = all.filter((e) => e.localName === "div" && e.textContent.includes("onerror")).at(-1);
    expect(div?.childNodes[0]).toBeInstanceOf(FakeNode);
    expect(div?.childNodes[0]?.nodeType).toBe(3);
    expect(div?.textContent).toBe("<img src=x onerror=alert(1)>");
  });

  it("paints nothing rather than a picture cut short by its node budget (it would miss the newest messages)", () => {
    const many: GlanceNode[] = [];
    for (let i = 0; i < 30_000; i++) many.push(["span", "", "", {}, []]);
    const w = windowAt(`#/s/${SESSION}`);
    w.localStorage.setItem(PICTURE, JSON.stringify({ v: 1, session: SESSION, width: 1400, build: BUILD, at: 0, root: many }));
    paintGlance(w.asWindow);
    expect(painted(w)).toBeNull();
    const w2 = windowAt(`#/s/${SESSION}`);
    w2.localStorage.setItem(PICTURE, JSON.stringify({ v: 1, session: SESSION, width: 1400, build: BUILD, at: 0, root: many.slice(0, 19_000) }));
    paintGlance(w2.asWindow);
    expect(painted(w2)?.descendants().length).toBe(19_001);
  });

  it("turns a form into a plain box with the same classes (a button in a form would submit it)", () => {
    const w = windowAt(`#/s/${SESSION}`);
    w.localStorage.setItem(PICTURE, JSON.stringify({ v: 1, session: SESSION, width: 1400, build: BUILD, at: 0, root: [["form", "composer", "", {}, [["button", "primary", "", {}, ["Send"]]]]] }));
    paintGlance(w.asWindow);
    const box = painted(w)?.descendants().find((e) => e.className === "composer");
    expect(box?.localName).toBe("div");
    expect(box?.children[0]?.getAttribute("tabindex")).toBe("-1");
  });

  it("goes away when the app paints, or by itself after a few seconds", () => {
    const w = windowAt(`#/s/${SESSION}`);
    w.localStorage.setItem(PICTURE, JSON.stringify(capturedPage()));
    paintGlance(w.asWindow);
    expect(w.timers.map((t) => t.ms)).toEqual([GLANCE_MAX_MS]);
    w.run();
    expect(painted(w)).toBeNull();
    paintGlance(w.asWindow);
    expect(painted(w)).not.toBeNull();
    dismissGlance(w.document as unknown as Document);
    expect(painted(w)).toBeNull();
  });

  it("safeValue refuses anything that could name a resource", () => {
    for (const bad of ["url(x)", "URL (x)", "image-set(a 1x)", "@import 'x'", "javascript:x", "//evil.test", "a\\62 c", "<b>", "src('x')"]) expect(safeValue(bad)).toBe(false);
    for (const ok of ["message assistant", "height: 120px;", "transform: translateY(4px);", "M1 1h14v14H1z", "0 0 16 16"]) expect(safeValue(ok)).toBe(true);
  });
});

describe("the glance: the script inlined into index.html", () => {
  it("names the key and the layer as the app's first screen does", () => {
    expect([first.GLANCE_KEY, first.GLANCE_ID]).toEqual([GLANCE_KEY, GLANCE_ID]);
  });

  it("stands alone and paints the kept screen", async () => {
    const code = await glanceScript();
    expect(code).not.toMatch(/(^|[;{}])\s*(import|export)\s/);
    expect(code.length).toBeLessThan(4_000);
    const w = windowAt(`#/s/${SESSION}`);
    w.localStorage.setItem(PICTURE, JSON.stringify(capturedPage()));
    new Function("window", code)(w);
    expect(painted(w)?.textContent).toContain("Answer 4999 with care");
  });
});

describe("the glance: keeping it", () => {
  function page(): FakeWindow {
    const w = windowAt(`#/s/${SESSION}`);
    w.document.body.appendChild(el("div", { id: "root" }, appPage()));
    return w;
  }

  it("is taken when the page is idle after the session's screen changed, and again when the page is left", () => {
    const w = page();
    const keeper = glanceKeeper(w.asWindow, () => []);
    keeper.showing(SESSION, false);
    expect(w.localStorage.getItem(PICTURE)).toBeNull();
    w.run();
    const first = JSON.parse(w.localStorage.getItem(PICTURE) ?? "null") as Glance;
    expect(first.session).toBe(SESSION);
    w.document.getElementById("root")?.appendChild(el("p", {}, "a newer line"));
    w.dispatch("pagehide");
    expect(w.localStorage.getItem(PICTURE)).toContain("a newer line");
  });

  it("is not taken while an answer streams into the session, nor with no session on screen", () => {
    const w = page();
    const keeper = glanceKeeper(w.asWindow, () => []);
    keeper.showing(SESSION, true);
    w.run();
    w.document.visibilityState = "hidden";
    w.document.dispatch("visibilitychange");
    expect(w.localStorage.getItem(PICTURE)).toBeNull();
    keeper.showing(undefined, false);
    w.run();
    w.dispatch("pagehide");
    expect(w.localStorage.getItem(PICTURE)).toBeNull();
    keeper.showing(SESSION, false);
    w.run();
    expect(w.localStorage.getItem(PICTURE)).not.toBeNull();
  });

  it("removes the kept one when the new one must not be kept (the key on screen), and when told to forget", () => {
    const w = page();
    const keeper = glanceKeeper(w.asWindow, () => ["live-0123456789"]);
    keeper.showing(SESSION, false);
    w.run();
    expect(w.localStorage.getItem(PICTURE)).not.toBeNull();
    w.document.getElementById("root")?.appendChild(el("p", {}, "key live-0123456789"));
    w.dispatch("pagehide");
    expect(w.localStorage.getItem(PICTURE)).toBeNull();
    w.document.getElementById("root")?.lastChild?.remove();
    w.dispatch("pagehide");
    expect(w.localStorage.getItem(PICTURE)).not.toBeNull();
    forgetGlances(w.localStorage);
    expect(w.localStorage.getItem(PICTURE)).toBeNull();
  });

  it("keeps a picture for each of the last sessions left, drops the oldest beyond them, and forgets them all", () => {
    const w = page();
    const keeper = glanceKeeper(w.asWindow, () => []);
    for (const id of ["ses_1", "ses_2", "ses_3", "ses_4", "ses_5"]) {
      keeper.showing(id, false);
      w.run();
    }
    const kept = [...w.localStorage.map.keys()].filter((k) => k.startsWith(`${GLANCE_KEY}:`)).sort();
    expect(kept).toEqual(["ses_2", "ses_3", "ses_4", "ses_5"].map((id) => `${GLANCE_KEY}:${id}`));
    expect(JSON.parse(w.localStorage.getItem(GLANCE_KEY) ?? "")).toEqual(["ses_5", "ses_4", "ses_3", "ses_2"]);
    // Shown again, a session moves to the front and nothing else goes.
    keeper.showing("ses_3", false);
    w.run();
    expect(JSON.parse(w.localStorage.getItem(GLANCE_KEY) ?? "")).toEqual(["ses_3", "ses_5", "ses_4", "ses_2"]);
    forgetGlances(w.localStorage);
    expect([...w.localStorage.map.keys()]).toEqual([]);
  });

  it("waits while a message is being typed, is taken once the typing has paused, and at once when the page is left", () => {
    const w = page();
    let now = 100_000;
    let typed = now - 500;
    const keeper = glanceKeeper(w.asWindow, () => [], () => typed, () => now);
    const next = () => w.timers.shift()?.fn();
    keeper.showing(SESSION, false);
    // The capture comes due (its delay, then the idle callback) half a second after a keystroke: put off.
    next();
    next();
    expect(w.localStorage.getItem(PICTURE)).toBeNull();
    // Asked again for when the typing will have paused, not over and over meanwhile.
    expect(w.timers.map((t) => t.ms)).toEqual([GLANCE_TYPING_QUIET_MS - 500]);
    // The typing paused long enough: taken.
    now += GLANCE_TYPING_QUIET_MS;
    next();
    next();
    expect(w.localStorage.getItem(PICTURE)).not.toBeNull();
    // Typing again, then the page is left: taken at once (the next cold open needs it).
    typed = now;
    w.document.getElementById("root")?.appendChild(el("p", {}, "a line shown while typing"));
    w.dispatch("pagehide");
    expect(w.localStorage.getItem(PICTURE)).toContain("a line shown while typing");
  });

  /** A page with many elements (a long answer) and a clock that moves 5 ms each time it is read. */
  function longPage(): { w: FakeWindow; clock: () => number } {
    const w = windowAt(`#/s/${SESSION}`);
    const answer = el("article", { class: "message assistant" });
    for (let i = 0; i < 600; i++) answer.appendChild(el("p", {}, `line ${i} `, el("code", {}, `x${i}`)));
    w.document.body.appendChild(el("div", { id: "root" }, answer));
    let t = 1_000_000;
    return {
      w,
      clock: () => {
        t += 5;
        return t;
      },
    };
  }

  it("at idle, a long page is captured in slices, one idle callback each, into the same picture as in one piece", () => {
    const { w, clock } = longPage();
    const keeper = glanceKeeper(w.asWindow, () => [], () => 0, clock);
    keeper.showing(SESSION, false);
    let callbacks = 0;
    for (let t = w.timers.shift(); t; t = w.timers.shift()) {
      callbacks++;
      t.fn();
    }
    // The delay, then several slices (1,200 elements, a pause every 100, 20 ms a slice on a clock of 5 ms a read).
    expect(callbacks).toBeGreaterThan(3);
    const kept = JSON.parse(w.localStorage.getItem(PICTURE) ?? "null") as Glance;
    const whole = captureGlance(w.document.getElementById("root") as unknown as Element, SESSION, 1400, BUILD, kept.at);
    expect(kept.root).toEqual(whole?.root);
  });

  it("saves the picture in an idle callback of its own when the walk used its slice's time", () => {
    const w = windowAt(`#/s/${SESSION}`);
    const answer = el("article", { class: "message assistant" });
    // 1,199 elements and the article: 12 pauses of 100 elements.
    for (let i = 0; i < 1_199; i++) answer.appendChild(el("p", {}, `line ${i}`));
    w.document.body.appendChild(el("div", { id: "root" }, answer));
    // A clock that moves 100 ms each read: every slice walks one step of 100 elements and is out of time.
    let t = 1_000_000;
    const keeper = glanceKeeper(w.asWindow, () => [], () => 0, () => (t += 100));
    keeper.showing(SESSION, false);
    const stored: boolean[] = [];
    for (let next = w.timers.shift(); next; next = w.timers.shift()) {
      next.fn();
      stored.push(w.localStorage.getItem(PICTURE) !== null);
    }
    // The delay, 13 slices (the 13th ends the walk, out of time), then the save on its own.
    expect(stored).toHaveLength(15);
    expect(stored.indexOf(true)).toBe(14);
  });

  it("gives a capture in slices up when the page changes under it, asks again, and after three such tries takes one whole", () => {
    const { w, clock } = longPage();
    // A MutationObserver the test drives: `change()` reports a change to every observer watching.
    const watchers: (() => void)[] = [];
    Object.assign(w, {
      MutationObserver: class {
        constructor(cb: () => void) {
          watchers.push(cb);
        }
        observe() {}
        disconnect() {}
      },
    });
    const change = () => {
      for (const cb of watchers) cb();
    };
    const keeper = glanceKeeper(w.asWindow, () => [], () => 0, clock);
    keeper.showing(SESSION, false);
    for (let attempt = 0; attempt < 3; attempt++) {
      w.timers.shift()?.fn(); // the delay
      w.timers.shift()?.fn(); // the first slice
      change(); // the page changes before the next slice
      w.timers.shift()?.fn(); // that slice gives up and asks again
      expect(w.localStorage.getItem(PICTURE)).toBeNull();
    }
    // The fourth try is taken in one piece, changes or not.
    w.timers.shift()?.fn();
    w.timers.shift()?.fn();
    expect(w.localStorage.getItem(PICTURE)).toContain("line 599");
  });

  it("a capture in slices is not started over by the session view reporting again: it ends, and one more follows", () => {
    const { w, clock } = longPage();
    const keeper = glanceKeeper(w.asWindow, () => [], () => 0, clock);
    keeper.showing(SESSION, false);
    // The view renders again (a new messages array, the session's cost) after each slice, the page unchanged.
    let callbacks = 0;
    while (w.localStorage.getItem(PICTURE) === null && callbacks < 100) {
      w.timers.shift()?.fn();
      callbacks++;
      keeper.showing(SESSION, false);
    }
    expect(w.localStorage.getItem(PICTURE)).toContain("line 599");
    expect(callbacks).toBeLessThan(20);
    // The screen was reported changed meanwhile: another capture is asked for, a second after this one.
    expect(w.timers).toHaveLength(1);
    expect(w.timers[0]?.ms).toBeGreaterThan(900);
  });

  it("a capture in slices waits when the user types, as one not yet begun does", () => {
    const { w, clock } = longPage();
    let typed = 0;
    const keeper = glanceKeeper(w.asWindow, () => [], () => typed, clock);
    keeper.showing(SESSION, false);
    w.timers.shift()?.fn(); // the delay
    w.timers.shift()?.fn(); // the first slice
    typed = clock();
    w.timers.shift()?.fn(); // the next slice: typing, so it stops and asks again after the pause
    expect(w.timers).toHaveLength(1);
    expect(w.timers[0]?.ms).toBeGreaterThan(GLANCE_TYPING_QUIET_MS - 100);
    typed = 0;
    for (let t = w.timers.shift(); t; t = w.timers.shift()) t.fn();
    expect(w.localStorage.getItem(PICTURE)).toContain("line 599");
  });

  it("asks for one capture however often the screen changes before the page is idle", () => {
    const w = page();
    const keeper = glanceKeeper(w.asWindow, () => []);
    for (let i = 0; i < 50; i++) keeper.showing(SESSION, false);
    expect(w.timers).toHaveLength(1);
  });
});

describe("the glance: the entry's hooks", () => {
  it("load the capture when asked, hand it what the session view reported before, when a message was typed and which boxes scrolled, and forget", async () => {
    const w = windowAt(`#/s/${SESSION}`);
    const page = appPage();
    w.document.body.appendChild(el("div", { id: "root" }, page));
    // Scrolled too, but it never said so: its position is not read.
    const pre = page.descendants().find((e) => e.localName === "pre");
    // (Its sizes make a read show: with the fake's zero sizes a read would keep 0, never 7.)
    let preReads = 0;
    if (pre) {
      pre.scrollHeight = 300;
      pre.clientHeight = 100;
      Object.defineProperty(pre, "scrollTop", {
        get: () => {
          preReads++;
          return 7;
        },
      });
    }
    glanceShowing(SESSION, false);
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      vi.setSystemTime(50_000);
      glanceTyping();
      let later: (() => void) | undefined;
      installGlance(w.asWindow, () => [], (task) => {
        later = task;
      });
      expect(w.timers).toHaveLength(0);
      // The message list scrolls (to the newest message) once the app has rendered.
      w.document.dispatch("scroll", page.descendants().find((e) => e.className === "message-list"));
      later?.();
      await vi.waitFor(() => expect(w.timers.length).toBeGreaterThan(0));
      // Due while the typing has not paused: put off.
      w.timers.shift()?.fn();
      w.timers.shift()?.fn();
      expect(w.localStorage.getItem(PICTURE)).toBeNull();
      vi.setSystemTime(50_000 + GLANCE_TYPING_QUIET_MS);
      w.run();
    } finally {
      vi.useRealTimers();
    }
    const kept = w.localStorage.getItem(PICTURE) ?? "";
    expect(kept).toContain("Answer 4999 with care");
    // The list's distance from its bottom is kept; the code block's position was never read.
    expect(kept).toContain('"message-list","",{}');
    expect(kept).toContain(",40]");
    expect(kept).not.toContain(",193]");
    expect(preReads).toBe(0);
    forgetGlance();
    expect(w.localStorage.getItem(PICTURE)).toBeNull();
  });
});
