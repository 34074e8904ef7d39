/**
 * The glance's hooks for the rest of the app, small enough for the entry: the capture itself (`capture.ts`)
 * is loaded when the page is idle after the first screen, and the latest state reported before that is
 * handed to it then.
 */
import type { GlanceKeeper } from "./capture";
import { forgetGlances } from "./dismiss";

let keeper: GlanceKeeper | undefined;
let started: Window | undefined;
let last: [session: string | undefined, busy: boolean] | undefined;
let typedAt = 0;
/**
 * Elements that fired a scroll event since the glance was installed (before the app's first render): the
 * capture reads the scroll position of these only (see `captureGlance`). A box scrolled by the user, by the
 * app or by the browser fires one, and the capture runs after that event.
 */
const scrolledBoxes = new WeakSet<object>();

/** Starts keeping the glance of this page once `when` runs its task (`secrets`: values never to be kept). */
export function installGlance(win: Window, secrets: () => readonly string[], when: (task: () => void) => void): void {
  if (started) return;
  started = win;
  win.document.addEventListener(
    "scroll",
    (e) => {
      if (e.target) scrolledBoxes.add(e.target);
    },
    { capture: true, passive: true },
  );
  when(() => {
    import("./capture")
      .then((m) => {
        keeper = m.glanceKeeper(win, secrets, () => typedAt, Date.now, (el) => scrolledBoxes.has(el));
        if (last) keeper.showing(...last);
      })
      .catch(() => undefined);
  });
}

/** The session view reports what it shows (undefined when it closes) on every change. */
export function glanceShowing(session: string | undefined, busy: boolean): void {
  last = [session, busy];
  keeper?.showing(session, busy);
}

/** The user typed in the composer: no capture until the typing pauses (`GLANCE_TYPING_QUIET_MS`). */
export function glanceTyping(): void {
  typedAt = Date.now();
}

/** A session was deleted (or replaced by an import): no picture may show it (its title is in every picture's sidebar). */
export function forgetGlance(): void {
  try {
    const storage = (started ?? globalThis).localStorage;
    if (storage) forgetGlances(storage);
  } catch {
    // No storage: nothing to forget.
  }
}
