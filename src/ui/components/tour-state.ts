/** What the tour remembers (in the entry bundle; the tour itself loads on demand). */
const STORAGE_KEY = "tabcode.tour.dismissed";
/** Set by a restart (a click in the help menu): the first step then takes the focus. */
let focusOnNextStep = false;

/** Forgets what was dismissed: the next demo session starts the tour from its first step. */
export function resetTour(): void {
  focusOnNextStep = true;
  try {
    localStorage.removeItem(STORAGE_KEY);
  } catch {
    // Storage unavailable: nothing was remembered.
  }
}

/** Whether a restart asked for the focus (asked once). */
export function takeFocusRequest(): boolean {
  const asked = focusOnNextStep;
  focusOnNextStep = false;
  return asked;
}

export function dismissedSet(): Set<string> {
  try {
    const raw = localStorage.getItem(STORAGE_KEY);
    return new Set(raw ? (JSON.parse(raw) as string[]) : []);
  } catch {
    return new Set();
  }
}

export function saveDismissed(dismissed: ReadonlySet<string>): void {
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify([...dismissed]));
  } catch {
    // Storage may be unavailable; the tour then just forgets.
  }
}
