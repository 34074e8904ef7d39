import { useVirtualizer } from "@tanstack/react-virtual";
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from "react";
import type { MessageWithParts } from "../../core/schema";
import { MessageView } from "./message-view";
import { stepPlace } from "./turn-steps";
import { systemEventKind } from "../../core/conversation/system-event";

/** A row's height before it is measured (px). */
const ESTIMATE = 120;
/** Rows rendered beyond the visible ones, so scrolling finds them ready; the first paint renders one. */
const OVERSCAN = 6;

/**
 * The session's messages in a virtualised list (long sessions keep only the
 * visible rows in the DOM). Sticks to the bottom while new content streams,
 * unless the user scrolled up.
 */
export function MessageList({ messages, focusMessageID }: { messages: MessageWithParts[]; focusMessageID?: string }) {
  const parent = useRef<HTMLDivElement>(null);
  const stick = useRef(true);
  // Scrolled up, away from the newest message: a button brings the reader back (and says when more arrived).
  const [away, setAwayState] = useState(false);
  const [arrived, setArrivedState] = useState(false);
  const shownAway = useRef(false);
  const shownArrived = useRef(false);
  const setAway = useCallback((v: boolean) => {
    shownAway.current = v;
    setAwayState(v);
  }, []);
  const setArrived = useCallback((v: boolean) => {
    shownArrived.current = v;
    setArrivedState(v);
  }, []);
  // Opening a session paints only what shows (each row is a markdown parse); the rows around it follow
  // right after that paint.
  const [overscan, setOverscan] = useState(1);
  const hasRows = messages.length > 0;
  useEffect(() => {
    if (!hasRows) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => setOverscan(OVERSCAN), 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      if (timer !== undefined) clearTimeout(timer);
    };
  }, [hasRows]);
  const virt = useVirtualizer({
    count: messages.length,
    getScrollElement: () => parent.current,
    estimateSize: () => ESTIMATE,
    overscan,
    // A session opens at its newest message: the first render lays out the last rows, not the first ones
    // (which would be rendered, measured and thrown away before the jump to the end).
    initialOffset: () => (focusMessageID ? 0 : messages.length * ESTIMATE),
    getItemKey: (i) => messages[i]?.info.id ?? i,
    // A long session's older messages arrive after its newest ones are painted (and a search jumps into
    // them): rows added above keep the reader's row where it is, worked out in the same render. Without it
    // the old scroll offset pointed into the new rows, which were rendered, measured and thrown away.
    anchorTo: "end",
  });
  const virtRef = useRef(virt);
  virtRef.current = virt;

  useEffect(() => {
    const el = parent.current;
    if (!el) return;
    const onScroll = () => {
      const gap = el.scrollHeight - el.scrollTop - el.clientHeight;
      stick.current = gap < 80;
      // More than half a screen up: far enough that the newest message is out of sight. (State only on a
      // change: while an answer streams the list scrolls itself every frame, and a render per scroll event
      // would be a render of the list per frame.)
      const isAway = gap > el.clientHeight / 2;
      if (isAway !== shownAway.current) setAway(isAway);
      if (stick.current && shownArrived.current) setArrived(false);
    };
    // The reader moving up lets go of the bottom at once, not at the scroll event the move causes: an answer's
    // frame committed in between would jump the list back down (and the virtualiser's jump to the end, which
    // retries over a few frames after a send, would too).
    let touchY: number | undefined;
    // Only a move the list itself takes: not one a scrolled box inside it (a tool's output, a code block) takes
    // first, nor one on a list already at its top (too short to scroll): no scroll event would undo the let-go.
    const listMoves = (target: EventTarget | null) => {
      if (el.scrollTop <= 0) return false;
      for (let n = target instanceof Element ? target : null; n && n !== el; n = n.parentElement)
        if (n.scrollTop > 0 && n.scrollHeight > n.clientHeight && /(auto|scroll)/.test(getComputedStyle(n).overflowY)) return false;
      return true;
    };
    const letGo = (target: EventTarget | null) => {
      if (!stick.current || !listMoves(target)) return;
      stick.current = false;
      virtRef.current.cancelScroll();
    };
    const onWheel = (e: WheelEvent) => {
      if (e.deltaY < 0) letGo(e.target);
    };
    const onTouchStart = (e: TouchEvent) => {
      touchY = e.touches[0]?.clientY;
    };
    const onTouchMove = (e: TouchEvent) => {
      const y = e.touches[0]?.clientY;
      // A finger moving down the screen scrolls the content up.
      if (y !== undefined && touchY !== undefined && y > touchY + 2) letGo(e.target);
    };
    const onKey = (e: KeyboardEvent) => {
      // Keys that move inside a field or a menu move there, not the list.
      if (e.target instanceof HTMLElement && e.target.closest("input, textarea, select, [contenteditable], [role=menu]")) return;
      if (e.key === "PageUp" || e.key === "ArrowUp" || e.key === "Home" || (e.key === " " && e.shiftKey)) letGo(null);
    };
    // The scrollbar: a press on the list itself (not on a message in it).
    const onPointerDown = (e: PointerEvent) => {
      if (e.target === el) letGo(null);
    };
    const listeners = [
      ["scroll", onScroll],
      ["wheel", onWheel],
      ["touchstart", onTouchStart],
      ["touchmove", onTouchMove],
      ["keydown", onKey],
      ["pointerdown", onPointerDown],
    ] as const;
    // Added in the next frame: in the first render's effects, registering the listener cost ~12 ms of an in-app
    // open (profiled), and nobody scrolls the list before it has painted (it starts stuck to the bottom).
    const frame = requestAnimationFrame(() => {
      for (const [type, fn] of listeners) el.addEventListener(type, fn as EventListener, { passive: true });
    });
    return () => {
      cancelAnimationFrame(frame);
      for (const [type, fn] of listeners) el.removeEventListener(type, fn as EventListener);
    };
  }, [setAway, setArrived]);

  // Jump to a message (search results, links): scroll it into view once, and stop sticking to the bottom.
  const focused = useRef<string | undefined>(undefined);
  useLayoutEffect(() => {
    if (!focusMessageID || focused.current === focusMessageID) return;
    const index = messages.findIndex((m) => m.info.id === focusMessageID);
    if (index < 0) return;
    focused.current = focusMessageID;
    stick.current = false;
    virt.scrollToIndex(index, { align: "start" });
  }, [focusMessageID, messages, virt]);

  const total = virt.getTotalSize();
  // Sticking to the bottom while an answer streams: one scroll write per frame. (The virtualiser's
  // `scrollToIndex` re-measures and retries over several frames; per streamed frame that forced a
  // layout of the list again and again.) The first jump to the end still goes through it, since the
  // rows near the end are not measured yet.
  const landed = useRef(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: re-stick when content grows
  useLayoutEffect(() => {
    const el = parent.current;
    if (!stick.current || messages.length === 0 || !el) return;
    if (!landed.current) {
      landed.current = true;
      virt.scrollToIndex(messages.length - 1, { align: "end" });
      return;
    }
    const bottom = el.scrollHeight - el.clientHeight;
    if (el.scrollTop < bottom - 1) el.scrollTop = bottom;
  }, [messages, total]);

  // New messages while the reader is up the conversation: the button says so. A message the person just
  // sent brings the list back to the bottom (its answer is what they want to see). "New" is a newer newest
  // message (ids ascend): older messages read in after the first paint are not news.
  const newest = messages[messages.length - 1];
  const newestID = newest?.info.id;
  const seen = useRef(newestID);
  const grew = newestID !== undefined && (seen.current === undefined || newestID > seen.current);
  if (grew && !stick.current && newest?.info.role === "user" && systemEventKind(newest) === undefined) {
    stick.current = true;
    landed.current = false;
  }
  useEffect(() => {
    if (newestID !== undefined && seen.current !== undefined && newestID > seen.current && !stick.current && !shownArrived.current) setArrived(true);
    if (stick.current) {
      if (shownAway.current) setAway(false);
      if (shownArrived.current) setArrived(false);
    }
    seen.current = newestID;
  }, [newestID, setAway, setArrived]);
  // The list grew below a reader who is up the conversation (no scroll event says so): the button shows.
  // biome-ignore lint/correctness/useExhaustiveDependencies: measured again when the content's height changes
  useLayoutEffect(() => {
    const el = parent.current;
    if (!el || stick.current) return;
    const isAway = el.scrollHeight - el.scrollTop - el.clientHeight > el.clientHeight / 2;
    if (isAway !== shownAway.current) setAway(isAway);
  }, [total]);
  const toLatest = () => {
    const el = parent.current;
    if (!el || messages.length === 0) return;
    stick.current = true;
    setAway(false);
    setArrived(false);
    virt.scrollToIndex(messages.length - 1, { align: "end" });
    // The button goes away: the keyboard goes on to the message box, or (a shared link, Replay) to the list.
    (document.getElementById("composer-input") ?? el).focus({ preventScroll: true });
  };

  const items = virt.getVirtualItems();
  return (
    <div ref={parent} className="message-scroll" tabIndex={-1} data-glance="scroll">
      <div className="message-canvas" style={{ height: total }}>
        <div className="message-window" style={{ transform: `translateY(${items[0]?.start ?? 0}px)` }}>
          {items.map((row) => {
            const m = messages[row.index];
            if (!m) return null;
            const { continued, last } = stepPlace(messages, row.index);
            return (
              <div key={row.key} data-index={row.index} ref={virt.measureElement}>
                <MessageView message={m} continued={continued} lastStep={last} highlighted={m.info.id === focusMessageID} />
              </div>
            );
          })}
        </div>
      </div>
      {/* A dock of no height at the bottom of the visible list: the button floats there without moving a row. */}
      {away && (
        <div className="jump-dock">
          <button type="button" className="jump-latest" onClick={toLatest}>
            {arrived ? "New messages" : "Latest"} <span aria-hidden="true">↓</span>
            <span className="visually-hidden"> — jump to the newest message</span>
          </button>
        </div>
      )}
    </div>
  );
}
