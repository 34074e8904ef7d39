import { useCallback, useEffect, useLayoutEffect, useRef, useState } from "react";
import { FILES_PANEL, SESSIONS_PANEL, useLayout } from "../hooks/layout";

export interface NoticeAction {
  label: string;
  run: () => void;
  /**
   * Runs when the toast goes without its action having run (its time ran out, ✕, pushed out by newer ones):
   * what the action could still undo is made final then, never while its button can still be pressed.
   */
  expire?: () => void;
}

export interface Notice {
  id: number;
  text: string;
  kind: "error" | "info";
  action?: NoticeAction;
}

/** How long a toast stays (paused while hovered or focused). Errors stay longer: they need reading. */
export const TOAST_MS = { info: 6000, error: 12000, action: 8000 } as const;
/** At most this many toasts at once; the oldest goes first. */
export const TOAST_LIMIT = 3;

/** The toast queue: newest last, deduplicated by text, capped at TOAST_LIMIT. */
export function pushNotice(list: Notice[], n: Notice): Notice[] {
  return [...list.filter((x) => x.text !== n.text), n].slice(-TOAST_LIMIT);
}

export function useNotices() {
  const [notices, setNotices] = useState<Notice[]>([]);
  const current = useRef<Notice[]>([]);
  const update = useCallback((next: Notice[], ran?: number) => {
    const gone = current.current.filter((n) => !next.includes(n));
    current.current = next;
    setNotices(next);
    for (const n of gone) if (n.id !== ran) n.action?.expire?.();
  }, []);
  const notify = useCallback(
    (text: string, kind: Notice["kind"] = "error", action?: NoticeAction) => update(pushNotice(current.current, { id: Date.now() + Math.random(), text, kind, action })),
    [update],
  );
  /** Takes a toast away; `ran` when its action ran (nothing to expire then). */
  const dismiss = useCallback(
    (id: number, ran = false) =>
      update(
        current.current.filter((x) => x.id !== id),
        ran ? id : undefined,
      ),
    [update],
  );
  return { notices, notify, dismiss };
}

function Toast({ notice, onDismiss }: { notice: Notice; onDismiss: (ran?: boolean) => void }) {
  const [paused, setPaused] = useState(false);
  const dismissRef = useRef(onDismiss);
  dismissRef.current = onDismiss;
  useEffect(() => {
    if (paused) return;
    const t = setTimeout(() => dismissRef.current(), notice.action ? TOAST_MS.action : TOAST_MS[notice.kind]);
    return () => clearTimeout(t);
  }, [paused, notice]);
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: hover/focus only pause the timer; the buttons inside are the controls
    <div
      className={`notice ${notice.kind}`}
      role={notice.kind === "error" ? "alert" : "status"}
      onMouseEnter={() => setPaused(true)}
      onMouseLeave={() => setPaused(false)}
      onFocus={() => setPaused(true)}
      onBlur={() => setPaused(false)}
    >
      <span>{notice.text}</span>
      {notice.action && (
        <button
          type="button"
          onClick={() => {
            notice.action?.run();
            onDismiss(true);
          }}
        >
          {notice.action.label}
        </button>
      )}
      <button type="button" className="icon" aria-label="Dismiss" onClick={() => onDismiss()}>
        ✕
      </button>
    </div>
  );
}

/**
 * The toast region. It sits over the conversation just under the top bar (the session's header, else the ☰ bar), at
 * its right on a wide screen and across it on a narrow one: pinned to the window's top right it covered
 * the header's Share and More, and clicks on them hit the toast. On a phone with a drawer open it sits at the
 * foot of the drawer, which gives up that much room at its bottom, so the drawer's controls stay uncovered and
 * a notice about what one of them did still shows. Modal dialogs sit above it in the top layer.
 */
