import { useCallback, useEffect, useLayoutEffect, useRef, useState } from "react";
import { NARROW, useMedia } from "../hooks/use-media";

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
 * The toast region: top right (away from the composer); modal dialogs sit above it in the top layer. Below 900 px
 * it spans the width just under the top bar (the session's header, else the ☰ bar), whose controls it covered.
 */
export function Toasts({ notices, onDismiss }: { notices: Notice[]; onDismiss: (id: number, ran?: boolean) => void }) {
  const box = useRef<HTMLElement>(null);
  const narrow = useMedia(NARROW);
  const shown = notices.length > 0;
  useLayoutEffect(() => {
    const el = box.current;
    const main = document.querySelector("main.main");
    if (!el) return;
    el.style.top = "";
    if (!main || !narrow || !shown) return;
    let bar: Element | null = null;
    const sizes = new ResizeObserver(() => place());
    const place = () => {
      // The session view, Replay and a shared page each have a .session-header; the home page only the ☰ bar.
      const now = main.querySelector(".session-header") ?? main.querySelector(".main-bar");
      if (now !== bar) {
        if (bar) sizes.unobserve(bar);
        bar = now;
        if (bar) sizes.observe(bar);
      }
      el.style.top = bar ? `${Math.max(12, Math.round(bar.getBoundingClientRect().bottom) + 8)}px` : "";
    };
    place();
    // Another screen (a session opened, loaded, left) replaces the main area's children.
    const screens = new MutationObserver(place);
    screens.observe(main, { childList: true });
    return () => {
      sizes.disconnect();
      screens.disconnect();
    };
  }, [narrow, shown]);
  return (
    <section ref={box} className="notices" aria-label="Notifications">
      {notices.map((n) => (
        <Toast key={n.id} notice={n} onDismiss={(ran) => onDismiss(n.id, ran)} />
      ))}
    </section>
  );
}
