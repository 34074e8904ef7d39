/**
 * The glance's hooks for the rest of the app, small enough for the entry: the capture itself (`capture.ts`)
 * is loaded when the page is idle after the first screen, and the latest state reported before that is
 * handed to it then.
 */
import type { GlanceKeeper } from "./capture";
import { GLANCE_KEY } from "./dismiss";

let keeper: GlanceKeeper | undefined;
let started = false;
let last: [session: string | undefined, busy: boolean] | undefined;

/** Starts keeping the glance of this page once `when` runs its task (`secrets`: values never to be kept). */
export function installGlance(win: Window, secrets: () => readonly string[], when: (task: () => void) => void): void {
  if (started) return;
  started = true;
  when(() => {
    import("./capture")
      .then((m) => {
        keeper = m.glanceKeeper(win, secrets);
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

/** A session was deleted: no snapshot may show it (its title is in every snapshot's sidebar). */
export function forgetGlance(): void {
  if (keeper) keeper.forget();
  else
    try {
      globalThis.localStorage?.removeItem(GLANCE_KEY);
    } catch {
      // No storage: nothing to forget.
    }
}