export function Toasts({ notices, onDismiss }: { notices: Notice[]; onDismiss: (id: number, ran?: boolean) => void }) {
  const box = useRef<HTMLElement>(null);
  const layout = useLayout();
  const shown = notices.length > 0;
  // One drawer at a time on a narrow screen; its element may be missing (the files drawer is the session view's).
  const drawerID = !layout.narrow ? null : layout.sessions.open ? SESSIONS_PANEL.id : layout.files.open ? FILES_PANEL.id : null;
  useLayoutEffect(() => {
    const el = box.current;
    const main = document.querySelector("main.main");
    if (!el) return;
    const reset = () => {
      for (const k of ["top", "bottom", "left", "right", "maxWidth"] as const) el.style[k] = "";
    };
    reset();
    if (!main || !shown) return;
    const sizes = new ResizeObserver(() => place());
    let watched: Element[] = [];
    let drawer: HTMLElement | null = null;
    const watch = (els: (Element | null)[]) => {
      const now = els.filter((e): e is Element => e !== null);
      if (now.length === watched.length && now.every((e, i) => e === watched[i])) return;
      for (const e of watched) sizes.unobserve(e);
      watched = now;
      for (const e of watched) sizes.observe(e);
    };
    const place = () => {
      const vw = document.documentElement.clientWidth;
      const nextDrawer = drawerID ? document.getElementById(drawerID) : null;
      if (drawer && drawer !== nextDrawer) drawer.style.paddingBottom = "";
      drawer = nextDrawer;
      if (drawer) {
        watch([drawer, el]);
        const r = drawer.getBoundingClientRect();
        el.style.top = "auto";
        el.style.bottom = "8px";
        el.style.left = `${Math.round(r.left) + 8}px`;
        el.style.right = `${Math.max(8, Math.round(vw - r.right) + 8)}px`;
        el.style.maxWidth = "none";
        // The drawer's content ends above the toasts (it scrolls inside what is left).
        drawer.style.paddingBottom = `${Math.ceil(el.getBoundingClientRect().height) + 16}px`;
        return;
      }
      // The session view, Replay and a shared page each have a .session-header; the home page only the ☰ bar (or none).
      const bar = main.querySelector(".session-header") ?? main.querySelector(".main-bar");
      // Across the conversation only: the files panel beside it on a wide screen has controls at its top too.
      const column = main.querySelector(".conversation") ?? main.querySelector(".message-scroll") ?? main;
      watch([main, bar, column]);
      const m = column.getBoundingClientRect();
      const gap = layout.narrow ? 12 : 16;
      // Below the banners under the header too (a revert's Unrevert and Keep my changes are at their right end).
      const barBottom = bar ? bar.getBoundingClientRect().bottom : main.getBoundingClientRect().top;
      const below = column === main ? barBottom : Math.max(barBottom, m.top);
      el.style.top = `${Math.max(12, Math.round(below) + (bar ? 8 : 12))}px`;
      el.style.right = `${Math.max(gap, Math.round(vw - m.right) + gap)}px`;
      if (layout.narrow) el.style.left = `${Math.max(gap, Math.round(m.left) + gap)}px`;
      // A conversation squeezed by both side panels: the toasts stay inside it.
      else el.style.maxWidth = `${Math.max(240, Math.min(420, Math.round(m.width) - 2 * gap))}px`;
    };
    place();
    // Another screen (a session opened, loaded, left) replaces the main area's children, and a session view puts
    // its header and conversation in once loaded. Only while a toast shows, and at most once a frame (a streamed
    // answer adds nodes all the time).
    let frame = 0;
    const screens = new MutationObserver(() => {
      if (!frame)
        frame = requestAnimationFrame(() => {
          frame = 0;
          place();
        });
    });
    screens.observe(main, { childList: true, subtree: true });
    return () => {
      cancelAnimationFrame(frame);
      sizes.disconnect();
      screens.disconnect();
      if (drawer) drawer.style.paddingBottom = "";
    };
  }, [layout.narrow, shown, drawerID]);
  return (
    <section ref={box} className="notices" aria-label="Notifications">
      {notices.map((n) => (
        <Toast key={n.id} notice={n} onDismiss={(ran) => onDismiss(n.id, ran)} />
      ))}
    </section>
  );
}
