import { useEffect, useLayoutEffect, useRef, useState } from "react";
import type { SessionStatus } from "../../core/bus";
import type { MessageWithParts } from "../../core/schema";
import { useAppEvent } from "../app-events";
import { placeTour, TOUR_ANCHORS, type TourPlacement, visibleBox } from "./tour-anchor";
import { dismissedSet, saveDismissed, takeFocusRequest } from "./tour-state";

interface Tip {
  id: string;
  title: string;
  text: string;
  /** Whether the moment for this tip has come. */
  when: (m: MessageWithParts[], status: SessionStatus) => boolean;
}

const parts = (m: MessageWithParts[]) => m.flatMap((x) => x.parts);

/** Short callouts that point at the mechanisms as they happen. */
const TIPS: Tip[] = [
  { id: "parts", title: "Parts", text: "An answer is a message made of parts: reasoning (collapsed), text, tool calls and step markers. Each is stored in IndexedDB as it streams.", when: (m) => m.some((x) => x.info.role === "assistant" && x.parts.length > 1) },
  { id: "tools", title: "Tool states", text: "A tool call goes pending (arguments streaming) → running → completed or failed. Click a tool card to see its input and output.", when: (m) => parts(m).some((p) => p.type === "tool") },
  { id: "meter", title: "Context meter", text: "Every step records its tokens and cost (the small line under it). The meter in the header shows how full the model's context window is.", when: (m) => parts(m).filter((p) => p.type === "step-finish").length >= 2 },
  { id: "xray", title: "Context X-ray", text: "Open “Context X-ray” in the header to see exactly what the model gets on the next call, section by section.", when: (m) => parts(m).filter((p) => p.type === "step-finish").length >= 4 },
  { id: "compaction", title: "Compaction boundary", text: "The window filled up: tabcode asked the model for a summary (“What did we do so far?”). From now on the model sees the summary instead of the older messages — the X-ray shows the boundary.", when: (m) => m.some((x) => x.info.role === "assistant" && x.info.summary === true) },
  { id: "fork", title: "Fork, revert, replay", text: "Each message has Fork (a new session from that point, files included) and Revert (undo its turn, files too); with a mouse they show when you point at the message. “Replay” steps through the whole session — handy in class.", when: (m, s) => s.type === "idle" && m.length > 2 },
];

const samePlace = (a: TourPlacement | undefined, b: TourPlacement) =>
  a !== undefined && a.kind === b.kind && (a.kind === "sheet" || (b.kind === "popover" && Math.round(a.top) === Math.round(b.top) && Math.round(a.left) === Math.round(b.left)));

/** Keeps the popover next to its element (highlighted) through resizes, scrolling and streamed layout shifts. */
function useAnchored(stepID: string | undefined, pop: React.RefObject<HTMLElement | null>): TourPlacement | undefined {
  const [place, setPlace] = useState<TourPlacement>();
  useLayoutEffect(() => {
    if (!stepID) return;
    let target: HTMLElement | null = null;
    let scrolled = false;
    const update = () => {
      const el = TOUR_ANCHORS[stepID]?.() ?? null;
      if (el !== target) {
        target?.classList.remove("tour-target");
        el?.classList.add("tour-target");
        target = el;
      }
      if (el && !scrolled) {
        scrolled = true;
        el.scrollIntoView?.({ block: "nearest" });
      }
      const box = pop.current?.getBoundingClientRect();
      const area = el ? undefined : document.querySelector(".message-scroll")?.getBoundingClientRect();
      const next = placeTour(el ? visibleBox(el) : undefined, { width: box?.width ?? 320, height: box?.height ?? 160 }, { width: window.innerWidth, height: window.innerHeight }, area);
      setPlace((cur) => (samePlace(cur, next) ? cur : next));
    };
    update();
    window.addEventListener("resize", update);
    window.addEventListener("scroll", update, true);
    // Streamed text moves elements without a resize or scroll event.
    const timer = setInterval(update, 300);
    return () => {
      window.removeEventListener("resize", update);
      window.removeEventListener("scroll", update, true);
      clearInterval(timer);
      target?.classList.remove("tour-target");
    };
  }, [stepID, pop]);
  return place;
}

/**
 * The guided tour of a demo session: its steps in order, each shown when its moment has come,
 * anchored to the element it explains (highlighted; a bottom sheet on phones). Escape or "End tour"
 * closes it (the help menu restarts it); focus returns to where it was.
 */
