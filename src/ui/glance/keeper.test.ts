/** The glance's keeper: when the picture is taken (idle, slices, typing, leaving) and kept, and the entry's hooks that start it. */
import { describe, expect, it, vi } from "vitest";
import { el, type FakeWindow } from "../../testing/fake-dom";
import { captureGlance, GLANCE_TYPING_QUIET_MS, glanceKeeper } from "./capture";
import { forgetGlances } from "./dismiss";
import { forgetGlance, glanceShowing, glanceTyping, installGlance } from "./keeper";
import { GLANCE_KEY, type Glance } from "./paint";
import { appPage, BUILD, PICTURE, SESSION, windowAt } from "../../testing/glance-page";

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
