/**
 * Takes the glance (see `paint.ts`): the page's layout, text and scroll positions as a small tree of
 * allowed elements, kept in localStorage for the next cold open of the same session (the last
 * `GLANCE_KEEP` sessions left keep theirs). Taken when the page
 * is idle after the session's screen changed and when the page is hidden or left; never while an answer
 * streams into the session shown (a crash then would leave a snapshot of half an answer the store may not
 * hold). Dialogs, the values of controls and anything not on the lists in `paint.ts` are left out, and a
 * snapshot holding the API key or anything shaped like a key (should any element ever show one) is not kept.
 */
import { scrubSecrets } from "../../adapters/llm/scrub-secrets";
import { GLANCE_KEEP, glanceIndex, pictureKey } from "./dismiss";
import { GLANCE_ATTRS, GLANCE_HTML_TAGS, GLANCE_KEY, GLANCE_SVG_TAGS, GLANCE_VERSION, type Glance, type GlanceElement, type GlanceNode, glanceBuild, keepAttr, safeValue } from "./paint";

/** A snapshot larger than this (JSON characters) is not kept: localStorage is small and read synchronously. */
export const GLANCE_MAX_CHARS = 400_000;
/** At most this many elements are taken (a few thousand on a long session's screen). */
const MAX_ELEMENTS = 12_000;
/** Roles of elements left out with everything inside them (so are `<dialog>`, `[hidden]` and `[data-glance='skip']`). */
const SKIP_ROLES = new Set(["dialog", "alertdialog", "menu", "tooltip"]);

const HTML = new Set(GLANCE_HTML_TAGS);
const SVG = new Set(GLANCE_SVG_TAGS);
const ATTRS = new Set(GLANCE_ATTRS);
const SVG_NS = "http://www.w3.org/2000/svg";

/** Whether `el` (whose `data-glance` is `mark`) is left out of the snapshot, with everything inside it. */
function skipped(el: Element, tag: string, mark: string | null): boolean {
  if (tag === "dialog" || mark === "skip" || el.hasAttribute("hidden")) return true;
  const role = el.getAttribute("role");
  return role !== null && SKIP_ROLES.has(role);
}

/**
 * The snapshot of `root`'s content for `session`, or undefined when it has too many elements. `scrolled` says
 * which elements may have been scrolled: only their scroll positions are read, and those of elements marked
 * `data-glance="scroll"` (the message list: a page in a hidden tab draws no frames, so its scroll events wait). Reading a position lays the
 * page out first, and a box inside a `content-visibility: auto` block off screen (code blocks, tables, tool
 * outputs) is laid out for the read and skipped again after it: asking every element of a 30 KB answer took
 * 95 layouts and 31–87 ms of a 92–183 ms capture (traced, 2,000-part session).
 */
