import { describe, expect, it } from "vitest";
import { glanceScript } from "../../../build-plugins/glance-inline";
import { el, type FakeElement, FakeNode, FakeWindow } from "../../testing/fake-dom";
import { captureGlance, GLANCE_MAX_CHARS, serializeGlance } from "./capture";
import * as first from "./dismiss";
import { dismissGlance } from "./dismiss";
import { GLANCE_ID, GLANCE_KEY, GLANCE_MAX_MS, type Glance, type GlanceNode, paintGlance, safeValue } from "./paint";
import { appPage, BUILD, PICTURE, SESSION, windowAt } from "../../testing/glance-page";

function capturedPage(): Glance {
  const root = el("div", { id: "root" }, appPage());
  const g = captureGlance(root as unknown as Element, SESSION, 1400, BUILD, 1_000);
  if (!g) throw new Error("no glance");
  return g;
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