export function Tour({ messages, status }: { messages: MessageWithParts[]; status: SessionStatus }) {
  const [dismissed, setDismissed] = useState<Set<string>>(dismissedSet);
  const pop = useRef<HTMLElement>(null);
  const returnTo = useRef<HTMLElement | null>(null);
  useAppEvent("tour-restart", () => setDismissed(new Set()));
  // Strictly in order: the first step not dismissed yet, once its moment has come.
  const index = dismissed.has("all") ? -1 : TIPS.findIndex((t) => !dismissed.has(t.id));
  const next = TIPS[index];
  const tip = next?.when(messages, status) ? next : undefined;
  const place = useAnchored(tip?.id, pop);
  useEffect(() => saveDismissed(dismissed), [dismissed]);
  // A bottom sheet (phones) takes its height from the page instead of covering the composer.
  const sheet = tip !== undefined && place?.kind === "sheet";
  useLayoutEffect(() => {
    const el = pop.current;
    if (!sheet || !el) return;
    const root = document.documentElement;
    const reserve = () => root.style.setProperty("--tour-sheet-h", `${Math.ceil(el.getBoundingClientRect().height)}px`);
    reserve();
    const watch = typeof ResizeObserver === "function" ? new ResizeObserver(reserve) : undefined;
    watch?.observe(el);
    return () => {
      watch?.disconnect();
      root.style.removeProperty("--tour-sheet-h");
    };
  }, [sheet]);
  // After a restart the first step takes the focus; it goes back when the tour closes.
  useEffect(() => {
    if (!tip || !takeFocusRequest()) return;
    returnTo.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    pop.current?.querySelector<HTMLButtonElement>("button.tour-next")?.focus();
  }, [tip]);
  const hadFocus = useRef(false);
  // While a step is shown, Esc anywhere (outside a dialog or another field's own Esc) closes the tour first:
  // the user is answering what they see, and the demo's run keeps going (a second Esc stops it).
  const shown = tip !== undefined;
  useEffect(() => {
    if (!shown) return;
    const onKey = (e: globalThis.KeyboardEvent) => {
      // An open dialog, phone drawer, menu or suggestion list takes Esc first (it is what the user is in).
      if (e.key !== "Escape" || e.shiftKey || e.defaultPrevented || document.querySelector('dialog[open], .drawer, [role="menu"], [role="listbox"]')) return;
      const t = e.target instanceof Element ? e.target : null;
      if (t?.closest('input[type="search"]')) return;
      e.preventDefault();
      hadFocus.current = pop.current?.contains(document.activeElement) === true;
      setDismissed((d) => new Set([...d, "all"]));
    };
    // Capture: before the composer's own Esc (which stops a run).
    window.addEventListener("keydown", onKey, true);
    return () => window.removeEventListener("keydown", onKey, true);
  }, [shown]);
  useEffect(() => {
    if (tip) return;
    if (hadFocus.current) (returnTo.current?.isConnected ? returnTo.current : document.getElementById("composer-input"))?.focus();
    hadFocus.current = false;
    returnTo.current = null;
  }, [tip]);
  if (!tip) return null;

  const close = (ids: string[]) => {
    hadFocus.current = pop.current?.contains(document.activeElement) === true;
    setDismissed(new Set([...dismissed, ...ids]));
  };
  const style = place?.kind === "popover" ? { top: place.top, left: place.left } : undefined;
  return (
    <aside
      ref={pop}
      className={`tour ${place?.kind === "sheet" ? "tour-sheet" : `tour-popover tour-${place?.kind === "popover" ? place.side : "over"}`}`}
      style={style}
      aria-label="Guided tour"
      aria-live="polite"
      onFocus={(e) => {
        if (!returnTo.current && e.relatedTarget instanceof HTMLElement && !e.currentTarget.contains(e.relatedTarget)) returnTo.current = e.relatedTarget;
      }}
    >
      <strong>{tip.title}</strong>{" "}
      <span className="tour-step">
        · step {index + 1} of {TIPS.length}
      </span>
      <p>{tip.text}</p>
      <div className="tour-actions">
        <button type="button" className="link" onClick={() => close(["all"])}>
          End tour
        </button>
        <button type="button" className="tour-next" onClick={() => close([tip.id])}>
          Got it
        </button>
      </div>
    </aside>
  );
}