export function captureGlance(root: Element, session: string, width: number, build: string, now = Date.now(), scrolled: (el: Element) => boolean = () => true): Glance | undefined {
  const steps = captureSteps(root, session, width, build, now, scrolled);
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

/** Elements walked between two pauses of a capture taken in slices (`captureSteps`). */
const STEP_ELEMENTS = 100;
/** The most a slice of a capture at idle takes (ms), less when the browser's idle period is shorter. */
const SLICE_MS = 20;
/** Captures in slices given up in a row (the page changed under them) before one is taken whole. */
const MAX_RETRIES = 3;

/**
 * `captureGlance` as steps: it pauses (yields) every `STEP_ELEMENTS` elements, so a caller can spread a long
 * page's capture over several idle periods, and returns the snapshot. One generator walking with a stack of its
 * own: a generator per element (`yield*` at each level) made every capture about 1.5 times slower.
 */
export function* captureSteps(
  root: Element,
  session: string,
  width: number,
  build: string,
  now = Date.now(),
  scrolled: (el: Element) => boolean = () => true,
): Generator<void, Glance | undefined, void> {
  let elements = 0;
  const top: GlanceNode[] = [];
  /** An element being walked: where its content goes, its next child, and what is read once its content is in. */
  interface Frame {
    kids: GlanceNode[];
    next: ChildNode | null;
    open?: { el: Element; out: GlanceElement; mark: string | null };
  }
  const stack: Frame[] = [{ kids: top, next: root.firstChild }];
  for (let frame = stack.at(-1); frame; frame = stack.at(-1)) {
    const c = frame.next;
    if (c === null) {
      stack.pop();
      // The element's content is in: its scroll position, read last as it always was.
      const o = frame.open;
      if (o && (o.mark === "scroll" || scrolled(o.el)) && o.el.scrollTop > 0) o.out.push(Math.max(0, o.el.scrollHeight - o.el.scrollTop - o.el.clientHeight));
      continue;
    }
    frame.next = c.nextSibling;
    if (c.nodeType === 3) {
      frame.kids.push(c.nodeValue ?? "");
      continue;
    }
    if (c.nodeType !== 1) continue;
    const el = c as Element;
    const tag = el.localName;
    const inSvg = el.namespaceURI === SVG_NS;
    if (inSvg ? !SVG.has(tag) : !HTML.has(tag)) continue;
    const mark = el.getAttribute("data-glance");
    if (skipped(el, tag, mark)) continue;
    // Over the cap the picture is not kept: no need to walk the rest.
    if (++elements > MAX_ELEMENTS) return undefined;
    if (elements % STEP_ELEMENTS === 0) yield;
    const attrs: Record<string, string> = {};
    // The attributes the element has (one to three, mostly), not a lookup of each of the ~40 kept names.
    for (const name of el.getAttributeNames()) {
      if (!ATTRS.has(name)) continue;
      const v = el.getAttribute(name);
      if (v !== null && keepAttr(tag, name, v)) attrs[name] = v;
    }
    const style = el.getAttribute("style") ?? "";
    const kids: GlanceNode[] = [];
    const out: GlanceElement = [tag, el.getAttribute("class") ?? "", safeValue(style) ? style : "", attrs, kids];
    frame.kids.push(out);
    // What a text box holds is the user's draft, never kept (React sets it as a property; a default value is a child).
    stack.push({ kids, next: tag === "textarea" ? null : el.firstChild, open: { el, out, mark } });
  }
  return { v: GLANCE_VERSION, session, width, build, at: now, root: top };
}

/** Every text and attribute value of the snapshot, in order and joined as they read on screen (a key split across highlighted spans is whole here). */
function glanceText(nodes: readonly GlanceNode[], out: string[] = []): string[] {
  for (const n of nodes) {
    if (typeof n === "string") out.push(n);
    else {
      out.push(n[2], ...Object.values(n[3]));
      glanceText(n[4], out);
    }
  }
  return out;
}

/**
 * The snapshot as stored, or undefined when it must not be kept: too large, or holding one of `secrets` (the
 * configured key, trimmed as it is used) or anything shaped like a provider's key (the same check as error
 * messages get: `scrubSecrets`).
 */
export function serializeGlance(g: Glance, secrets: readonly string[]): string | undefined {
  const json = JSON.stringify(g);
  if (json.length > GLANCE_MAX_CHARS) return undefined;
  const text = glanceText(g.root).join("");
  for (const s of [...secrets, undefined]) if (scrubSecrets(text, s) !== text) return undefined;
  return json;
}

export interface GlanceKeeper {
  /** The session on screen (undefined: none) and whether an answer is streaming into it; its screen changed, so
   * the snapshot is taken again when the page is next idle (at most once a second, never while busy). */
  showing(session: string | undefined, busy: boolean): void;
}

/**
 * After the last keystroke in the composer, the screen is not captured for this long: the send that follows
 * changes it in a moment, and a capture (15-45 ms of the page's time after a long answer, measured) would
 * sit in the middle of that send or delay the keystrokes.
 */
export const GLANCE_TYPING_QUIET_MS = 2_000;

/**
 * Keeps the glance of `document`'s `#root` in `localStorage`; `secrets` returns the values that must never be in it,
 * `typedAt` when the user last typed a message (see `GLANCE_TYPING_QUIET_MS`), `scrolled` whether an element may
 * have been scrolled (see `captureGlance`).
 */
export function glanceKeeper(
  win: Window,
  secrets: () => readonly string[],
  typedAt: () => number = () => 0,
  now: () => number = Date.now,
  scrolled: (el: Element) => boolean = () => true,
): GlanceKeeper {
  let session: string | undefined;
  let busy = false;
  let pending = false;
  let last = 0;
  /** The capture being taken in slices, if one is: stopped by a newer one, a change under it, or a run. */
  let slicing: { stop(): void } | undefined;
  /** The screen changed again while a capture was being taken in slices: another is asked for once that one ends. */
  let again = false;
  /** Slice captures given up in a row because the page changed under them: after `MAX_RETRIES`, one is taken whole. */
  let retries = 0;
  const keep = (of: string, g: Glance | undefined): void => {
    try {
      const json = g && serializeGlance(g, secrets());
      const store = win.localStorage;
      const others = glanceIndex(store).filter((id) => id !== of);
      if (json) {
        // The sessions last left keep theirs; the oldest beyond `GLANCE_KEEP` go.
        for (const id of others.slice(GLANCE_KEEP - 1)) store.removeItem(pictureKey(id));
        store.setItem(pictureKey(of), json);
        store.setItem(GLANCE_KEY, JSON.stringify([of, ...others.slice(0, GLANCE_KEEP - 1)]));
      } else {
        store.removeItem(pictureKey(of));
        store.setItem(GLANCE_KEY, JSON.stringify(others));
      }
      last = now();
    } catch {
      // A full quota or a DOM surprise: the next cold open simply has no snapshot.
    }
  };
  const take = (leaving: boolean, deadline?: IdleDeadline): void => {
    pending = false;
    slicing?.stop();
    again = false;
    if (!session || busy) return;
    // Leaving the page takes it at once, typing or not: it is the last chance.
    const typing = GLANCE_TYPING_QUIET_MS - (now() - typedAt());
    if (!leaving && typing > 0) {
      schedule(typing);
      return;
    }
    const root = win.document.getElementById("root");
    if (!root) return;
    const of = session;
    const width = win.innerWidth;
    const build = glanceBuild(win.document);
    if (leaving || retries >= MAX_RETRIES) {
      retries = 0;
      let whole: Glance | undefined;
      try {
        whole = captureGlance(root, of, width, build, now(), scrolled);
      } catch {
        return;
      }
      keep(of, whole);
      return;
    }
    const steps = captureSteps(root, of, width, build, now(), scrolled);
    // At idle, in slices that fit the idle time the browser gives (a long answer's capture took up to 44 ms in one
    // piece, measured): given up, and asked for again, when the page changes under it (the slices would not agree).
    const Watch = (win as { MutationObserver?: typeof MutationObserver }).MutationObserver;
    let changed = false;
    const watch = Watch
      ? new Watch(() => {
          changed = true;
        })
      : undefined;
    watch?.observe(root, { subtree: true, childList: true, characterData: true, attributes: true });
    let stopped = false;
    const job = {
      stop: () => {
        stopped = true;
        watch?.disconnect();
        if (slicing === job) slicing = undefined;
      },
    };
    slicing = job;
    const slice = (d?: IdleDeadline): void => {
      if (stopped) return;
      const typing = GLANCE_TYPING_QUIET_MS - (now() - typedAt());
      if (changed || session !== of || busy || typing > 0) {
        job.stop();
        // Only a page that keeps changing under the slices counts towards taking one whole: not a switch of
        // session, a run, or typing (the capture waits for its pause, as at the start).
        if (session !== of || busy) retries = 0;
        else if (changed && typing <= 0) retries++;
        again = false;
        schedule(Math.max(0, typing));
        return;
      }
      const end = now() + Math.min(SLICE_MS, d ? d.timeRemaining() : SLICE_MS);
      try {
        for (;;) {
          const r = steps.next();
          if (r.done) {
            const finish = (): void => {
              job.stop();
              retries = 0;
              keep(of, r.value);
              if (again) {
                again = false;
                schedule();
              }
            };
            // Saving (the JSON, the secret check, localStorage) takes 10-30 ms after a long answer: in an idle
            // callback of its own when this slice's time is spent. The picture is whole already; a capture taken
            // meanwhile (the page left) stops this job, and its picture is the one kept.
            if (now() < end) finish();
            else
              idle(() => {
                if (!stopped) finish();
              });
            return;
          }
          if (now() >= end) break;
        }
      } catch {
        job.stop();
        again = false;
        return;
      }
      idle(slice);
    };
    slice(deadline);
  };
  const idle = (task: (d?: IdleDeadline) => void): void => {
    const ric = (win as { requestIdleCallback?: (cb: (d: IdleDeadline) => void, o?: { timeout: number }) => number }).requestIdleCallback;
    if (ric) ric.call(win, task, { timeout: 5_000 });
    else win.setTimeout(task, 500);
  };
  /** Asks for a capture when the page is next idle, at least a second after the last one and `after` ms from now. */
  const schedule = (after = 0): void => {
    if (pending || !session || busy) return;
    // A capture under way is not started over (a session view renders often; each start would lose the slices
    // taken): a change of the page, of the session or a run gives it up at its next slice, which asks again;
    // otherwise another capture follows it, a second after it, as one taken in one piece would have been followed.
    if (slicing) {
      again = true;
      return;
    }
    pending = true;
    win.setTimeout(() => idle((d) => take(false, d)), Math.max(after, 1_000 - (now() - last)));
  };
  const onHide = (): void => {
    if (win.document.visibilityState === "hidden") take(true);
  };
  win.addEventListener("pagehide", () => take(true));
  win.document.addEventListener("visibilitychange", onHide);
  return {
    showing(s, b) {
      session = s;
      busy = b;
      schedule();
    },
  };
}

